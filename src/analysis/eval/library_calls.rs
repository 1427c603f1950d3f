//! Calls of functions outside the crate, which no summary describes: the
//! wrappers that are their argument (`Some(x)`, `Box::new(x)`), the codecs
//! a tuple or record keeps its shape through for the scope check
//! (rules.md: "a serialised tuple .. is that tuple"), and the constructors
//! that make a key of key material (`CacheKey(tenant, key)`); and methods
//! of values from outside the crate (`library_method`), through which what
//! the arguments carry flows on by default.

use syn::Expr;

use super::calls::own_accessor;
use super::sinks::is_self;
use super::{hashing, Demanded, Evaluator, MethodCall};
use crate::analysis::value::{Construct, ConstructKind, KeySource, Value};
use crate::analysis::vocab::{
    is_file_read, is_wrapper_call, ELEMENT_METHODS, NO_TEXT_FLOW, OPAQUE_GETTERS,
    REMAINDER_METHODS, SETTER_ACCESSORS, TRANSPARENT_METHODS,
};

impl Evaluator<'_> {
    /// A function outside the crate: wrappers keep their argument, an
    /// unknown function derives from its inputs without being the key they
    /// were building, and a tuple-struct constructor of key material makes
    /// a key (`CacheKey(tenant, key)`).
    pub(super) fn library_call(
        &self,
        func: &syn::ExprPath,
        name: &str,
        segments: &[String],
        args: Vec<Value>,
        expr: &Expr,
    ) -> Value {
        if name == "Err" {
            // Error values never become keys; what they mention does not matter.
            return Value::empty();
        }
        if is_file_read(segments) {
            // A file's content, not its path.
            return Value {
                stored: true,
                ..Value::empty()
            };
        }
        if args.len() == 1 && is_wrapper_call(name) {
            // `Some(x)`, `Box::new(x)`, `String::from(x)`: the value itself.
            return args.into_iter().next().unwrap_or_default();
        }
        if !segments
            .iter()
            .any(|s| s.chars().next().is_some_and(|c| c.is_uppercase()))
            || args.len() == 1
        {
            let mut v = Value::derived(args.iter());
            // A tuple or record serialised by a function we do not know
            // (`fdb::tuple::pack(&(tenant, key))`) is that tuple or record
            // for the scope check (rules.md): its parts are judged there.
            // Serialisers borrow what they encode; a record moved into a
            // constructor (`Arc::new_cyclic(|_| Timeline { .. })`) is not
            // a key.
            // So does a tuple written in place (`minicbor::to_vec((&org,
            // "notes.create", &idem))`), and an encoding of one already
            // serialised, beside options that carry nothing
            // (`multibase::encode(Base::Base32Lower, cbor)`).
            let arg_exprs: Vec<&Expr> = match expr {
                Expr::Call(call) => call.args.iter().collect(),
                _ => Vec::new(),
            };
            let mut carrying = (args.iter().zip(arg_exprs)).filter(|(a, _)| !a.is_empty());
            let serialised = match (carrying.next(), carrying.next()) {
                (Some((arg, arg_expr)), None) => {
                    // The one value a call is given beside options keeps its
                    // elements (`timeout(d, lookup)` of a block giving
                    // `(sk, hit)`): taken apart later, each is what it was.
                    if v.elems.is_none() {
                        v.elems.clone_from(&arg.elems);
                    }
                    let encodes = matches!(
                        arg_expr,
                        Expr::Reference(_)
                            | Expr::Tuple(_)
                            | Expr::Call(_)
                            | Expr::MethodCall(_)
                            | Expr::Try(_)
                            | Expr::Await(_)
                    );
                    encodes
                        && (arg.construct).is_some_and(|c| {
                            matches!(c.kind, ConstructKind::Tuple | ConstructKind::Struct)
                        })
                }
                _ => false,
            };
            if !serialised {
                v.construct = None;
            }
            // What a concatenation built flows on through a call we do not
            // know (`spawn_blocking(move || format!(..))`, `run(format!(..))`):
            // the key is still that concatenation.
            return v;
        }
        let mut v = Value::derived(args.iter());
        let key_type = func.path.segments.iter().rev().nth(1).is_some_and(|s| {
            let ty = s.ident.to_string();
            ty.contains("Key") || ty.contains("Scope")
        });
        // A record made around a key a constructor already scoped
        // (`Key::new("ns", "set", scoped.storage_key())`) is that key: its
        // construction stays the scoping call, where rules judge its parts.
        if (key_type || name.chars().next().is_some_and(|c| c.is_uppercase()))
            && v.is_key_material()
            && !v.scoped
        {
            if key_type {
                self.credential_scope(&mut v, expr);
            }
            v.concat = None;
            v.construct = Some(Construct {
                kind: ConstructKind::Struct,
                site: self.site(expr),
            });
        }
        v
    }
}

