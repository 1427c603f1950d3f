//! Macro calls, for all rules: which macros are evaluated and how.
//! `format!`/`write!` build strings (see `concat`), `query!` starts a SQL
//! chain (see `sinks`), logging and assertion macros never make keys, and
//! the arguments of any other macro are evaluated for key positions inside.

use proc_macro2::Span as PmSpan;

use super::Evaluator;
use crate::analysis::syntax::{last_ident, macro_args, span_of};
use crate::analysis::value::{Construct, ConstructKind, Site, Value};

const LOG_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "info",
    "debug",
    "warn",
    "error",
    "trace",
    "event",
    "span",
    "info_span",
    "debug_span",
    "warn_span",
    "error_span",
    "trace_span",
    "log",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "anyhow",
    "bail",
    "ensure",
    "eyre",
    "unreachable",
    "todo",
    "unimplemented",
    "matches",
    "instrument",
    "json",
    "include_str",
    "include_bytes",
    "env",
    "option_env",
    "cfg",
    "line",
    "file",
    "column",
    "module_path",
    "stringify",
    "compile_error",
    "tracing",
];

impl Evaluator<'_> {
    pub(super) fn eval_macro(&mut self, mac: &syn::Macro, span: PmSpan) -> Value {
        let name = last_ident(&mac.path);
        let Some(args) = macro_args(mac) else {
            return Value::empty();
        };
        let site = Site {
            file: self.file,
            span: span_of(span),
        };
        match name.as_str() {
            "format" | "format_args" => self.eval_format(&args, site),
            "write" | "writeln" => self.eval_write(&args, site),
            "vec" => {
                let elems: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
                let mut v = Value::derived(elems.iter());
                if v.is_key_material() {
                    v.construct = Some(Construct {
                        kind: ConstructKind::Array,
                        site,
                    });
                }
                v.elems = Some(elems);
                v
            }
            "dbg" => args.first().map(|a| self.eval(a)).unwrap_or_default(),
            "query" | "query_as" | "query_scalar" | "query_unchecked" | "query_as_unchecked" => {
                self.sql_macro(&name, &args)
            }
            _ if LOG_MACROS.contains(&name.as_str()) => Value::empty(),
            _ => {
                // Unknown macros: evaluate their arguments for key positions inside.
                for a in &args {
                    self.eval(a);
                }
                Value::empty()
            }
        }
    }
}
