//! The request's input as the evaluator finds it by where it comes from:
//! a handler's body extractor, a gRPC message, an entry point's records,
//! a destructured extractor of a record the unit deserialises, a record
//! asked of the framework's request (`let o: Order = req.json().await?`,
//! `req.extract::<Order>()`), a body extractor type's taking function
//! (`Body::take_from(&mut state)`). Sources of IDEM003, split from
//! `payload_hash`, which says what digests them.

use std::collections::HashSet;
use std::ops::ControlFlow;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use super::{Evaluator, MethodCall};
use crate::analysis::index::{CrateIndex, FnDef};
use crate::analysis::payload_sources;
use crate::analysis::syntax;
use crate::analysis::value::Value;
use crate::analysis::vocab::words;

impl Evaluator<'_> {
    /// A parameter typed as a body extractor (`raw: Bytes`,
    /// `Json(input): Json<T>`) holds the payload by where it comes from.
    pub(super) fn body_extractor_param(
        &self,
        ty: &syn::Type,
        value: &mut Value,
        node: &impl Spanned,
    ) {
        if value.client_key.is_none()
            && (payload_sources::type_is_body_extractor(ty)
                || payload_sources::type_is_input_record(ty)
                || is_streamed_body(ty))
        {
            value.payload = Some(self.fact_origin(node));
        }
    }

    /// A trait method's `Request<Message>` parameter (a gRPC service's
    /// `async fn charge(&self, request: Request<Charge>)`, tonic or
    /// volo): the framework decoded the message from the request body, so
    /// it is the payload whatever the message is called. Not a body type
    /// (`Request<Body>`, the whole HTTP request), a generic `Request<B>`
    /// or a server's state (`Request<AppState>` of tide).
    pub(super) fn rpc_message_param(&self, ty: &syn::Type, value: &mut Value, node: &impl Spanned) {
        let Some(segment) = syntax::type_path_within(ty, &[]).and_then(|p| p.segments.last())
        else {
            return;
        };
        let Some(message) = (segment.ident == "Request")
            .then(|| syntax::only_type_argument(segment))
            .flatten()
            .and_then(|inner| syntax::type_name_within(inner, &["Streaming"]))
        else {
            return;
        };
        let framework = matches!(
            message.as_str(),
            "Body"
                | "Incoming"
                | "BoxBody"
                | "UnsyncBoxBody"
                | "Full"
                | "Empty"
                | "Bytes"
                | "String"
        );
        let state = ["State", "Context", "Ctx", "Config"]
            .iter()
            .any(|w| message.ends_with(w));
        let generic = message.len() == 1;
        if value.client_key.is_none() && value.payload.is_none() && !framework && !state && !generic
        {
            value.payload = Some(self.fact_origin(node));
        }
    }

    /// A parameter of a request's entry point (`#[server] fn checkout(cart:
    /// Cart)`): the framework deserialises it from the request, so a record
    /// of the unit is the payload. (One named like the client's key stays a
    /// key by its name: which header or field fills it is not visible.)
    pub(super) fn entry_point_param(&self, ty: &syn::Type, value: &mut Value, node: &impl Spanned) {
        if value.client_key.is_some() || value.payload.is_some() {
            return;
        }
        let record = crate::analysis::syntax::type_name_within(ty, &[])
            .is_some_and(|name| self.index.types.contains_key(&name));
        if record || self.deserialized_in_wrapper(ty) {
            value.payload = Some(self.fact_origin(node));
        }
    }

    /// A parameter destructuring a framework's extractor of a record the
    /// unit deserialises (`FormPart(order): FormPart<DrinksOrder>`), in
    /// any function: the pattern is the extractor idiom itself, so the
    /// record came out of the request whatever the wrapper is called. A
    /// server's state or configuration handed in the same way
    /// (`State(cfg): State<Settings>`, `Extension(..)`, actix's `Data`)
    /// is not the request's.
    pub(super) fn destructured_extractor_param(
        &self,
        pat: &Pat,
        ty: &syn::Type,
        value: &mut Value,
    ) {
        let Pat::TupleStruct(ts) = pat else {
            return;
        };
        let wrapper = syntax::type_name_within(ty, &[]);
        let same = ts.path.segments.last().map(|s| s.ident.to_string()) == wrapper;
        let state = wrapper
            .as_deref()
            .is_some_and(|w| matches!(w, "State" | "Extension" | "Data" | "Config"));
        if value.client_key.is_none()
            && value.payload.is_none()
            && same
            && !state
            && self.deserialized_in_wrapper(ty)
        {
            value.payload = Some(self.fact_origin(pat));
        }
    }

    /// A framework's extractor of a record the unit deserialises
    /// (`TypedBody<QuoteRequest>`, `Query<Filter>`): another crate's
    /// generic type whose one type argument derives `Deserialize`. The
    /// handler's context (`RequestContext<Api>`) derives nothing.
    fn deserialized_in_wrapper(&self, ty: &syn::Type) -> bool {
        let Some(inner) = (syntax::type_path_within(ty, &[]))
            .and_then(|p| p.segments.last())
            .and_then(syntax::only_type_argument)
        else {
            return false;
        };
        self.index.is_foreign_type(ty, self.file)
            && syntax::type_name_within(inner, &[]).is_some_and(|n| self.index.is_deserialized(&n))
    }

    /// `Json(input)` destructures the request body: what it binds is the payload.
    pub(super) fn body_extractor_pattern(&self, ty: &str, value: &mut Value, node: &impl Spanned) {
        if value.client_key.is_none()
            && value.payload.is_none()
            && payload_sources::is_body_extractor(ty)
        {
            value.payload = Some(self.fact_origin(node));
        }
    }

    /// `let slot: BookSlot = params.parse()?;` where the crate's `BookSlot`
    /// derives `Deserialize`: a record parsed from what the caller sent is
    /// the request's input, whatever the framework calls the raw params.
    pub(super) fn parsed_into_record(&mut self, ty: &syn::Type, init: &Expr) -> Option<Value> {
        let record = syntax::type_name_within(ty, &[])?;
        let m = syntax::asked_call(init)?;
        let verb = words(&m.method.to_string());
        let parses = verb
            .iter()
            .any(|w| matches!(w.as_str(), "parse" | "deserialize" | "deserialise"));
        // Whatever the verb, a record asked of the framework's request
        // (`let o: Order = req.json().await?`, `ctx.input()?`): another
        // crate's value given nothing hands back what it holds, decoded.
        let asked_of_request = self.is_foreign_param(&m.receiver);
        if !(parses || asked_of_request)
            || !m.args.is_empty()
            || !self.index.is_deserialized(&record)
        {
            return None;
        }
        let mut value = self.eval(init);
        if value.client_key.is_none() && value.digest.is_none() && value.payload_hash.is_none() {
            value.payload = Some(self.fact_origin(init));
        }
        Some(value)
    }

    /// `Body::take_from(&mut state)` (gotham), `Bytes::from_request(req)`:
    /// a body extractor type's own function that takes, reads or extracts
    /// gives the request's body, as its methods do; not one that makes a
    /// body to send (`Body::from(json)`, `Body::empty()`).
    pub(super) fn body_taken_by_type(&self, path: &syn::Path, value: &mut Value, expr: &Expr) {
        let mut segments = path.segments.iter().rev();
        let (Some(function), Some(ty)) = (segments.next(), segments.next()) else {
            return;
        };
        let taking = words(&function.ident.to_string()).iter().any(|w| {
            matches!(
                w.as_str(),
                "take" | "extract" | "read" | "request" | "borrow" | "collect"
            )
        });
        if taking
            && value.payload.is_none()
            && value.client_key.is_none()
            && payload_sources::is_body_extractor(&ty.ident.to_string())
        {
            value.payload = Some(self.fact_origin(expr));
        }
    }

    /// `req.json::<Order>()`: a record the unit deserialises, asked by
    /// its type of a parameter of another crate's type (the request) that
    /// is given nothing else, is the request's input decoded, whatever the
    /// verb.
    pub(super) fn decoded_by_turbofish(
        &self,
        call: &MethodCall<'_>,
        recv: Value,
    ) -> ControlFlow<Value, Value> {
        let Some(turbofish) = &call.m.turbofish else {
            return ControlFlow::Continue(recv);
        };
        let record = match turbofish.args.first() {
            Some(syn::GenericArgument::Type(ty)) if turbofish.args.len() == 1 => {
                syntax::type_name_within(ty, &[])
            }
            _ => None,
        };
        if !call.args.is_empty()
            || recv.client_key.is_some()
            || !record.is_some_and(|r| self.index.is_deserialized(&r))
            || !self.is_foreign_param(&call.m.receiver)
        {
            return ControlFlow::Continue(recv);
        }
        let mut value = recv;
        value.payload = Some(self.fact_origin(call.expr));
        ControlFlow::Break(value)
    }
}

