//! Claim / completion analysis (IDEM004): which idempotency claims a function
//! leaves in progress on an early exit before it completes them.
//!
//! The value-flow evaluator merges branches and so cannot tell *which path*
//! an exit is on. This walker is path-sensitive instead: it follows one
//! function body in source order with the set of claims that are open on the
//! current path, splits at `if`/`match`/`let … else`, and drops paths that
//! diverge. A claim is linked to its completion or release by its *key*
//! (the key-named bindings, client keys or `scoped(..)` calls the key
//! argument derives from), never by method names alone, so `pool.begin()`,
//! `mutex.lock()` or an OAuth `provider.complete(&flow)` never count.
//!
//! Files by concern: `findings` (what is reported), `walker` (the state
//! along one path: open claims, exits, guards), `walk` (statements,
//! expressions, exits), `branches` (`if`/`match`), `ops` (recognising
//! claims, completions and releases and their keys), `guards` (`Drop`
//! guards, releasing helpers, guard values), `key_fields` (record fields
//! given a scoped key) and `names` (syntax helpers).
//! Imports run one way: `walker` knows only `findings`; `names` knows
//! none of them; `ops`, `guards`, `branches` and `walk` add methods to the
//! `Walker` they import (the walk recurses through them by method
//! calls); only `mod.rs` sees them all.

mod branches;
mod dynamo;
mod findings;
mod guards;
mod key_fields;
mod names;
mod ops;
mod walk;
mod walker;

use std::cell::RefCell;
use std::collections::HashMap;

use crate::analysis::index::{CrateIndex, FnDef};
use crate::analysis::vocab::Vocabulary;

pub use findings::{ClaimExit, ClaimFinding, ExitKind};
use guards::{releasing_drop_types, releasing_helpers};
pub use ops::is_claim_literal;
use walker::{Unit, Walker};

/// Analyses every function of the unit.
pub fn analyze(
    index: &CrateIndex<'_>,
    vocab: &Vocabulary,
    key_makers: std::collections::HashSet<String>,
) -> Vec<ClaimFinding> {
    let unit = Unit {
        key_makers,
        key_fields: key_fields::scoped_fields(index, vocab),
        drop_guards: releasing_drop_types(index, vocab),
        releasers: releasing_helpers(index, vocab),
        key_names: RefCell::new(HashMap::new()),
        sql_consts: ops::sql_consts(index),
    };
    let mut out = Vec::new();
    for def in (index.fns.iter()).filter(|def| may_claim(def, vocab, &unit.sql_consts)) {
        let mut walker = Walker::new(vocab, def.file, &unit);
        walker.run(def);
        out.extend(walker.findings());
    }
    out
}

