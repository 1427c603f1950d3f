//! Hostile inputs: every case checks the message and position the contract
//! gives, the exit code, and that a good file in the same run is still
//! analysed (its two findings at 3:15 are reported).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const GOOD: &str = r#"fn handler(headers: &HeaderMap, cache: &Cache) {
    let idempotency_key = headers.get("Idempotency-Key").unwrap();
    cache.set(format!("idem:{}", idempotency_key), 1);
}
"#;

struct Run {
    code: i32,
    json: Value,
    stderr: String,
}

fn lint_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_idem-lint"));
    cmd.current_dir(dir).args(args).args(["--format", "json"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("idem-lint runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    Run {
        code: out.status.code().expect("exit code, not a signal"),
        json: serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("JSON: {e}\n{stdout}")),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn diags<'a>(run: &'a Run, path: &str) -> Vec<&'a Value> {
    run.json["diagnostics"]
        .as_array()
        .expect("diagnostics array")
        .iter()
        .filter(|d| d["path"] == path)
        .collect()
}

fn pos(d: &Value) -> (u64, u64) {
    (
        d["span"]["start"]["line"].as_u64().unwrap_or(0),
        d["span"]["start"]["column"].as_u64().unwrap_or(0),
    )
}

/// The good file's findings are there: the bad file did not stop the run.
fn assert_good_analysed(run: &Run, path: &str) {
    let found: Vec<(String, (u64, u64))> = diags(run, path)
        .iter()
        .map(|d| (d["code"].as_str().unwrap_or("").to_string(), pos(d)))
        .collect();
    assert_eq!(
        found,
        [
            ("IDEM001".to_string(), (3, 15)),
            ("IDEM002".to_string(), (3, 15))
        ],
        "{}",
        run.json
    );
}

/// The single IDEM000 error (its default level) on `path`, at (line, column), whose message contains `needle`.
fn assert_problem(run: &Run, path: &str, needle: &str, at: (u64, u64)) {
    let found = diags(run, path);
    assert_eq!(found.len(), 1, "{}", run.json);
    let d = found[0];
    assert_eq!(d["code"], "IDEM000");
    assert_eq!(d["severity"], "error");
    let message = d["message"].as_str().unwrap_or("");
    assert!(message.contains(needle), "{message:?} lacks {needle:?}");
    assert_eq!(pos(d), at, "{d}");
}

fn setup(bad_name: &str, bad: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("good.rs"), GOOD).expect("write");
    std::fs::write(dir.path().join(bad_name), bad).expect("write");
    dir
}

/// Runs on the whole directory and on both files named explicitly.
fn both_ways(dir: &Path, bad_name: &str) -> [Run; 2] {
    [
        lint_in(dir, &["."], &[]),
        lint_in(dir, &[bad_name, "good.rs"], &[]),
    ]
}

#[test]
fn deeply_nested_parentheses_and_blocks() {
    let parens = format!(
        "fn f() {{ let x = {}1{}; }}",
        "(".repeat(50_000),
        ")".repeat(50_000)
    );
    let blocks = format!("fn f() {}{}", "{".repeat(50_000), "}".repeat(50_000));
    let generics = format!(
        "type T = {}u8{};",
        "Vec<".repeat(50_000),
        ">".repeat(50_000)
    );
    let closures = format!("fn f() {{ let c = {}1; }}", "|a| ".repeat(50_000));
    for deep in [parens, blocks, generics, closures] {
        // A client-key name makes the pre-filter select the file for parsing.
        let text = format!("fn g(idempotency_key: &str) {{}}\n{deep}");
        let dir = setup("deep.rs", text.as_bytes());
        for run in both_ways(dir.path(), "deep.rs") {
            assert_eq!(run.code, 1, "{}", run.stderr);
            assert_problem(&run, "deep.rs", "skipped: nesting deeper than 1000", (1, 1));
            assert_good_analysed(&run, "good.rs");
        }
        // Without a trigger word the pre-filter never parses it; with
        // `--no-prefilter` it is checked all the same.
        let dir = setup("deep.rs", deep.as_bytes());
        let run = lint_in(dir.path(), &[".", "--no-prefilter"], &[]);
        assert_problem(&run, "deep.rs", "skipped: nesting deeper than 1000", (1, 1));
        assert_good_analysed(&run, "good.rs");
        let run = lint_in(dir.path(), &["."], &[]);
        assert!(diags(&run, "deep.rs").is_empty(), "{}", run.json);
        assert_good_analysed(&run, "good.rs");
    }
}

