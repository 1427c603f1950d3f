//! Out-parameters of calls the analysis does not know: `&mut buf` given to
//! one is written by it, with what its other inputs carry
//! (`ciborium::into_writer(&req, &mut buf)`, `reader.read(&mut out)`,
//! `xof.read(&mut digest)`). Values flow through anything by default
//! (rules.md, "Evidence and confidence"), through a buffer filled in place
//! as through a returned one. Only calls that read, write, encode or finish
//! into a buffer fill one: a query given `&mut conn` runs on the
//! connection, which does not become what the query carries.

use std::sync::Arc;

use syn::Expr;

use super::Evaluator;
use crate::analysis::syntax;
use crate::analysis::value::{CallSite, Value};
use crate::analysis::vocab::words;

impl Evaluator<'_> {
    /// Writes into each `&mut place` of `exprs` (the arguments of a call
    /// the analysis does not know) what `others` and the other arguments
    /// `args` carry.
    pub(super) fn write_out_params(
        &mut self,
        callee: &str,
        others: &[&Value],
        args: &[Value],
        exprs: &[&Expr],
    ) {
        let callee_words = words(callee);
        if !fills_buffer(&callee_words) {
            return;
        }
        // What a reader puts in a buffer comes from outside: the empty
        // `String::new()` it started as is no identity's default
        // (`rd.read_line(&mut line)` of a hand-written HTTP server).
        let reads = (callee_words.iter()).any(|w| w == "read" || w == "fill");
        for (n, expr) in exprs.iter().enumerate() {
            let Some(var) = syntax::lent_mut_place(expr) else {
                continue;
            };
            if reads {
                self.update(&var, |v| v.fallbacks.clear());
            }
            let inputs = (others.iter().copied()).chain(
                args.iter()
                    .enumerate()
                    .filter(|(k, _)| *k != n)
                    .map(|(_, a)| a),
            );
            let written = Value::derived(inputs);
            if written.is_empty() {
                continue;
            }
            self.update(&var, |v| v.join_as_part(&written));
        }
    }

    /// A buffer lent to a call this round could not resolve
    /// (`append_scope(&mut slot, tenant, user, route)`) may be written
    /// there: where the buffer reaches a key position, the pre-filter's
    /// next round reads the callee (`analysis::demand`), whose summary
    /// then says what it appended.
    pub(super) fn lent_through_unresolved(&mut self, site: &Arc<CallSite>, exprs: &[&Expr]) {
        for var in exprs.iter().filter_map(|e| syntax::lent_mut_place(e)) {
            self.update(&var, |v| v.via.push(site));
        }
    }
}

/// Whether a call whose name has these words fills a buffer it is given: reading into it,
/// writing or encoding into it, finishing a digest into it
/// (`read_exact`, `into_writer`, `encode_to_vec`, `finalize_into`).
fn fills_buffer(callee_words: &[String]) -> bool {
    callee_words.iter().any(|w| {
        matches!(
            w.as_str(),
            "read" | "write" | "writer" | "fill" | "encode" | "serialize" | "finalize" | "copy"
        )
    })
}
