//! The data every stage shares: findings ([`Diagnostic`] and its spans),
//! the outcome of a run ([`LintResult`]) and of a baseline
//! ([`BaselineOutcome`]).
//!
//! The pipeline (`crate::lint`) produces these, `crate::baseline` edits them,
//! the renderers (`crate::report`) and the command line (`crate::cli`) read
//! them. Keeping them here, apart from the code that computes them, is what
//! lets the renderers not depend on the pipeline and the pipeline not depend
//! on baselines. This module depends on nothing in the crate but
//! `crate::discover` (for [`WalkProblem`]).

mod baseline;
pub mod diagnostic;
mod result;

pub use baseline::{BaselineOutcome, Entry, Identity};
pub use diagnostic::{Applicability, Diagnostic, Edit, Fix, Label, Position, Severity, Span};
pub use result::LintResult;

#[doc(no_inline)]
pub use crate::discover::WalkProblem;