/// Methods of values from outside the crate, which no summary describes.
impl Evaluator<'_> {
    /// Any other method: transparent ones keep the receiver's value, opaque
    /// getters give nothing, and an unknown method keeps where the text came
    /// from, not the key shape (its name may still say what it returns).
    pub(super) fn library_method(&mut self, call: &MethodCall<'_>, recv: Value) -> Value {
        let method = call.method.as_str();
        let inputs = Demanded::of(std::iter::once(&recv).chain(&call.args));
        let own_accessor = own_accessor(method, &recv);
        if !NO_TEXT_FLOW.contains(&method) {
            self.write_out_params(method, &[&recv], &call.args, &call.exprs);
        }
        let mut value = self.library_method_value(call, recv);
        // A transparent method of another value is not resolved even where
        // one of the crate has its name (`crate_method`), but for an
        // accessor the crate may define on its own records.
        // So is a setter of that name given a value (`.key(k)`, `own_setter`).
        let setter = SETTER_ACCESSORS.contains(&method) && !call.args.is_empty();
        if is_self(&call.m.receiver)
            || !TRANSPARENT_METHODS.contains(&method)
            || own_accessor
            || setter
        {
            self.unresolved_call(method, inputs, &mut value);
        }
        value
    }

    /// [`Self::library_method`]'s value.
    fn library_method_value(&self, call: &MethodCall<'_>, mut recv: Value) -> Value {
        let method = call.method.as_str();
        if reads_part(method, call.args.len()) {
            // A defaulted map or list is empty: what is looked up in it or
            // taken from it is missing, not the default
            // (`headers.clone().unwrap_or_default().get("tenant")`).
            recv.fallbacks.clear();
        }
        if call.args.is_empty() {
            // `delivery.properties.message_id()`, `msg.key()` of a queue
            // message: an id the sender of the message minted.
            self.server_id_by_name(&mut recv, method, call.expr);
            let field = if method == "key" { "id" } else { method };
            self.entity_id_field(&mut recv, &call.m.receiver, field, call.expr);
            self.generated_id(&mut recv, method, call.expr);
        }
        // `cond.then_some(v)`: `v`, or nothing.
        if let ("then_some", [arg]) = (method, call.args.as_slice()) {
            return arg.clone();
        }
        // `fold(init, |acc, p| acc + p)`: the last accumulator, which the
        // closure made of `init` and the elements (`eval_fold_closure`),
        // not the elements themselves. Where nothing comes out of it that
        // the analysis follows (`(a << 8) | *b as u32`), the elements flow
        // on as through any call.
        if let ("fold" | "try_fold" | "rfold", [_, folded]) = (method, call.args.as_slice()) {
            if matches!(call.exprs.get(1), Some(Expr::Closure(_))) && !folded.is_empty() {
                return folded.clone();
            }
        }
        if TRANSPARENT_METHODS.contains(&method) {
            // An accessor's name given an argument is a builder's setter
            // (`.key(&order_digest)`): what it is given flows on too. The
            // error and option adapters (`expect`, `context`) only pass
            // their receiver on.
            let mut value = recv;
            if method == "to_string" {
                super::builders::render(&mut value);
            }
            if SETTER_ACCESSORS.contains(&method) {
                for arg in call.args.iter().filter(|a| sets_as_key(method, a)) {
                    value.join_as_part(arg);
                }
            }
            return value;
        }
        if OPAQUE_GETTERS.contains(&method) || REMAINDER_METHODS.contains(&method) {
            return Value::empty();
        }
        if ELEMENT_METHODS.contains(&method) {
            let mut value = recv;
            value.literal = None;
            match (method, call.args.as_slice()) {
                // Pairs: `for (item, key) in items.iter().zip(keys.iter())`.
                ("zip", [other]) => {
                    let mut pair = Value::derived([&value, other]);
                    pair.elems = Some(vec![value, other.clone()]);
                    return pair;
                }
                ("enumerate", []) => {
                    let mut pair = value.clone();
                    pair.elems = Some(vec![Value::empty(), value]);
                    return pair;
                }
                _ => {}
            }
            // `a.chain(b)`: the elements of both, scope parts too
            // (`once(tenant).chain(once(user)).chain([op, key])`).
            let both = method == "chain";
            for arg in call.args.iter().filter(|a| both || a.carries_key()) {
                value.join(arg);
            }
            return value;
        }
        // A tuple or record encoding itself (`(org, key).encode()` of
        // parity-scale-codec, `rec.to_vec()`) is that tuple or record for
        // the scope check, as a serialiser's call of it is
        // (`library_calls`): its parts are judged where it was written.
        let encodes_itself = (recv.construct)
            .is_some_and(|c| matches!(c.kind, ConstructKind::Tuple | ConstructKind::Struct))
            && call.args.iter().all(|a| a.is_empty());
        let mut value = recv;
        value.elems = None;
        if !encodes_itself {
            value.construct = None;
        }
        // A method given nothing changes the text it was built as, not
        // how it was built (`buf.freeze()`, `s.into_boxed_str()`): the
        // concatenation is still the key's. Given arguments, it may be
        // anything.
        let transforms = call.args.is_empty() && !NO_TEXT_FLOW.contains(&method);
        if !transforms {
            value.concat = None;
            value.concat_params.clear();
        }
        value.sql = None;
        // By default what a call the analysis does not know is given flows
        // on to its result (`RE.replace_all(&key, "_")`, a builder's
        // `.key(k)`), except through calls that answer a question about
        // their input instead of passing its text on.
        if !NO_TEXT_FLOW.contains(&method) {
            // The payload flows onto a value the expression makes around it
            // (`ReaderBuilder::new().has_headers(true).from_reader(&raw[..])`),
            // not out of a service it is handed to (`exporter.enqueue(&tenant,
            // &body)` answers with a job, `verifier.check(&body, sig)` with
            // a verdict).
            let wraps =
                !value.carries_flow() && crate::analysis::syntax::made_by_chain(&call.m.receiver);
            for arg in call.args.iter().filter(|a| passes_on(a)) {
                if carries_besides_payload(arg) {
                    value.join_as_part(arg);
                    continue;
                }
                if !wraps {
                    continue;
                }
                // It comes out as what the call made of it, not as itself:
                // a record storing that under the payload's hash is no
                // content-addressed copy (`payload_hash::content_addressed`),
                // by the payload's site or by its parameters.
                let mut arg = arg.clone();
                if let Some(payload) = arg.payload.as_mut() {
                    payload.site = self.site(call.expr);
                }
                arg.params = 0;
                value.join_as_part(&arg);
            }
            hashing::namespace_args(&call.args, &mut value);
        }
        // A setter named like the key (`.key(&order_digest)`) sets what it
        // is given: its name says what that is only where the value does not.
        let given = (call.args.iter()).any(|a| a.payload_hash.is_some());
        if self.vocab.is_client_key_name(method) && !method.starts_with("set") && !given {
            value
                .client_key
                .get_or_insert((self.origin(call.expr), KeySource::Named));
        } else if let Some(component) = self.vocab.component_of_name(method) {
            value.add_component(component, self.origin(call.expr));
        }
        value
    }
}

