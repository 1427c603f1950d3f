//! IDEM008 on the real schema of idem-scope, and exact positions of
//! findings inside Rust string literals.

use std::path::PathBuf;

use idem_lint::analysis::sql::analyze_text;
use idem_lint::analysis::vocab::Vocabulary;
use idem_lint::{lint_paths, Diagnostic, LintOptions, Position, Severity};

const SCHEMA_RS: &str = "idem-scope/src/schema.rs";

/// The value of `idem_scope::POSTGRES_SCHEMA`, read from the source so the
/// analyzer does not depend on the runtime crate.
fn postgres_schema() -> String {
    let text = std::fs::read_to_string(SCHEMA_RS).expect("idem-scope/src/schema.rs");
    let file = syn::parse_file(&text).expect("schema.rs parses");
    file.items
        .iter()
        .find_map(|item| match item {
            syn::Item::Const(c) if c.ident == "POSTGRES_SCHEMA" => match &*c.expr {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .expect("POSTGRES_SCHEMA is a string literal")
}

fn lint(path: &std::path::Path) -> Vec<Diagnostic> {
    lint_paths(&[path.to_path_buf()], &LintOptions::default())
        .expect("lint runs")
        .diagnostics
}

#[test]
fn postgres_schema_has_the_full_tuple() {
    let schema = postgres_schema();
    let analysis = analyze_text(&schema, &Vocabulary::default());
    assert!(analysis.skipped.is_empty(), "{:?}", analysis.skipped);
    assert_eq!(analysis.constraints.len(), 1, "{analysis:?}");
    let pk = &analysis.constraints[0];
    assert_eq!(pk.table, "idempotency_records");
    assert_eq!(
        pk.columns
            .iter()
            .map(|(c, _)| c.as_str())
            .collect::<Vec<_>>(),
        [
            "scope_version",
            "tenant_id",
            "principal_id",
            "route",
            "ns",
            "idem_key"
        ]
    );
    assert!(pk.missing.is_empty());
    assert!(pk.has_scope_version && pk.has_namespace);
}

#[test]
fn schema_rs_is_silent() {
    let found = lint(&PathBuf::from(SCHEMA_RS));
    let sql: Vec<_> = found
        .iter()
        .filter(|d| d.code == "IDEM008" || d.code == "IDEM000")
        .collect();
    assert!(sql.is_empty(), "{sql:#?}");
}

/// The same file with the key cut down to the client key fires at the
/// PRIMARY KEY line: the literal really is analysed.
#[test]
fn schema_rs_with_a_single_column_key_fires() {
    let text = std::fs::read_to_string(SCHEMA_RS).expect("schema.rs");
    let full = "PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)";
    assert!(text.contains(full));
    // The last occurrence is the const; the first is in the doc test.
    let at = text.rfind(full).expect("in the const");
    let broken = format!(
        "{}PRIMARY KEY (idem_key){}",
        &text[..at],
        &text[at + full.len()..]
    );
    let line = broken[..at].matches('\n').count() + 1;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("schema.rs");
    std::fs::write(&path, broken).expect("write");
    let found = lint(&path);
    let idem008: Vec<_> = found.iter().filter(|d| d.code == "IDEM008").collect();
    assert_eq!(idem008.len(), 1, "{found:#?}");
    assert_eq!(idem008[0].span.start, Position { line, column: 5 });
    assert!(idem008[0].message.contains("tenant, principal and route"));
    let help = idem008[0].help.as_deref().unwrap_or_default();
    assert!(
        help.contains("note: the key also lacks a scope_version column"),
        "{help}"
    );
}

/// Columns are 1-based chars in the Rust file, past escapes (`\n`, `\"`,
/// `\u{e9}`) and raw-string delimiters.
#[test]
fn positions_inside_literals_are_file_positions() {
    let source = concat!(
        "const A: &str = \"CREATE TABLE \\\"d\\u{65}dup\\\" (\\n  idem_key TEXT PRIMARY KEY)\";\n",
        "const B: &str = r##\"\n",
        "  CREATE TABLE replay (\"#\" TEXT, é TEXT,\n",
        "    UNIQUE (key));\"##;\n",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("literals.rs");
    std::fs::write(&path, source).expect("write");
    let found = lint(&path);
    let spans: Vec<_> = found
        .iter()
        .filter(|d| d.code == "IDEM008")
        .map(|d| (d.span.start, d.span.end))
        .collect();
    let first = source.lines().next().unwrap_or_default();
    let col = |needle: &str| first[..first.find(needle).expect("needle")].chars().count() + 1;
    assert_eq!(
        spans,
        vec![
            (
                Position {
                    line: 1,
                    column: col("idem_key")
                },
                Position {
                    line: 1,
                    column: col(")\";")
                },
            ),
            (
                Position { line: 4, column: 5 },
                Position {
                    line: 4,
                    column: 17
                }
            ),
        ],
        "{found:#?}"
    );
}

#[test]
fn skipped_statements_are_reported_with_the_statement() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("0001.sql");
    std::fs::write(
        &path,
        // No closing parenthesis: not even the tolerant fallback reads it.
        "SELECT 1;\n\nCREATE TABLE idempotency_keys (idem_key TEXT PRIMARY KEY,,;\n",
    )
    .expect("write");
    let result = lint_paths(&[path], &LintOptions::default()).expect("lint runs");
    assert_eq!(result.diagnostics.len(), 1, "{:#?}", result.diagnostics);
    let d = &result.diagnostics[0];
    // A statement idem-lint cannot read is an error by default, like any parse error.
    assert_eq!((d.code, d.severity), ("IDEM000", Severity::Error));
    assert_eq!(d.span.start, Position { line: 3, column: 1 });
    assert!(
        d.message
            .starts_with("SQL statement skipped: `CREATE TABLE idempotency_keys"),
        "{}",
        d.message
    );
}

/// `lint_text` (the fuzz entry) runs the whole analysis: DDL in a Rust
/// string literal is checked there as it is by `lint_paths`.
#[test]
fn lint_text_checks_ddl_in_rust_literals() {
    let path = "fixtures/single-column-key/rust_literals.rs";
    let bytes = std::fs::read(path).expect("fixture");
    let options = LintOptions::default();
    let codes = |found: &[Diagnostic]| -> Vec<(usize, &'static str)> {
        found
            .iter()
            .filter(|d| d.code == "IDEM008")
            .map(|d| (d.span.start.line, d.code))
            .collect()
    };
    let from_text = idem_lint::lint::lint_text(path, &bytes, &options, None);
    let from_paths = lint_paths(&[path.into()], &options).expect("lint runs");
    assert!(!codes(&from_text).is_empty(), "{from_text:#?}");
    assert_eq!(codes(&from_text), codes(&from_paths.diagnostics));
}
