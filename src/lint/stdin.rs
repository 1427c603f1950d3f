//! `idem-lint - --stdin-filename PATH`: the text on standard input linted
//! as the file PATH would be (its configuration, suppressions and levels),
//! as editors and formatters' hooks send an unsaved buffer. The file is a
//! unit of its own: its crate's other files are not read as context.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use super::{enabled, lint_text, LintError, LintOptions, LintResult};
use crate::config::{self, Resolver};
use crate::suppress;

/// Lints `bytes` as the file `display` (relative to the current directory).
pub fn lint_stdin(
    display: &str,
    bytes: &[u8],
    options: &LintOptions,
) -> Result<LintResult, LintError> {
    let mut resolver = Resolver::new(&options.config, &options.vocab)?;
    let settings = resolver.for_path(Path::new(display))?;
    let configured = LintOptions {
        vocab: settings.vocab.clone(),
        progress: None,
        ..options.clone()
    };
    let mut diagnostics = lint_text(display, bytes, &configured, None);
    let text = String::from_utf8_lossy(bytes).into_owned();
    let sources: BTreeMap<String, Arc<String>> = [(display.to_string(), Arc::new(text))]
        .into_iter()
        .collect();
    suppress::apply(&mut diagnostics, &sources);
    let known: HashMap<String, Arc<config::Settings>> =
        [(display.to_string(), settings)].into_iter().collect();
    config::apply_levels(
        &mut diagnostics,
        &mut resolver,
        &known,
        !options.select.is_empty(),
        |settings| options.confidence_for(settings),
    )?;
    diagnostics.retain(|d| enabled(d.code, options));
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup_by(|a, b| a.code == b.code && a.path == b.path && a.span == b.span);
    Ok(LintResult {
        diagnostics,
        files_analyzed: 1,
        sources,
        linted: [display.to_string()].into_iter().collect(),
        warnings: resolver.take_warnings(),
        ..LintResult::default()
    })
}