impl Evaluator<'_> {
    /// Whether `receiver` is a parameter of the framework's request type:
    /// another crate's type that some function of the unit reads the key
    /// header from (`ask.head("Idempotency-Key")`) or asks a record it
    /// deserialises of (`let o: Order = ask.json()?`), whatever the
    /// parameter is called.
    pub(super) fn is_request_param(&self, receiver: &Expr) -> bool {
        let Some(name) = syntax::place_name(receiver) else {
            return false;
        };
        let Some((_, ty)) = (self.foreign_param_types.iter()).find(|(n, _)| *n == name) else {
            return false;
        };
        self.is_foreign_param(receiver) && self.request_types().contains(ty)
    }

    fn request_types(&self) -> &HashSet<String> {
        (self.index.request_types).get_or_init(|| {
            let mut found = HashSet::new();
            for def in &self.index.fns {
                let params = foreign_params(self.index, def);
                if params.is_empty() {
                    continue;
                }
                let mut scan = RequestUses {
                    eval: self,
                    params: &params,
                    found: &mut found,
                };
                scan.visit_block(def.block);
            }
            found
        })
    }

    /// A string argument naming the key header, as a literal or a constant.
    fn names_key_header(&self, arg: &Expr) -> bool {
        (self.string_literal(arg, 0)).is_some_and(|t| self.vocab.is_key_header(&t))
    }
}

