//! What a run is asked to do: [`LintOptions`], and the command-line filters
//! that apply to every finding.

use std::path::PathBuf;

use crate::analysis::vocab::Vocabulary;
use crate::config::{ConfigSource, PlannedUnit, Settings};
use crate::limits::Limits;
use crate::model::diagnostic::Confidence;
use crate::partition::Partition;
use crate::progress::Progress;
use crate::rules;
use crate::source;

/// How to lint.
#[derive(Debug, Clone)]
pub struct LintOptions {
    /// Worker threads (0: one per core).
    pub jobs: usize,
    /// Largest file analysed, in bytes.
    pub max_file_size: u64,
    /// Only these codes (empty: all).
    pub select: Vec<String>,
    /// Never these codes.
    pub ignore: Vec<String>,
    /// Naming vocabulary.
    pub vocab: Vocabulary,
    /// Paths to skip.
    pub exclude: Vec<String>,
    /// Where configuration comes from (default: discovered per file).
    pub config: ConfigSource,
    /// `max_file_size` wins over configuration (it was given on the command line).
    pub max_file_size_fixed: bool,
    /// Parse only the files the lexical pre-filter selects (`--no-prefilter`: all).
    pub prefilter: bool,
    /// Where the result cache lives (`None`: no cache).
    pub cache_dir: Option<PathBuf>,
    /// Lint only this shard's units (`--partition i/n`; `None`: all).
    pub partition: Option<Partition>,
    /// Units done, drawn on a terminal (`None`: silent).
    pub progress: Option<Progress>,
    /// The least certain findings reported where the configuration does not
    /// say (`confidence` in a file's configuration).
    pub confidence: Confidence,
    /// `confidence` wins over configuration (`--confidence` was given).
    pub confidence_fixed: bool,
    /// Hard limits on one unit's analysis (`--unit-time-limit`, `--unit-memory-limit`).
    pub unit_limits: Limits,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            jobs: 0,
            max_file_size: source::DEFAULT_MAX_FILE_SIZE,
            select: Vec::new(),
            ignore: Vec::new(),
            vocab: Vocabulary::default(),
            exclude: Vec::new(),
            config: ConfigSource::Discover,
            max_file_size_fixed: false,
            prefilter: true,
            cache_dir: None,
            partition: None,
            progress: None,
            confidence: Confidence::Certain,
            confidence_fixed: false,
            unit_limits: Limits::default(),
        }
    }
}

impl LintOptions {
    /// The threads a run uses: `jobs`, or one per core.
    pub(super) fn threads(&self) -> usize {
        match self.jobs {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            jobs => jobs,
        }
    }

    /// The size limit of one file: `--max-file-size` wins over configuration.
    pub(super) fn file_size_limit(&self, settings: &Settings) -> u64 {
        match settings.max_file_size() {
            Some(configured) if !self.max_file_size_fixed => configured,
            _ => self.max_file_size,
        }
    }

    /// The least certain findings reported in a file with `settings`:
    /// `--confidence` wins over the configuration's `confidence`.
    pub fn confidence_for(&self, settings: &Settings) -> Confidence {
        match settings.confidence() {
            Some(configured) if !self.confidence_fixed => configured,
            _ => self.confidence,
        }
    }

    /// The least certain findings reported in any file of `plan`: how much
    /// the unit's analysis must follow (`analysis::DemandedCalls`).
    pub(super) fn unit_confidence(&self, plan: &PlannedUnit) -> Confidence {
        (plan.files.iter())
            .map(|settings| self.confidence_for(settings))
            .chain([self.confidence_for(&plan.settings)])
            .min()
            .unwrap_or(self.confidence)
    }
}

/// Whether the command line's `--select`/`--ignore` let `code` through.
pub fn enabled(code: &str, options: &LintOptions) -> bool {
    let listed = |list: &[String]| {
        list.iter().any(|c| {
            c.eq_ignore_ascii_case(code)
                || rules::find(c).is_some_and(|r| r.code == code)
                || (c.len() < code.len() && code.starts_with(&c.to_ascii_uppercase()))
        })
    };
    (options.select.is_empty() || listed(&options.select)) && !listed(&options.ignore)
}
