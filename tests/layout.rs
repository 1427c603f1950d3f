//! The module layout stays a map: no import circles between the crate's
//! modules (top-level modules and `analysis::*` submodules, where a
//! directory counts as one module), and no source file over the size the
//! project allows. `ARCHITECTURE.md` relies on both.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Paths the crate keeps as aliases of a moved module (`lib.rs` re-exports).
const ALIASES: &[(&str, &str)] = &[("diagnostic", "model")];

/// Past this, a file must be split (ARCHITECTURE.md names the few over ~800).
const MAX_LINES: usize = 1200;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/analysis/eval/calls.rs` → `["analysis", "eval", "calls"]`; `mod.rs` is its directory.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file
        .strip_prefix(src)
        .expect("under src/")
        .with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The node a module path belongs to: `analysis::x` for the analysis
/// submodules, else the top-level module.
fn node(parts: &[String]) -> Option<String> {
    let first = parts.first()?;
    let first = ALIASES
        .iter()
        .find(|(from, _)| from == first)
        .map_or(first.as_str(), |(_, to)| to);
    match (first, parts.get(1)) {
        ("analysis", Some(sub)) => Some(format!("analysis::{sub}")),
        _ => Some(first.to_string()),
    }
}

/// Code without line comments and without the trailing `#[cfg(test)]` part.
fn production_code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Module paths named as `crate::a::b` or `super::a` in `code`.
fn referenced_paths(code: &str, me: &[String]) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = code[at..].find(['c', 's']) {
        let start = at + found;
        at = start + 1;
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let rest = &code[start..];
        let (mut base, mut tail) = if let Some(tail) = rest.strip_prefix("crate::") {
            (Vec::new(), tail)
        } else if rest.starts_with("super::") {
            let mut tail = rest;
            let mut base = me.to_vec();
            while let Some(t) = tail.strip_prefix("super::") {
                base.pop();
                tail = t;
            }
            (base, tail)
        } else {
            continue;
        };
        while let Some(len) = tail
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .filter(|&len| len > 0)
        {
            base.push(tail[..len].to_string());
            match tail[len..].strip_prefix("::") {
                Some(t) => tail = t,
                None => break,
            }
        }
        out.push(base);
    }
    out
}

fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let nodes: BTreeSet<String> = files
        .iter()
        .filter_map(|f| node(&module_path(&src, f)))
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let me = module_path(&src, file);
        let Some(from) = node(&me) else { continue };
        let text = fs::read_to_string(file).expect("source is readable");
        for path in referenced_paths(&production_code(&text), &me) {
            if let Some(to) = node(&path).filter(|to| nodes.contains(to) && *to != from) {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    graph
}

/// A cycle through `start`, if any (depth-first search).
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
        start: &str,
    ) -> bool {
        let last = path.last().cloned().unwrap_or_default();
        for next in graph.get(&last).into_iter().flatten() {
            if next == start {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, path, seen, start) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(graph, &mut path, &mut BTreeSet::new(), start).then_some(path)
}

#[test]
fn no_import_circles_between_modules() {
    let graph = module_graph();
    // The scan must see the pipeline's real dependencies, or it proves nothing.
    assert!(graph["lint"].contains("prefilter") && graph["report"].contains("model"));
    let cycles: Vec<String> = graph
        .keys()
        .filter_map(|start| cycle_from(&graph, start))
        .map(|cycle| cycle.join(" → "))
        .collect();
    assert!(cycles.is_empty(), "import circles: {cycles:#?}");
}

#[test]
fn the_scan_finds_a_planted_circle() {
    let me = vec!["analysis".to_string(), "value".to_string()];
    let code = "use super::eval::KeyEvent;\nfn f() { crate::analysis::vocab::words(\"\"); }";
    let paths = referenced_paths(&production_code(code), &me);
    let nodes: Vec<_> = paths.iter().filter_map(|p| node(p)).collect();
    assert_eq!(nodes, ["analysis::eval", "analysis::vocab"]);
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        cycle_from(&graph, "a"),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
}

#[test]
fn no_source_file_is_over_the_limit() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let lines = fs::read_to_string(f).ok()?.lines().count();
            (lines > MAX_LINES).then(|| format!("{}: {lines} lines", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "split these files: {long:?}");
}