/// Whether a function's body can open a claim, from its text: every claim
/// the walk makes starts at a token of the body itself (macro arguments
/// included), a claim verb (`Walker::classify`), an `NX` option, or a
/// literal that claims ([`is_claim_literal`], which the pre-filter asks
/// too: redis' `"NX"` and `"SETNX"`, SQL inserting an in-progress status).
/// A function without any reports nothing, so it is not walked: in a large
/// unit, that is most of them. Literals with escapes count (the text holds
/// them unescaped), and so does a body whose text is unknown.
fn may_claim(def: &FnDef<'_>, vocab: &Vocabulary, sql_consts: &HashMap<String, String>) -> bool {
    let Some(text) = def.block.brace_token.span.join().source_text() else {
        return true;
    };
    crate::lex::tokens(&text).any(|token| match token {
        crate::lex::Token::Ident(ident) => {
            let ident = ident.strip_prefix("r#").unwrap_or(ident);
            ident.eq_ignore_ascii_case("nx")
                || vocab.is_claim_verb(ident)
                || sql_consts
                    .get(ident)
                    .is_some_and(|sql| is_claim_literal(sql))
        }
        crate::lex::Token::Str(literal) => is_claim_literal(literal) || literal.contains('\\'),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::index::ParsedFile;
    use crate::analysis::vocab::VocabularyExtension;

    /// The verbs of each IDEM004 finding of `src`, analysed alone.
    fn claim_verbs(src: &str, vocab: &Vocabulary) -> Vec<String> {
        let files = [ParsedFile {
            id: 0,
            ast: syn::parse_file(src).expect("test source parses"),
        }];
        let index = CrateIndex::build(&files);
        analyze(&index, vocab, Default::default())
            .into_iter()
            .map(|f| f.verb)
            .collect()
    }

    #[test]
    fn only_bodies_with_a_claim_token_are_walked() {
        let src = r#"
fn verb(s: &S, key: &str) { s.try_claim(key); }
fn in_macro(s: &S, key: &str) { tokio::join!(s.claim(key)); }
fn nx(c: &mut C, key: &str) { c.set_options(key, 1, SetOptions::default().conditional_set(ExistenceCheck::NX)); }
fn setnx(c: &mut C, key: &str) { redis::cmd("SETNX").arg(key).query(c); }
fn sql(p: &P, key: &str) { sqlx::query("INSERT INTO idem (k, s) VALUES ($1, 'in_progress')").bind(key).execute(p); }
fn escaped(p: &P) { sqlx::query("INSERT INTO idem VALUES ('in_progress')").execute(p); }
fn plain(s: &S, key: &str) { s.set(format!("{key}"), 1); s.get(key).unwrap(); }
fn commented(s: &S, key: &str) { /* s.claim(key) */ s.get(key); }
"#;
        let files = [ParsedFile {
            id: 0,
            ast: syn::parse_file(src).expect("test source parses"),
        }];
        let index = CrateIndex::build(&files);
        let vocab = Vocabulary::default();
        let walked: Vec<&str> = (index.fns.iter())
            .filter(|def| may_claim(def, &vocab, &HashMap::new()))
            .map(|def| def.name.as_str())
            .collect();
        assert_eq!(
            walked,
            ["verb", "in_macro", "nx", "setnx", "sql", "escaped"]
        );
        proc_macro2::extra::invalidate_current_thread_spans();
    }

    fn configured(ext: VocabularyExtension) -> Vocabulary {
        let mut vocab = Vocabulary::default();
        vocab.extend(&ext);
        vocab
    }

    /// A local type whose `Drop` calls `verb`, held over an early exit.
    fn drop_guard(verb: &str) -> String {
        format!(
            r#"
struct InFlight<'a> {{ store: &'a Store, key: String }}
impl Drop for InFlight<'_> {{
    fn drop(&mut self) {{ self.store.{verb}(&self.key); }}
}}
fn handler(store: &Store, key: &str) -> Result<(), Error> {{
    store.claim(key)?;
    let _in_flight = InFlight {{ store, key: key.to_owned() }};
    let resp = store.compute()?;
    store.complete(key, &resp)?;
    Ok(())
}}
"#
        )
    }

    #[test]
    fn configured_release_verb_in_drop_makes_a_guard() {
        let release = || VocabularyExtension {
            release_verbs: vec!["evict".to_string()],
            ..VocabularyExtension::default()
        };
        // The built-in verb: a guard, silent.
        assert_eq!(
            claim_verbs(&drop_guard("delete"), &Vocabulary::default()),
            Vec::<String>::new()
        );
        // An unknown verb: no guard, the `?` leaves the claim in progress.
        assert_eq!(
            claim_verbs(&drop_guard("evict"), &Vocabulary::default()),
            ["claim"]
        );
        // The same verb configured as a release verb: a guard like `delete`.
        assert_eq!(
            claim_verbs(&drop_guard("evict"), &configured(release())),
            Vec::<String>::new()
        );
    }

    /// A claim that returns a lease, completed by calling `verb` on it (and
    /// then by key, which would make every earlier `?` an unreleased exit).
    fn lease(verb: &str) -> String {
        format!(
            r#"
async fn handler(store: &Store, key: &str) -> Result<(), Error> {{
    let lease = store.claim(key).await?;
    let resp = store.work().await?;
    lease.{verb}(&resp).await?;
    store.complete(key, &resp).await?;
    Ok(())
}}
"#
        )
    }

    #[test]
    fn configured_complete_verb_on_the_claim_result_makes_a_guard() {
        let complete = VocabularyExtension {
            complete_verbs: vec!["seal".to_string()],
            ..VocabularyExtension::default()
        };
        assert_eq!(
            claim_verbs(&lease("complete"), &Vocabulary::default()),
            Vec::<String>::new()
        );
        // `lease.seal(..)` on the claim's result is the guard's completion,
        // as `lease.complete(..)` is: no finding for the `?` before it.
        assert_eq!(
            claim_verbs(&lease("seal"), &configured(complete)),
            Vec::<String>::new()
        );
    }
}
