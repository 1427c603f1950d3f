//! idem-lint: finds idempotency-key bugs in Rust services.
//!
//! The pipeline is discover → read → parse → analyse → rules → filter →
//! sort → render; see `ARCHITECTURE.md` for the map.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analysis;
pub mod baseline;
pub mod cache;
pub mod cargo_packages;
pub mod cli;
pub mod config;
pub mod diff_base;
pub mod discover;
pub mod fix;
pub mod lex;
pub mod limits;
pub mod lint;
pub mod memory_budget;
pub mod merge;
pub mod model;
pub mod partition;
pub mod prefilter;
pub mod progress;
pub mod report;
pub mod rules;
pub mod source;
pub mod spread;
pub mod suppress;
pub mod terminal;
pub mod verbose;

/// The old home of the finding types, kept as a path: analysis, cache,
/// configuration and suppression code name them `crate::diagnostic::…`.
pub use model::diagnostic;

pub use lint::{lint_paths, LintOptions};
pub use model::{Diagnostic, Label, LintResult, Position, Severity, Span};

/// The tool's version, as reported in JSON and SARIF.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