/// What an unknown call or a builder's setter passes on from an argument
/// to its result: the client key, a payload hash (`.key(&order_digest)`
/// is in what the builder builds, as a key is), a value stripped of a
/// separator (`cond.then_some(tenant)`), and the request's payload known by
/// flow (a CSV reader made `from_reader(&body[..])`). Not a minted id: passed on
/// through every builder, those made tuwunel 4x slower for no finding. Nor
/// a defaulted value: a default is a component's only where the code
/// defaulting it names it one, and passed on through any call a group id
/// defaulted to `0` for a session became a key's principal.
fn passes_on(arg: &Value) -> bool {
    arg.payload.as_ref().is_some_and(|p| !p.by_name) || carries_besides_payload(arg)
}

/// [`passes_on`] for what an argument carries besides the payload itself.
fn carries_besides_payload(arg: &Value) -> bool {
    arg.client_key.is_some() || arg.payload_hash.is_some() || !arg.sanitized.is_empty()
}

/// What a builder's setter passes on ([`passes_on`]); a server id only
/// where it is set as the key (`.key(&event_id)`).
fn sets_as_key(method: &str, arg: &Value) -> bool {
    passes_on(arg) || (arg.server_id.is_some() && !matches!(method, "value" | "inner"))
}

/// Whether a method reads an element or entry of its receiver (a keyed
/// lookup, or an iterator step) instead of converting the whole value.
fn reads_part(method: &str, args: usize) -> bool {
    ELEMENT_METHODS.contains(&method)
        || (args > 0
            && matches!(
                method,
                "get"
                    | "get_one"
                    | "get_all"
                    | "get_mut"
                    | "get_key_value"
                    | "get_str"
                    | "get_value"
            ))
}