#[test]
fn moderately_nested_code_is_analysed() {
    let nested = |levels: usize| {
        format!(
            "fn f(headers: &H, cache: &C) {{ let k = {}headers.get(\"Idempotency-Key\"){}; cache.set(k, 1); }}",
            "(".repeat(levels),
            ")".repeat(levels)
        )
    };
    // Within the evaluator's depth bound: the finding is made.
    let dir = setup("deep.rs", nested(150).as_bytes());
    let run = lint_in(dir.path(), &["."], &[]);
    let found = diags(&run, "deep.rs");
    assert_eq!(found.len(), 1, "{}", run.json);
    assert_eq!(found[0]["code"], "IDEM002");
    // Beyond it but under the nesting limit: parsed, not followed, no warning.
    let dir = setup("deep.rs", nested(900).as_bytes());
    let run = lint_in(dir.path(), &["."], &[]);
    assert!(diags(&run, "deep.rs").is_empty(), "{}", run.json);
    assert_good_analysed(&run, "good.rs");
}

#[test]
fn file_larger_than_the_limit() {
    let dir = setup("huge.rs", b"");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.path().join("huge.rs"))
        .expect("open");
    // A sparse 100 MB file: the size check must happen before reading.
    file.set_len(100 * 1024 * 1024).expect("set_len");
    for run in both_ways(dir.path(), "huge.rs") {
        assert_eq!(run.code, 1);
        assert_problem(
            &run,
            "huge.rs",
            "skipped: larger than 4194304 bytes (104857600 bytes)",
            (1, 1),
        );
        assert_good_analysed(&run, "good.rs");
    }
    let run = lint_in(dir.path(), &[".", "--max-file-size", "1000"], &[]);
    assert_problem(&run, "huge.rs", "skipped: larger than 1000 bytes", (1, 1));
    assert_good_analysed(&run, "good.rs");
}

#[test]
fn invalid_utf8_nul_and_binary() {
    let binary: Vec<u8> = (0..4096u32).map(|i| (i * 37 % 256) as u8).collect();
    let cases: [(&[u8], &str, (u64, u64)); 4] = [
        (
            b"fn a() {}\n  let \xc3\xa9 = \xff;\n",
            "invalid UTF-8 at line 2, column 11",
            (2, 11),
        ),
        (b"fn a() {}\0\n", "binary file (contains NUL bytes)", (1, 1)),
        (&binary, "binary file (contains NUL bytes)", (1, 1)),
        (b"\xfe\xff\x00f\x00n", "binary file", (1, 1)),
    ];
    for (bytes, needle, at) in cases {
        let dir = setup("bad.rs", bytes);
        for run in both_ways(dir.path(), "bad.rs") {
            assert_eq!(run.code, 1);
            assert_problem(&run, "bad.rs", needle, at);
            assert_good_analysed(&run, "good.rs");
        }
    }
}

#[test]
fn empty_file_is_clean() {
    let dir = setup("empty.rs", b"");
    for run in both_ways(dir.path(), "empty.rs") {
        assert_eq!(run.code, 1);
        assert!(diags(&run, "empty.rs").is_empty(), "{}", run.json);
        assert_eq!(run.json["summary"]["files_analyzed"], 2);
        assert_good_analysed(&run, "good.rs");
    }
}

