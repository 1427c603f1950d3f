//! The rule registry. Each rule lives in its own file (its [`Rule`] with
//! its `check` over the unit's facts) with its documentation in
//! `rules/<name>.md` and its fixtures in `fixtures/<name>/`; [`ALL`] lists
//! them and [`run_all`] runs their checks. Findings are built as
//! [`Finding`]s and collected by a [`Sink`].

pub mod adhoc_key_concat;
pub mod global_scope_fallback;
pub mod missing_release;
pub mod missing_scope_component;
pub mod parse_error;
pub mod payload_hash_as_key;
pub mod separator_sanitized;
pub mod single_column_key;
pub mod suppression_without_reason;
pub mod unnamespaced_server_key;
pub mod unused_suppression;

use serde::{Deserialize, Serialize};

use crate::analysis::value::Site;
use crate::analysis::vocab::Component;
use crate::analysis::UnitFacts;
use crate::model::Severity;

pub use sink::{Finding, Sink};

/// A rule's check: reads the unit's facts, reports to the sink.
pub type Check = fn(&UnitFacts, &mut Sink<'_>);

/// A rule's identity and documentation.
#[derive(Debug)]
pub struct Rule {
    /// Stable code, e.g. `IDEM001`.
    pub code: &'static str,
    /// Stable name, e.g. `adhoc-key-concat`.
    pub name: &'static str,
    /// Default level.
    pub level: Severity,
    /// Its check over a unit's facts (`None`: reported outside the
    /// analysis, by the pipeline or `crate::suppress`).
    pub check: Option<Check>,
    /// One-line summary.
    pub summary: &'static str,
    /// The Markdown documentation (`rules/<name>.md`).
    pub docs: &'static str,
    /// The facts its findings cannot exist without: the pre-filter keeps
    /// the items that may hold one of them (`tests/prefilter.rs` checks
    /// that findings are identical with `--no-prefilter`). A fact no
    /// [`Fact`] covers needs a new variant, taught to the pre-filter.
    /// A rule listing `KeyEvents` or `Ddl` reports only where a client key
    /// or an idempotency store or table is named (the pre-filter's unit
    /// gate, `prefilter::triggers::needs_key_evidence`).
    pub needs: &'static [Fact],
}

/// A kind of fact a rule reads, as the pre-filter can find it in source
/// text (how it finds each is in `prefilter::triggers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    /// Nothing: the rule reports what happens before the filter runs
    /// (unreadable and unparsable files).
    Nothing,
    /// Key events: items holding a client-key source of the vocabulary
    /// (names, headers, key constructors such as `scoped`; request ids
    /// where an idempotency store is named), their callers and callees.
    KeyEvents,
    /// Hash calls as the evaluator recognises them
    /// (`analysis::hashing::is_hash_token`): `Sha256::digest`,
    /// `DefaultHasher::new()`, `xxh3_64(..)`, a hasher-typed parameter.
    /// Names that merely mention a hash (`content_md5`) do not count.
    HashCalls,
    /// Claims: a claim verb call or a claiming literal (`INSERT …
    /// 'in_progress'`, `NX`) in an item that names a key, and, in a unit
    /// with one, the `Drop` impls that release (guards).
    Claims,
    /// Key namespaces: `Namespace::Server` / `Namespace::Client` paths.
    Namespaces,
    /// Storage calls on a receiver that keyed items also store into.
    SharedStores,
    /// String literals that look like DDL, in an item or at file level.
    Ddl,
    /// Suppression comments: files carrying one are always parsed (see
    /// `lint::lint_unit`).
    Suppressions,
}

impl Rule {
    /// The documentation without its title line.
    pub fn body(&self) -> &'static str {
        self.docs
            .split_once('\n')
            .map_or("", |(_, rest)| rest.trim_start())
    }

    /// The text of one `## Section` of the documentation.
    pub fn section(&self, title: &str) -> Option<&'static str> {
        let marker = format!("## {title}\n");
        let start = self.docs.find(&marker)? + marker.len();
        let rest = &self.docs[start..];
        let end = rest.find("\n## ").map_or(rest.len(), |i| i + 1);
        Some(rest[..end].trim())
    }
}

