//! Structure-aware: splices Rust fragments from a dictionary into a fixture
//! at token boundaries, so inputs stay close to real, parsable code and
//! reach the evaluator (random bytes mostly stop at the parser).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

#[path = "common/mod.rs"]
mod common;

const FRAGMENTS: &[&str] = &[
    "idempotency_key",
    "idem_key",
    "\"Idempotency-Key\"",
    "\"X-Request-Id\"",
    "request_id",
    "tenant_id",
    "user_id",
    "\"charge\"",
    "\"\"",
    "\"global\"",
    "format!(\"{}:{}\", a, b)",
    "format!(\"{idempotency_key}\")",
    "cache.set(",
    "store.get(",
    "redis.set_nx(",
    ".to_string()",
    ".clone()",
    "&",
    "?",
    "+",
    "+=",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "let k = ",
    "let cache_key = ",
    "return ",
    "if x { a } else { b }",
    "match x { _ => y }",
    "|x| x",
    "idem_scope::scoped(",
    "scoped(\"\", ",
    "helper(",
    "fn helper(k: &str) -> String { k.into() }",
    "const HDR: &str = \"Idempotency-Key\";",
    "HDR",
    "headers.get(",
    ".push_str(",
    "concat!(",
    "sqlx::query(\"INSERT INTO idempotency_keys (key) VALUES ($1)\").bind(",
    "'a",
    "'x'",
    "r#\"raw\"#",
    "/* c */",
    "// c\n",
    "\n",
    "impl S { fn m(&self) {} }",
    "self.m(",
    "Self::",
];

fn fixtures() -> &'static [String] {
    static FIXTURES: OnceLock<Vec<String>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures");
        let mut out = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(root)];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.extend(std::fs::read_to_string(&path).ok());
                }
            }
        }
        out.sort();
        out
    })
}

fuzz_target!(|data: &[u8]| {
    let fixtures = fixtures();
    let Some((&pick, ops)) = data.split_first() else {
        return;
    };
    let Some(base) = fixtures.get(pick as usize % fixtures.len().max(1)) else {
        return;
    };
    // Candidate splice points: whitespace boundaries of the fixture.
    let points: Vec<usize> = base
        .char_indices()
        .filter(|(_, c)| c.is_whitespace())
        .map(|(i, _)| i)
        .collect();
    if points.is_empty() {
        return;
    }
    // Each 3-byte op: where (2 bytes), what (1 byte); high bit of `what`
    // deletes up to the next splice point instead of inserting.
    let mut edits: Vec<(usize, u8)> = ops
        .chunks_exact(3)
        .map(|c| {
            (
                points[u16::from_le_bytes([c[0], c[1]]) as usize % points.len()],
                c[2],
            )
        })
        .collect();
    edits.sort_by(|a, b| b.0.cmp(&a.0));
    let mut text = base.clone();
    for (at, what) in edits {
        // Earlier deletions may have shortened the text past this point.
        if at >= text.len() || !text.is_char_boundary(at) {
            continue;
        }
        if what & 0x80 != 0 {
            let end = text[at..]
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_whitespace())
                .map_or(text.len(), |(e, _)| at + e);
            text.replace_range(at..end, "");
        } else {
            text.insert_str(
                at,
                &format!(" {} ", FRAGMENTS[what as usize % FRAGMENTS.len()]),
            );
        }
    }
    common::check(text.as_bytes(), &text);
});