#[test]
fn bom_crlf_tabs_and_multibyte_keep_columns_right() {
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend_from_slice(GOOD.as_bytes());
    let crlf = GOOD.replace('\n', "\r\n");
    // Columns count Unicode scalar values: a tab is 1, `é`/`ñ`/`ü` are 1 each.
    let tabs = "fn handler(headers: &HeaderMap, cache: &Cache) {\n\
                \tlet idempotency_key = headers.get(\"Idempotency-Key\").unwrap(); // é\n\
                \t/* ü */ let  _ñ = \"日本\"; cache.set(format!(\"idem:{}\", idempotency_key), 1);\n}\n";
    type Case<'a> = (&'a [u8], (u64, u64), (u64, u64));
    let cases: [Case; 3] = [
        (&bom, (3, 15), (3, 50)),
        (crlf.as_bytes(), (3, 15), (3, 50)),
        (tabs.as_bytes(), (3, 36), (3, 71)),
    ];
    for (bytes, start, end) in cases {
        let dir = setup("text.rs", bytes);
        let run = lint_in(dir.path(), &["."], &[]);
        assert_eq!(run.code, 1);
        let found = diags(&run, "text.rs");
        assert_eq!(found.len(), 2, "{}", run.json);
        for d in found {
            assert_eq!(pos(d), start, "{d}");
            let e = &d["span"]["end"];
            assert_eq!(
                (e["line"].as_u64(), e["column"].as_u64()),
                (Some(end.0), Some(end.1))
            );
            let label = &d["labels"][0]["span"]["start"];
            assert_eq!(label["line"], 2, "{d}");
        }
        assert_good_analysed(&run, "good.rs");
    }
}

#[cfg(unix)]
#[test]
fn symlink_loop_is_a_warning() {
    let dir = setup("other.rs", b"fn f() {}\n");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    std::os::unix::fs::symlink("..", dir.path().join("sub/up")).expect("symlink");
    let run = lint_in(dir.path(), &["."], &[]);
    assert_eq!(run.code, 1);
    assert_problem(
        &run,
        "sub/up",
        "symbolic link loop: sub/up points back to .",
        (1, 1),
    );
    assert_good_analysed(&run, "good.rs");
}

#[test]
fn directory_named_like_a_source_file() {
    let dir = setup("other.rs", b"fn f() {}\n");
    std::fs::create_dir(dir.path().join("x.rs")).expect("mkdir");
    std::fs::write(dir.path().join("x.rs/inner.rs"), GOOD).expect("write");
    for args in [&["."][..], &["x.rs", "good.rs"][..]] {
        let run = lint_in(dir.path(), args, &[]);
        assert_eq!(run.code, 1);
        assert!(diags(&run, "x.rs").is_empty(), "{}", run.json);
        // A directory is walked, whatever its name.
        assert_good_analysed(&run, "x.rs/inner.rs");
        assert_good_analysed(&run, "good.rs");
    }
}

#[cfg(unix)]
#[test]
fn fifo_is_never_opened() {
    let dir = setup("other.rs", b"fn f() {}\n");
    let fifo = dir.path().join("pipe.rs");
    let status = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    // Walked: not a regular file, silently not a source file.
    let run = lint_in(dir.path(), &["."], &[]);
    assert_eq!(run.code, 1);
    assert!(diags(&run, "pipe.rs").is_empty(), "{}", run.json);
    assert_good_analysed(&run, "good.rs");
    // Named explicitly: it cannot be read, so the run fails (exit 2).
    let run = lint_in(dir.path(), &["pipe.rs", "good.rs"], &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("error: pipe.rs: cannot read file: not a regular file"),
        "{}",
        run.stderr
    );
    assert_good_analysed(&run, "good.rs");
}

/// A file whose read fails even for root: `/proc/self/mem` at offset 0 is
/// unmapped memory, so `read` returns EIO.
#[cfg(target_os = "linux")]
#[test]
fn unreadable_file() {
    let dir = setup("other.rs", b"fn f() {}\n");
    assert!(
        Path::new("/proc/self/mem").exists(),
        "Linux has /proc/self/mem"
    );
    std::os::unix::fs::symlink("/proc/self/mem", dir.path().join("mem.rs")).expect("symlink");
    // Found by walking: a warning, the run goes on.
    let run = lint_in(dir.path(), &["."], &[]);
    assert_eq!(run.code, 1);
    assert_problem(
        &run,
        "mem.rs",
        "cannot read file: Input/output error",
        (1, 1),
    );
    assert_good_analysed(&run, "good.rs");
    // Named explicitly: exit 2, reported on stderr, the rest still analysed.
    let run = lint_in(dir.path(), &["mem.rs", "good.rs"], &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("error: mem.rs: cannot read file"),
        "{}",
        run.stderr
    );
    assert_good_analysed(&run, "good.rs");
}