/// Every rule, in code order: the registry that reports, configuration,
/// the pre-filter and [`run_all`] read.
pub const ALL: &[&Rule] = &[
    &parse_error::RULE,
    &adhoc_key_concat::RULE,
    &missing_scope_component::RULE,
    &payload_hash_as_key::RULE,
    &missing_release::RULE,
    &global_scope_fallback::RULE,
    &separator_sanitized::RULE,
    &unnamespaced_server_key::RULE,
    &single_column_key::RULE,
    &unused_suppression::RULE,
    &suppression_without_reason::RULE,
];

/// Finds a rule by code (`IDEM001`) or name (`adhoc-key-concat`), case-insensitively.
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    ALL.iter().copied().find(|r| {
        r.code.eq_ignore_ascii_case(code_or_name) || r.name.eq_ignore_ascii_case(code_or_name)
    })
}

/// Runs every rule's check over one unit's facts, in code order.
pub fn run_all(facts: &UnitFacts, sink: &mut Sink<'_>) {
    for check in ALL.iter().filter_map(|rule| rule.check) {
        check(facts, sink);
    }
}

/// Whether `outer` covers `inner` (same file): a label there would repeat
/// the primary span.
pub fn covers(outer: Site, inner: Site) -> bool {
    outer.covers(inner)
}

/// Which scope components a service has (`[scope]` in configuration,
/// rules.md "What a service has"): a single-tenant service says
/// `tenant = false`, and no finding then asks for a tenant. The route
/// always exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServiceScope {
    /// Whether callers belong to tenants.
    pub tenant: bool,
    /// Whether callers are told apart inside a tenant.
    pub principal: bool,
}

impl Default for ServiceScope {
    fn default() -> ServiceScope {
        ServiceScope {
            tenant: true,
            principal: true,
        }
    }
}

impl ServiceScope {
    /// Whether the service has `component`.
    pub fn has(self, component: Component) -> bool {
        match component {
            Component::Tenant => self.tenant,
            Component::Principal => self.principal,
            Component::Route => true,
        }
    }
}

/// English list: `a`, `a and b`, `a, b and c`.
pub fn english_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {}", init.join(", "), last),
    }
}

// Kept in the registry module, not a file of its own: every file in
// `src/rules/` is a rule with a doc and a fixture folder.
mod sink {
    //! How a rule reports: it describes a [`Finding`] (rule, site, message,
    //! labels, help) and hands it to the unit's [`Sink`], which turns sites into
    //! file paths and keeps one finding per rule and span.

    use std::collections::HashMap;

    use crate::analysis::value::Site;
    use crate::fix::{Locator, ScopedCall};
    use crate::model::diagnostic::{Confidence, TraceStep};
    use crate::model::{Diagnostic, Label, Span};

    use super::{Rule, ServiceScope};

    /// One finding of a rule, before it is placed in a file:
    /// `Finding::new(&RULE, site, message).labels(labels).help(help)`.
    #[derive(Debug)]
    pub struct Finding {
        rule: &'static Rule,
        site: Site,
        message: String,
        labels: Vec<(String, Site)>,
        help: Option<String>,
        fix: Option<ScopedCall>,
        confidence: Confidence,
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
                fix: None,
                confidence: Confidence::Certain,
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

        /// How the source is known (default: `certain`, by flow).
        pub fn confidence(mut self, confidence: Confidence) -> Finding {
            self.confidence = confidence;
            self
        }

