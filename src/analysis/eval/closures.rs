//! Closures: those handed to a method of a value (`map`, `and_then`,
//! `unwrap_or_else`), those held in bindings and called later, and those
//! held in struct fields (`analysis::field_closures`), each evaluated with
//! its parameters bound to what the call gives it.

use syn::Expr;

use super::{Evaluator, MAX_CLOSURE_NESTING};
use crate::analysis::hashing::{self, HashCall};
use crate::analysis::value::{Site, Value};

impl Evaluator<'_> {
    /// `key_for(&client_key)` where `let key_for = |k| format!(..)`: the
    /// closure's body with its parameters bound to the arguments.
    pub(super) fn local_closure_call(
        &mut self,
        func: &syn::ExprPath,
        args: &[Value],
    ) -> Option<Value> {
        let name = func.path.get_ident()?.to_string();
        let closure = self.local_closures.get(&name)?.clone();
        if closure.inputs.len() != args.len() {
            return None;
        }
        if self.closure_calls.contains(&name) || self.closure_calls.len() >= MAX_CLOSURE_NESTING {
            // Not entered again: the call carries what its arguments carry.
            return Some(args.iter().fold(Value::empty(), |all, arg| all.union(arg)));
        }
        self.closure_calls.push(name);
        let mut value = self.call_closure(&closure, args);
        self.closure_calls.pop();
        scoped_server_id_at_call(&mut value, args, self.site(func));
        Some(value)
    }

    /// What a closure returns when called with `args`: its body, with its
    /// parameters bound to them (a `return` inside returns from it).
    fn call_closure(&mut self, closure: &syn::ExprClosure, args: &[Value]) -> Value {
        self.scoped(|this| {
            for (input, arg) in closure.inputs.iter().zip(args) {
                this.bind_pat(input, arg.clone(), None);
            }
            this.closure_body(closure)
        })
    }

    /// `(keyer.derive)(who, key)`: the closures held in fields named
    /// `derive` in this file (`analysis::field_closures`), each with its
    /// parameters bound to the arguments; what any of them returns.
    pub(super) fn field_closure_call(
        &mut self,
        call: &syn::ExprCall,
        args: &[Value],
    ) -> Option<Value> {
        let func = &*call.func;
        let Expr::Field(field) = crate::analysis::syntax::strip_parens(func) else {
            return None;
        };
        let syn::Member::Named(name) = &field.member else {
            return None;
        };
        let name = name.to_string();
        let file = self.file;
        let closures: Vec<&syn::ExprClosure> = (self.index.field_closures.get(&name))
            .into_iter()
            .flatten()
            .filter(|(f, c)| *f == file && c.inputs.len() == args.len())
            .map(|(_, c)| *c)
            .collect();
        if closures.is_empty() {
            return None;
        }
        let marker = format!(".{name}");
        if self.closure_calls.contains(&marker) || self.closure_calls.len() >= MAX_CLOSURE_NESTING {
            return Some(args.iter().fold(Value::empty(), |all, arg| all.union(arg)));
        }
        self.closure_calls.push(marker);
        let mut value = Value::empty();
        for closure in closures {
            let returned = self.call_closure(closure, args);
            value = value.union(&returned);
        }
        self.closure_calls.pop();
        scoped_server_id_at_call(&mut value, args, self.site(call));
        Some(value)
    }

    pub(super) fn eval_closure(&mut self, c: &syn::ExprClosure, arg: Option<Value>) -> Value {
        self.scoped(|this| {
            for input in &c.inputs {
                this.bind_closure_input(input, arg.clone().unwrap_or_default());
            }
            this.closure_body(c)
        })
    }

    /// Binds a closure's parameter to what it is given. One typed as a
    /// body extractor is the payload, as a function's is (warp's
    /// `.and_then(|body: Bytes| ..)` after `warp::body::bytes()`).
    fn bind_closure_input(&mut self, input: &syn::Pat, mut given: Value) {
        if let syn::Pat::Type(typed) = input {
            self.body_extractor_param(&typed.ty, &mut given, &*typed.pat);
        }
        self.bind_pat(input, given, None);
    }

    /// What a closure's body gives, its parameters bound: its value and
    /// what a `return` inside it returns (from the closure, not from the
    /// function around it).
    fn closure_body(&mut self, c: &syn::ExprClosure) -> Value {
        let saved_ret = std::mem::take(&mut self.ret);
        let body = self.eval(&c.body);
        let inner_ret = std::mem::replace(&mut self.ret, saved_ret);
        body.union(&inner_ret)
    }

    /// `fold(init, |acc, x| ..)`'s closure: the accumulator bound to
    /// `init`, the element to what the receiver yields.
    pub(super) fn eval_fold_closure(
        &mut self,
        c: &syn::ExprClosure,
        init: Value,
        element: Value,
    ) -> Value {
        let mut inputs = c.inputs.iter();
        let (Some(acc), Some(elem)) = (inputs.next(), inputs.next()) else {
            return self.eval_closure(c, Some(element));
        };
        self.scoped(|this| {
            this.bind_closure_input(acc, init);
            this.bind_closure_input(elem, element);
            this.closure_body(c)
        })
    }

    /// A local closure or a crate function of one parameter handed by its
    /// path to an adapter (`.map(mk)`, `.map(strip_attempt_suffix)`): run
    /// on the value it receives, as for `.map(|k| strip_attempt_suffix(k))`.
    fn local_fn_applied(&mut self, func: &Expr, input: &Value) -> Option<Value> {
        let Expr::Path(p) = func else {
            return None;
        };
        // A closure held in a binding (`let mk = |k| format!(..);` ..
        // `.map(mk)`) runs there as where it is called by name.
        if let Some(v) = self.local_closure_call(p, std::slice::from_ref(input)) {
            return Some(v);
        }
        let segments = crate::analysis::syntax::path_segments(&p.path);
        let ids = (self.index).resolve_path(&segments, self.self_ty.as_deref(), Some(self.file));
        if ids.is_empty() {
            // Another crate's digest handed by its path (`.map(adler2::
            // adler32_slice)`): what it is given comes out hashed.
            let resolved = self.foreign_call_path(&segments, false);
            if hashing::classify_call(&resolved, 1) == Some(HashCall::Digest)
                || hashing::is_foreign_digest(&resolved)
            {
                return Some(self.digest_value(input, func));
            }
            // Not read yet: a later round reads it where the value it is
            // given carries a fact (the pre-filter links `.map(f)` to `f`).
            if let [name] = segments.as_slice() {
                let site = self.call_site(name);
                self.demand_site(&site, super::demanded::Demanded::of([input]));
            }
            return None;
        }
        // One value in, as `Option::map` gives it; a filter chain's
        // `and_then(handler)` hands a handler the extracted values apart.
        let unary = |id: &usize| {
            let def = &self.index.fns[*id];
            !def.has_receiver() && def.sig.inputs.len() == 1
        };
        if !ids.iter().all(unary) {
            return None;
        }
        Some(self.apply(&ids, std::slice::from_ref(input), &[func], func))
    }

    pub(super) fn closure_method(&mut self, method: &str, recv: Value, args: &[&Expr]) -> Value {
        let mut result = Value::empty();
        let mut keep_recv = matches!(
            method,
            "unwrap_or_else"
                | "or_else"
                | "filter"
                | "inspect"
                | "get_or_insert_with"
                | "ok_or_else"
        );
        for (i, arg) in args.iter().enumerate() {
            match arg {
                Expr::Closure(c) => {
                    let input = if matches!(
                        method,
                        "unwrap_or_else" | "or_else" | "ok_or_else" | "get_or_insert_with"
                    ) || (method == "map_or_else" && i == 0)
                    {
                        Value::empty()
                    } else {
                        recv.clone()
                    };
                    let v = self.eval_closure(c, Some(input));
                    if method != "filter" && method != "inspect" && method != "ok_or_else" {
                        result = result.union(&v);
                    }
                }
                other => {
                    let mapped = matches!(method, "map" | "and_then" | "then" | "filter_map");
                    if let (true, Some(v)) = (mapped, self.local_fn_applied(other, &recv)) {
                        result = result.union(&v);
                        continue;
                    }
                    let v = self.eval(other);
                    if method == "map_or" && i == 0 {
                        result = result.union(&v);
                    } else if matches!(
                        method,
                        "map" | "and_then" | "then" | "filter_map" | "flat_map"
                    ) {
                        // A function path: `map(String::from)` keeps the value.
                        keep_recv = true;
                    }
                }
            }
        }
        if keep_recv {
            result = recv.union(&result);
        }
        result
    }
}

/// A closure's `scoped(..)` given a server id by the call (`(self.make_key)
/// (&account, principal, &event_id)`): the closure is shared with callers
/// giving it client keys, so the key is changed where the server id is
/// given, as a helper function's is (`server_keys::substitute_server_facts`).
fn scoped_server_id_at_call(value: &mut Value, args: &[Value], call_site: Site) {
    let scoped_inside = value.scoped && value.construct.is_some_and(|c| c.site != call_site);
    if scoped_inside && value.server_concat.is_none() && args.iter().any(|a| a.server_id.is_some())
    {
        value.server_concat = Some(call_site);
    }
}
