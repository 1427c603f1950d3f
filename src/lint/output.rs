//! What linting one unit produces, fresh or replayed from the cache.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::analysis::workspace_flow::Seed;
use crate::cache::{Remembered, Stamp};
use crate::discover::WalkProblem;
use crate::model::Diagnostic;

/// What one unit produced.
#[derive(Default)]
pub(super) struct UnitOutput {
    /// Files read.
    pub files: usize,
    pub diagnostics: Vec<Diagnostic>,
    /// Texts by display path, kept only where findings may need them.
    pub sources: BTreeMap<String, Arc<String>>,
    /// Files the OS refused to read.
    pub read_failures: Vec<WalkProblem>,
    /// The first reported file of a unit that went over its limits.
    pub over_budget: Vec<String>,
    /// Files read this run, for the cache's stamp memo.
    pub stamps: Vec<(String, Stamp, Remembered)>,
    /// Calls into other crates given the client's key, where they are made
    /// (`analysis::workspace_flow`): they seed the crates they reach.
    pub key_calls: Vec<Seed>,
}

impl UnitOutput {
    /// Only files with findings need their text for snippets; keeping every
    /// file's text until the end of the run would hold the whole corpus.
    pub fn retain_used_sources(&mut self) {
        let used: BTreeSet<&str> = self.diagnostics.iter().map(|d| d.path.as_str()).collect();
        // Suppression comments are checked after the analysis (an unused one is
        // a finding of its own), so files that carry one keep their text too.
        self.sources
            .retain(|path, text| used.contains(path.as_str()) || text.contains("idem-lint:"));
    }
}
