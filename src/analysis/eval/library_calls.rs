//! Calls of functions outside the crate, which no summary describes: the
//! wrappers that are their argument (`Some(x)`, `Box::new(x)`), the codecs
//! a tuple or record keeps its shape through for the scope check
//! (rules.md: "a serialised tuple .. is that tuple"), and the constructors
//! that make a key of key material (`CacheKey(tenant, key)`).

use syn::Expr;

use super::Evaluator;
use crate::analysis::value::{Construct, ConstructKind, Value};
use crate::analysis::vocab::{is_file_read, is_wrapper_call};

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
