//! A unit parsed and analysed in rounds, each on a larger selection, until
//! the pre-filter's plan repeats (`prefilter::Demand`): the syntax trees of
//! files whose plan did not change are kept from one round to the next.

use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use crate::analysis::index::ParsedFile;
use crate::analysis::test_support::is_test_support_file;
use crate::analysis::UnitFacts;
use crate::discover::FileEntry;
use crate::lex;
use crate::limits::{self, Exceeded};
use crate::model::diagnostic::Confidence;
use crate::model::Diagnostic;
use crate::prefilter::{Demand, FilePlan};

use super::parse::{parse_planned, MAX_NESTING};
use super::problems::{file_problem, parse_problem};

/// The parsed Rust files of one round, numbered in order, with the display
/// paths of those numbers and the unit's file each one is.
pub(super) struct Parsed {
    pub files: Vec<ParsedFile>,
    pub paths: Vec<String>,
    /// Per parsed file, its index among the unit's Rust files.
    pub texts: Vec<usize>,
}

/// What parsing one file as planned gave.
enum Outcome {
    /// Its tree (lent to a round's [`Parsed`] while one is analysed).
    Tree(Option<syn::File>),
    /// Test support: parsed, never analysed.
    TestSupport,
    /// It could not be parsed.
    Problem(Diagnostic),
}

/// Each Rust file of a unit: the blanking it was last parsed with, and
/// what that gave.
pub(super) struct Trees {
    slots: Vec<Option<(Vec<Range<usize>>, Outcome)>>,
    /// Per file, whether another file declares it a test module
    /// (`super::test_modules`).
    test_modules: Vec<bool>,
}

impl Trees {
    pub(super) fn new(test_modules: Vec<bool>) -> Trees {
        Trees {
            slots: (0..test_modules.len()).map(|_| None).collect(),
            test_modules,
        }
    }

    /// Parses what `plans` parse, keeping the trees of files parsed before
    /// with the same blanking. Over the unit's limits, parsing stops. The
    /// files' nesting is measured first, on up to `threads` threads.
    pub(super) fn parse(
        &mut self,
        texts: &[(&FileEntry, Arc<String>)],
        plans: &[FilePlan],
        threads: usize,
    ) -> Result<Parsed, Exceeded> {
        let mut parsed = Parsed {
            files: Vec::new(),
            paths: Vec::new(),
            texts: Vec::new(),
        };
        let stale: Vec<usize> = (0..texts.len())
            .filter(|&n| match &plans[n] {
                FilePlan::Parse { blank } => {
                    !matches!(&self.slots[n], Some((kept, _)) if kept == blank)
                }
                FilePlan::Skip => false,
            })
            .collect();
        let weights: Vec<usize> = stale.iter().map(|&n| texts[n].1.len()).collect();
        let nesting = crate::spread::map(&weights, threads, |k| {
            lex::nesting_score(&texts[stale[k]].1)
        });
        for (n, nesting) in stale.into_iter().zip(nesting) {
            let (entry, text) = &texts[n];
            let FilePlan::Parse { blank } = &plans[n] else {
                continue;
            };
            limits::check()?;
            let outcome = match self.test_modules.get(n) {
                Some(true) => Outcome::TestSupport,
                _ => parse_one(entry, text, blank, nesting)?,
            };
            self.slots[n] = Some((blank.clone(), outcome));
        }
        for (n, ((entry, _), plan)) in texts.iter().zip(plans).enumerate() {
            if !matches!(plan, FilePlan::Parse { .. }) {
                continue;
            }
            if let Some((_, Outcome::Tree(tree))) = &mut self.slots[n] {
                if let Some(ast) = tree.take() {
                    parsed.files.push(ParsedFile {
                        id: parsed.paths.len() as u32,
                        ast,
                    });
                    parsed.paths.push(entry.display.clone());
                    parsed.texts.push(n);
                }
            }
        }
        Ok(parsed)
    }

    /// Takes back the trees lent to `parsed`.
    pub(super) fn give_back(&mut self, parsed: Parsed) {
        for (file, n) in parsed.files.into_iter().zip(parsed.texts) {
            if let Some((_, Outcome::Tree(tree))) = &mut self.slots[n] {
                *tree = Some(file.ast);
            }
        }
    }

    /// The problems of the files `plans` parse (the last round's).
    pub(super) fn problems(&self, plans: &[FilePlan]) -> Vec<Diagnostic> {
        (self.slots.iter().zip(plans))
            .filter(|(_, plan)| matches!(plan, FilePlan::Parse { .. }))
            .filter_map(|(slot, _)| match slot {
                Some((_, Outcome::Problem(problem))) => Some(problem.clone()),
                _ => None,
            })
            .collect()
    }
}

/// Parses one file with `blank` blanked, whose [`lex::nesting_score`] is
/// `nesting`.
fn parse_one(
    entry: &FileEntry,
    text: &str,
    blank: &[Range<usize>],
    nesting: usize,
) -> Result<Outcome, Exceeded> {
    // For the progress bar: one huge file can be most of a run.
    let _parsing = crate::progress::parsing(text.len());
    if nesting > MAX_NESTING {
        let message = format!("skipped: nesting deeper than {MAX_NESTING} levels");
        return Ok(Outcome::Problem(file_problem(
            &entry.display,
            &message,
            1,
            1,
        )));
    }
    Ok(
        match catch_unwind(AssertUnwindSafe(|| parse_planned(text, blank))) {
            // Test support is not analysed (mocks, `#![cfg(test)]` files).
            Ok(Ok(ast)) if is_test_support_file(&entry.display, &ast) => Outcome::TestSupport,
            Ok(Ok(ast)) => Outcome::Tree(Some(ast)),
            Ok(Err(err)) => Outcome::Problem(parse_problem(&entry.display, &err)),
            Err(payload) => {
                if let Some(exceeded) = limits::exceeded_in(payload.as_ref()) {
                    return Err(exceeded);
                }
                Outcome::Problem(file_problem(
                    &entry.display,
                    "internal error while parsing (a bug in idem-lint; please report it)",
                    1,
                    1,
                ))
            }
        },
    )
}

/// Tells `demand` what this round's analysis found of each function, for
/// a unit whose least certain findings shown are `confidence`; returns
/// whether it learned anything.
pub(super) fn learn(
    demand: &mut Demand,
    facts: &UnitFacts,
    parsed: &Parsed,
    confidence: Confidence,
) -> bool {
    let mut learned = false;
    for function in &facts.functions {
        if let Some(&text) = parsed.texts.get(function.file as usize) {
            learned |= demand.learn(text, &function.name, function.exports_at(confidence));
        }
    }
    for store in &facts.client_stores {
        learned |= demand.learn_store(store);
    }
    for holder in &facts.header_holders {
        learned |= demand.learn_holder(holder);
    }
    for record in &facts.key_records {
        learned |= demand.learn_key_record(record);
    }
    let demanded = facts.demanded_calls.at(confidence);
    if std::env::var_os("IDEM_LINT_UNIT_STATS").is_some() {
        eprintln!("[idem-lint rounds] demanded calls: {demanded:?}");
    }
    let mut calls = false;
    for site in &demanded.calls {
        if let Some(&file) = parsed.texts.get(site.file as usize) {
            calls |= demand.learn_call(file, &site.caller, &site.callee);
        }
    }
    for site in &demanded.toward_stores {
        if let Some(&file) = parsed.texts.get(site.file as usize) {
            calls |= demand.learn_call_toward_stores(file, &site.caller, &site.callee);
        }
    }
    demand.end_round(calls);
    learned |= calls;
    learned
}
