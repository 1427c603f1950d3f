//! The result cache, run as a user would: warm runs give the same output,
//! edits invalidate the whole unit, corrupt entries are ignored.

use std::path::Path;
use std::process::Command;

/// The key is read from its header in the handler and built into a store
/// key by the helper in another file: the findings cross files.
const HELPER: &str = "pub fn make(raw: &str) -> String {\n    format!(\"idem:{}\", raw)\n}\n";
const HANDLER: &str = "pub fn handle(store: &Store, headers: &HeaderMap) {\n    let idempotency_key = headers.get(\"Idempotency-Key\").unwrap();\n    let k = crate::helper::make(idempotency_key);\n    store.set(k, 1);\n}\n";

fn run(dir: &Path, extra: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .current_dir(dir)
        .env_remove("IDEM_LINT_CACHE_DIR")
        .args([".", "--format", "json"])
        .args(extra)
        .output()
        .expect("idem-lint runs");
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn entries(dir: &Path) -> Vec<std::path::PathBuf> {
    let version = dir
        .join(".idem-lint-cache")
        .join(format!("v{}", env!("CARGO_PKG_VERSION")));
    // Result entries only (the stamp memo lives beside them).
    let mut out: Vec<_> = std::fs::read_dir(version)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn krate() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"x\"\n").expect("write");
    std::fs::create_dir(dir.path().join("src")).expect("mkdir");
    std::fs::write(dir.path().join("src/helper.rs"), HELPER).expect("write");
    std::fs::write(dir.path().join("src/handler.rs"), HANDLER).expect("write");
    dir
}

#[test]
fn warm_runs_match_cold_runs_and_edits_invalidate_the_unit() {
    let dir = krate();
    let (code, cold) = run(dir.path(), &["--no-cache"]);
    assert_eq!(code, 1, "{cold}");
    assert!(cold.contains("IDEM001"), "{cold}");
    assert!(entries(dir.path()).is_empty(), "--no-cache writes nothing");

    let (_, first) = run(dir.path(), &[]);
    assert_eq!(first, cold);
    let root = dir.path().join(".idem-lint-cache");
    let tag = std::fs::read_to_string(root.join("CACHEDIR.TAG")).expect("tag");
    assert!(tag.starts_with("Signature: 8a477f597d28d172789f06886806bc55"));
    assert_eq!(entries(dir.path()).len(), 1, "one entry for the one unit");
    let (code, warm) = run(dir.path(), &[]);
    assert_eq!((code, &warm), (1, &cold));
    assert_eq!(entries(dir.path()).len(), 1, "a hit writes nothing new");

    // Editing the helper changes the handler's finding: the key covers
    // every file of the unit, not only the file with the finding.
    std::fs::write(
        dir.path().join("src/helper.rs"),
        "pub fn make(raw: &str) -> String {\n    idem_scope::scoped(&t, &p, \"charge\", raw)\n}\n",
    )
    .expect("write");
    let (_, edited) = run(dir.path(), &[]);
    let (_, edited_cold) = run(dir.path(), &["--no-cache"]);
    assert_eq!(edited, edited_cold);
    assert_ne!(edited, cold, "the edit matters");
    assert_eq!(entries(dir.path()).len(), 2);

    // Different configuration, different entry.
    let (_, small) = run(dir.path(), &["--max-file-size", "10"]);
    assert!(small.contains("skipped: larger than 10 bytes"), "{small}");
    assert_eq!(entries(dir.path()).len(), 3);
}

#[test]
fn corrupt_and_foreign_entries_are_ignored() {
    let dir = krate();
    let (_, cold) = run(dir.path(), &["--no-cache"]);
    run(dir.path(), &[]);
    let files = entries(dir.path());
    assert_eq!(files.len(), 1);
    let valid = std::fs::read_to_string(&files[0]).expect("entry");
    for garbage in [
        String::new(),
        "{not json".to_string(),
        valid.replace(
            "\"diagnostics\":[",
            "\"diagnostics\":[{\"code\":\"IDEM001\"},",
        ),
        valid.replace("idem-lint", "other-tool"),
        // An empty result claimed for this unit under another key.
        format!(
            "{{\"tool\":\"idem-lint\",\"version\":\"{}\",\"key\":\"{}\",\"diagnostics\":[]}}",
            env!("CARGO_PKG_VERSION"),
            "0".repeat(32)
        ),
    ] {
        std::fs::write(&files[0], &garbage).expect("write");
        let (_, out) = run(dir.path(), &[]);
        assert_eq!(out, cold, "entry {garbage:?} was trusted");
    }
}

#[test]
fn an_edit_that_keeps_size_and_mtime_is_still_seen() {
    let dir = krate();
    let (code, first) = run(dir.path(), &[]);
    assert_eq!(code, 1, "{first}");
    // Past the memo's racy window, so that its stamps are trusted.
    std::thread::sleep(std::time::Duration::from_millis(2_200));
    let (_, warm) = run(dir.path(), &[]);
    assert_eq!(warm, first);
    // The same length and modification time, other contents: the change
    // time, which no one can set back, still tells.
    let handler = dir.path().join("src/handler.rs");
    let mtime = std::fs::metadata(&handler)
        .and_then(|m| m.modified())
        .expect("mtime");
    let quiet = HANDLER.replace("store.set(k, 1);", "drop((store,k));");
    assert_eq!(quiet.len(), HANDLER.len());
    std::fs::write(&handler, &quiet).expect("write");
    std::fs::File::options()
        .write(true)
        .open(&handler)
        .and_then(|f| f.set_modified(mtime))
        .expect("set mtime");
    let (code, edited) = run(dir.path(), &[]);
    let (_, fresh) = run(dir.path(), &["--no-cache"]);
    assert_eq!(edited, fresh);
    assert_ne!(edited, first, "the edit changes the findings");
    assert_eq!(code, 0, "{edited}");
}

#[test]
fn a_rebuilt_binary_of_the_same_version_does_not_replay_entries() {
    // Two builds of one version (a development build, `cargo install --git`
    // of a newer commit) may analyse differently: each gets its own entries.
    let dir = krate();
    let bins = tempfile::tempdir().expect("tempdir");
    let run_with = |bin: &Path| {
        let out = Command::new(bin)
            .current_dir(dir.path())
            .env_remove("IDEM_LINT_CACHE_DIR")
            .args([".", "--format", "json"])
            .output()
            .expect("idem-lint runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let first = bins.path().join("idem-lint-a");
    std::fs::copy(env!("CARGO_BIN_EXE_idem-lint"), &first).expect("copy");
    let out = run_with(&first);
    assert!(out.contains("IDEM001"), "{out}");
    assert_eq!(entries(dir.path()).len(), 1);
    assert_eq!(run_with(&first), out);
    assert_eq!(
        entries(dir.path()).len(),
        1,
        "the same build hits its entry"
    );

    // Another build: same bytes here, but written later (as a rebuild is).
    let second = bins.path().join("idem-lint-b");
    std::fs::copy(env!("CARGO_BIN_EXE_idem-lint"), &second).expect("copy");
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&second)
        .and_then(|f| f.set_modified(later))
        .expect("set mtime");
    assert_eq!(run_with(&second), out);
    assert_eq!(
        entries(dir.path()).len(),
        2,
        "the rebuilt binary wrote its own entry"
    );
}