/// A directory without read permission; root ignores permissions, so the
/// test only runs its assertions when they can mean something.
#[cfg(unix)]
#[test]
fn unreadable_directory_when_not_root() {
    use std::os::unix::fs::PermissionsExt;
    let dir = setup("other.rs", b"fn f() {}\n");
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).expect("mkdir");
    std::fs::write(locked.join("a.rs"), GOOD).expect("write");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    if std::fs::read_dir(&locked).is_ok() {
        eprintln!("running as root: permissions are not enforced; covered by unreadable_file");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        return;
    }
    let run = lint_in(dir.path(), &["."], &[]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    assert_eq!(run.code, 1);
    assert_problem(&run, "locked", "permission denied", (1, 1));
    assert_good_analysed(&run, "good.rs");
}

#[test]
fn missing_path_fails_the_run() {
    let dir = setup("other.rs", b"fn f() {}\n");
    let run = lint_in(dir.path(), &["nope.rs", "good.rs"], &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("error: nope.rs: no such file or directory"),
        "{}",
        run.stderr
    );
    assert_good_analysed(&run, "good.rs");
}

// The panic hook exists only in builds with the `test-hooks` feature (the
// test command, scripts/test.sh, passes --all-features).
#[test]
#[cfg_attr(
    not(feature = "test-hooks"),
    ignore = "needs the test-hooks feature (cargo test --all-features)"
)]
fn panic_in_analysis_is_an_internal_error() {
    let marker = "FORCE_PANIC_7f3a";
    let text = format!("// {marker}\nfn f(idempotency_key: &str) {{}}\n");
    let dir = setup("boom.rs", text.as_bytes());
    let run = lint_in(
        dir.path(),
        &["."],
        &[("IDEM_LINT_TEST_PANIC_MARKER", marker)],
    );
    assert_eq!(run.code, 1);
    assert_problem(&run, "boom.rs", "internal error", (1, 1));
    assert_good_analysed(&run, "good.rs");
    // Without the hook the same file is clean.
    let run = lint_in(dir.path(), &["."], &[]);
    assert!(diags(&run, "boom.rs").is_empty(), "{}", run.json);
}

/// A workspace shaped like matrix-construct/tuwunel: a virtual root whose
/// members keep their sources beside their own manifests under the root's
/// `src/<member>/` (`[lib] path = "mod.rs"`). Each member is a unit of its
/// own (the whole workspace as one unit once grew to 24 GB and was killed),
/// and a unit over its limits is one IDEM000 while the rest is reported.
#[test]
fn members_under_the_roots_src_are_units_and_a_unit_over_its_limits_is_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let write = |path: &str, text: &str| {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write("Cargo.toml", "[workspace]\nmembers = [\"src/*\"]\n");
    for member in ["api", "service"] {
        write(
            &format!("src/{member}/Cargo.toml"),
            &format!("[package]\nname = \"{member}\"\n[lib]\npath = \"mod.rs\"\n"),
        );
        write(&format!("src/{member}/mod.rs"), "mod handlers;\n");
        write(&format!("src/{member}/handlers.rs"), GOOD);
    }
    std::fs::write(root.join("good.rs"), GOOD).expect("write");

    let run = lint_in(root, &["."], &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    for path in ["src/api/handlers.rs", "src/service/handlers.rs", "good.rs"] {
        assert_good_analysed(&run, path);
    }

    // No memory at all for a unit: every unit that analyses something stops,
    // one finding each, so the two members are two units.
    let run = lint_in(root, &["src", "--unit-memory-limit", "0"], &[]);
    assert_eq!(run.code, 2, "{}", run.json);
    let over: Vec<&Value> = run.json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| {
            d["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("analysis budget exceeded"))
        })
        .collect();
    assert_eq!(over.len(), 2, "{}", run.json);
    assert!(
        run.stderr.contains("analysis budget exceeded"),
        "{}",
        run.stderr
    );
    for d in over {
        assert_eq!(d["code"], "IDEM000");
        let message = d["message"].as_str().unwrap_or("");
        assert!(message.contains("--unit-memory-limit"), "{message}");
        assert!(message.contains("was not analysed"), "{message}");
    }

    // A named file outside the workspace's members is still analysed beside
    // a unit over its limits.
    let run = lint_in(root, &["src/api", "good.rs", "--unit-time-limit", "0"], &[]);
    assert_eq!(run.code, 2, "{}", run.json);
    assert_eq!(
        diags(&run, "src/api/handlers.rs").len() + diags(&run, "src/api/mod.rs").len(),
        1
    );
}