        /// Suggests replacing the primary span with the scoped key `call`
        /// builds (`crate::fix`); dropped where no edit fits there.
        pub fn fix(mut self, call: ScopedCall) -> Finding {
            self.fix = Some(call);
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
        /// The index in `out` of each.
        seen: HashMap<(&'static str, u32, Span), usize>,
        /// Turns suggested calls into edits (none: findings get no `fix`).
        locator: Option<Locator<'a>>,
        /// The scope components each file's service has, indexed by
        /// `Site::file` (missing: all of them).
        scopes: Vec<ServiceScope>,
    }

    impl<'a> Sink<'a> {
        /// An empty sink for a unit whose files are `paths`.
        pub fn new(paths: &'a [String]) -> Sink<'a> {
            Sink {
                paths,
                out: Vec::new(),
                seen: HashMap::new(),
                locator: None,
                scopes: Vec::new(),
            }
        }

        /// The scope components each file's service has (`[scope]` of its
        /// configuration), in the order of the unit's file names.
        pub fn with_scopes(mut self, scopes: Vec<ServiceScope>) -> Sink<'a> {
            self.scopes = scopes;
            self
        }

        /// The scope components the service of file `file` has.
        pub fn scope(&self, file: u32) -> ServiceScope {
            self.scopes.get(file as usize).copied().unwrap_or_default()
        }

        /// Computes fixes for the findings that suggest one.
        pub fn with_fixes(mut self, locator: Locator<'a>) -> Sink<'a> {
            self.locator = Some(locator);
            self
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
                fix,
                confidence,
            } = finding;
            // The path is a function of `site.file`, so the file index stands in
            // for it in the identity.
            // A second finding of the same rule on the same span replaces the
            // first only when its path is known by flow and the first's by a
            // name: the reported path is the best evidence found.
            let replaces = match self.seen.get(&(rule.code, site.file, site.span)) {
                None => None,
                Some(&i)
                    if confidence == Confidence::Certain
                        && self.out[i].confidence == Confidence::Possible =>
                {
                    Some(i)
                }
                Some(_) => return,
            };
            let path = self
                .paths
                .get(site.file as usize)
                .cloned()
                .unwrap_or_default();
            // The path: every labelled step in order (in any file: a hop to a
            // helper in another file is a step labels cannot show), then the sink.
            let path_of = |s: Site| self.paths.get(s.file as usize).cloned().unwrap_or_default();
            let mut trace: Vec<TraceStep> = (labels.iter())
                .filter(|(_, s)| *s != site)
                .map(|(message, s)| TraceStep {
                    path: path_of(*s),
                    span: s.span,
                    message: message.clone(),
                })
                .collect();
            trace.push(TraceStep {
                path: path.clone(),
                span: site.span,
                message: format!("{}: reported here", rule.name),
            });
            let labels = labels
                .into_iter()
                .filter(|(_, s)| s.file == site.file && s.span != site.span)
                .map(|(message, s)| Label {
                    message,
                    span: s.span,
                })
                .collect();
            // The help shows the call the fix makes, resolved against the
            // finding's scope (`crate::fix::BINDING_SLOT`).
            let resolved = fix.map(|call| match &self.locator {
                Some(locator) => locator.resolve(site.file, site.span, &call),
                None => call.unscoped(),
            });
            let help = match (help, &resolved) {
                (Some(help), Some(call)) => {
                    Some(help.replace(crate::fix::BINDING_SLOT, &call.binding()))
                }
                (help, _) => help,
            };
            let fix = resolved
                .zip(self.locator.as_ref())
                .and_then(|(call, locator)| locator.fix(site.file, site.span, &call));
            let diagnostic = Diagnostic {
                code: rule.code,
                name: rule.name,
                severity: rule.level,
                message,
                path,
                span: site.span,
                labels,
                help,
                fix,
                confidence,
                trace,
            };
            match replaces {
                Some(i) => self.out[i] = diagnostic,
                None => {
                    self.seen
                        .insert((rule.code, site.file, site.span), self.out.len());
                    self.out.push(diagnostic);
                }
            }
        }

        /// The findings, in the order they were added.
        pub fn into_diagnostics(self) -> Vec<Diagnostic> {
            self.out
        }
    }
}