/// A function's parameters of another crate's types: name and type name.
fn foreign_params(index: &CrateIndex<'_>, def: &FnDef<'_>) -> Vec<(String, String)> {
    (def.named_params())
        .filter(|(_, ty)| index.is_foreign_type(ty, def.file) && !index.wraps_own_type(ty))
        .filter_map(|(name, ty)| Some((name, syntax::type_name_within(ty, &[])?)))
        .collect()
}

/// Finds the request's uses of one function's foreign parameters.
struct RequestUses<'e, 'a, 'p> {
    eval: &'e Evaluator<'a>,
    params: &'p [(String, String)],
    found: &'p mut HashSet<String>,
}

impl RequestUses<'_, '_, '_> {
    fn param_type(&self, receiver: &Expr) -> Option<&String> {
        let name = syntax::place_name(receiver)?;
        (self.params.iter())
            .find(|(n, _)| *n == name)
            .map(|(_, ty)| ty)
    }
}

impl<'ast> Visit<'ast> for RequestUses<'_, '_, '_> {
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if let Some(ty) = self.param_type(&m.receiver) {
            // Asked for the key header, or for any header by its name
            // (`inb.header("X-Request-Id")`): what a server reads a
            // request for, unless the value is named a response.
            let named_header = (m.method == "header" || m.method == "get_header")
                && (m.args.first()).is_some_and(|a| self.eval.string_literal(a, 0).is_some())
                && !super::payload_hash::names_response(&m.receiver);
            if named_header || m.args.iter().any(|a| self.eval.names_key_header(a)) {
                self.found.insert(ty.clone());
            }
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let (Pat::Type(pt), Some(init)) = (&local.pat, &local.init) {
            let record = syntax::type_name_within(&pt.ty, &[])
                .is_some_and(|r| self.eval.index.is_deserialized(&r));
            let asked = (syntax::asked_call(&init.expr))
                .filter(|m| m.args.is_empty())
                .and_then(|m| self.param_type(&m.receiver));
            if let (true, Some(ty)) = (record, asked) {
                self.found.insert(ty.clone());
            }
        }
        visit::visit_local(self, local);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// Rocket's request body (`data: Data<'_>`): its only generic argument is
/// a lifetime, where actix's `web::Data<T>` (the application's state) has
/// a type.
fn is_streamed_body(ty: &syn::Type) -> bool {
    let Some(segment) = syntax::type_path_within(ty, &[]).and_then(|p| p.segments.last()) else {
        return false;
    };
    let syn::PathArguments::AngleBracketed(args) = &segment.arguments else {
        return false;
    };
    segment.ident == "Data"
        && !args.args.is_empty()
        && args
            .args
            .iter()
            .all(|a| matches!(a, syn::GenericArgument::Lifetime(_)))
}
