//! How a rule reports: it describes a [`Finding`] (rule, site, message,
//! labels, help) and hands it to the unit's [`Sink`], which turns sites into
//! file paths and keeps one finding per rule and span.

use std::collections::HashSet;

use crate::analysis::value::Site;
use crate::model::{Diagnostic, Label, Span};

use super::Rule;

/// One finding of a rule, before it is placed in a file:
/// `Finding::new(&RULE, site, message).labels(labels).help(help)`.
#[derive(Debug)]
pub struct Finding {
    rule: &'static Rule,
    site: Site,
    message: String,
    labels: Vec<(String, Site)>,
    help: Option<String>,
}

impl Finding {
    /// A finding of `rule` at `site`, with no labels and no help yet.
    pub fn new(rule: &'static Rule, site: Site, message: impl Into<String>) -> Finding {
        Finding {
            rule,
            site,
            message: message.into(),
            labels: Vec::new(),
            help: None,
        }
    }

    /// Adds one secondary location.
    pub fn label(mut self, message: impl Into<String>, site: Site) -> Finding {
        self.labels.push((message.into(), site));
        self
    }

    /// Adds secondary locations, in order.
    pub fn labels(mut self, labels: impl IntoIterator<Item = (String, Site)>) -> Finding {
        self.labels.extend(labels);
        self
    }

    /// Says how to fix it.
    pub fn help(mut self, help: impl Into<String>) -> Finding {
        self.help = Some(help.into());
        self
    }
}

/// Where a unit's findings go: knows the unit's file names.
pub struct Sink<'a> {
    /// Display paths of the unit's files, indexed by `Site::file`.
    paths: &'a [String],
    /// Findings so far.
    out: Vec<Diagnostic>,
    /// (rule code, file, span) of every finding so far: a hash lookup keeps
    /// `add` constant-time, where a scan of `out` made a unit with many
    /// findings quadratic in their number.
    seen: HashSet<(&'static str, u32, Span)>,
}

impl<'a> Sink<'a> {
    /// An empty sink for a unit whose files are `paths`.
    pub fn new(paths: &'a [String]) -> Sink<'a> {
        Sink {
            paths,
            out: Vec::new(),
            seen: HashSet::new(),
        }
    }

    /// Adds a finding. Labels outside its file, or on its primary span, are
    /// dropped; a second finding of the same rule on the same span is too.
    pub fn add(&mut self, finding: Finding) {
        let Finding {
            rule,
            site,
            message,
            labels,
            help,
        } = finding;
        // The path is a function of `site.file`, so the file index stands in
        // for it in the identity.
        if !self.seen.insert((rule.code, site.file, site.span)) {
            return;
        }
        let path = self
            .paths
            .get(site.file as usize)
            .cloned()
            .unwrap_or_default();
        let labels = labels
            .into_iter()
            .filter(|(_, s)| s.file == site.file && s.span != site.span)
            .map(|(message, s)| Label {
                message,
                span: s.span,
            })
            .collect();
        self.out.push(Diagnostic {
            code: rule.code,
            name: rule.name,
            severity: rule.level,
            message,
            path,
            span: site.span,
            labels,
            help,
        });
    }

    /// The findings, in the order they were added.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.out
    }
}
