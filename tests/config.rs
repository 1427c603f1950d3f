//! Configuration: discovery (nearest ancestor wins, Cargo metadata,
//! `--config`), errors (exit 2 naming file, line and key), levels, select and
//! ignore, per-file ignores, exclusions, vocabulary and `idem-lint config`.

use std::path::Path;
use std::process::Command;

/// A key built by concatenating the client key (read from its header) with
/// the tenant only: IDEM001 and IDEM002 on line 5.
const BAD: &str = r#"use std::collections::HashMap;
pub struct Ctx { pub tenant_id: String }
pub fn lookup(ctx: &Ctx, headers: &HeaderMap, cache: &HashMap<String, Vec<u8>>) -> Option<Vec<u8>> {
    let idem_key = headers.get("Idempotency-Key")?.to_str().ok()?;
    let cache_key = format!("{}:{}", ctx.tenant_id, idem_key);
    cache.get(&cache_key).cloned()
}
"#;

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// Runs idem-lint in `dir`; returns (exit code, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env("COLUMNS", "100")
        .output()
        .expect("idem-lint runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `(path, code, severity)` of every finding, from `--format json`.
fn findings(dir: &Path, args: &[&str]) -> (i32, Vec<(String, String, String)>) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run(dir, &all);
    assert!(code == 0 || code == 1, "exit {code}: {stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let mut out: Vec<(String, String, String)> = json["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap_or_default().to_string(),
                d["code"].as_str().unwrap_or_default().to_string(),
                d["severity"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    out.sort();
    (code, out)
}

fn f(path: &str, code: &str, severity: &str) -> (String, String, String) {
    (path.to_string(), code.to_string(), severity.to_string())
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

#[test]
fn without_configuration_both_rules_fire() {
    let dir = tempdir();
    write(dir.path(), "a.rs", BAD);
    let (code, found) = findings(dir.path(), &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        vec![f("a.rs", "IDEM001", "error"), f("a.rs", "IDEM002", "error")]
    );
}

#[test]
fn nearest_ancestor_wins_per_file() {
    let dir = tempdir();
    write(dir.path(), "idem-lint.toml", "[rules]\nIDEM001 = \"off\"\n");
    write(
        dir.path(),
        "sub/idem-lint.toml",
        "[rules]\nmissing-scope-component = \"off\"\n",
    );
    write(dir.path(), "a.rs", BAD);
    write(dir.path(), "sub/b.rs", BAD);
    write(dir.path(), "sub/deeper/c.rs", BAD);
    let (_, found) = findings(dir.path(), &["."]);
    assert_eq!(
        found,
        vec![
            f("a.rs", "IDEM002", "error"),
            f("sub/b.rs", "IDEM001", "error"),
            f("sub/deeper/c.rs", "IDEM001", "error"),
        ]
    );
    // The same resolution when the file is named explicitly from elsewhere.
    let (_, found) = findings(&dir.path().join("sub"), &["deeper/c.rs", "../a.rs"]);
    assert_eq!(
        found,
        vec![
            f("../a.rs", "IDEM002", "error"),
            f("deeper/c.rs", "IDEM001", "error")
        ]
    );
}

#[test]
fn package_metadata_in_cargo_toml() {
    let dir = tempdir();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"svc\"\nversion = \"0.1.0\"\n\n[package.metadata.idem-lint.rules]\nIDEM001 = \"warn\"\n",
    );
    write(dir.path(), "src/lib.rs", BAD);
    let (code, found) = findings(dir.path(), &["."]);
    assert_eq!(
        found,
        vec![
            f("src/lib.rs", "IDEM001", "warning"),
            f("src/lib.rs", "IDEM002", "error")
        ]
    );
    assert_eq!(code, 1);
}

#[test]
fn workspace_metadata_applies_to_members_and_a_member_can_override() {
    let dir = tempdir();
    write(
        dir.path(),
        "Cargo.toml",
        "[workspace]\nmembers = [\"a\", \"b\"]\n\n[workspace.metadata.idem-lint]\nignore = [\"IDEM001\"]\n",
    );
    write(
        dir.path(),
        "a/Cargo.toml",
        "[package]\nname = \"a\"\nversion = \"0.1.0\"\n",
    );
    write(dir.path(), "a/src/lib.rs", BAD);
    write(
        dir.path(),
        "b/Cargo.toml",
        "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[package.metadata.idem-lint]\nignore = [\"IDEM002\"]\n",
    );
    write(dir.path(), "b/src/lib.rs", BAD);
    let (_, found) = findings(dir.path(), &["."]);
    assert_eq!(
        found,
        vec![
            f("a/src/lib.rs", "IDEM002", "error"),
            f("b/src/lib.rs", "IDEM001", "error")
        ]
    );
}

#[test]
fn a_root_package_uses_its_package_table_before_the_workspace_table() {
    let dir = tempdir();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"root\"\nversion = \"0.1.0\"\n[package.metadata.idem-lint]\nignore = [\"IDEM002\"]\n\n[workspace]\nmembers = [\"m\"]\n[workspace.metadata.idem-lint]\nignore = [\"IDEM001\"]\n",
    );
    write(dir.path(), "src/lib.rs", BAD);
    write(
        dir.path(),
        "m/Cargo.toml",
        "[package]\nname = \"m\"\nversion = \"0.1.0\"\n",
    );
    write(dir.path(), "m/src/lib.rs", BAD);
    let (_, found) = findings(dir.path(), &["."]);
    assert_eq!(
        found,
        vec![
            f("m/src/lib.rs", "IDEM002", "error"),
            f("src/lib.rs", "IDEM001", "error")
        ]
    );
}

#[test]
fn dedicated_file_beats_cargo_metadata_in_the_same_directory() {
    let dir = tempdir();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"svc\"\nversion = \"0.1.0\"\n[package.metadata.idem-lint]\nignore = [\"IDEM001\"]\n",
    );
    write(dir.path(), "idem-lint.toml", "ignore = [\"IDEM002\"]\n");
    write(dir.path(), "src/lib.rs", BAD);
    let (_, found) = findings(dir.path(), &["."]);
    assert_eq!(found, vec![f("src/lib.rs", "IDEM001", "error")]);
}

#[test]
fn config_flag_overrides_discovery() {
    let dir = tempdir();
    write(dir.path(), "idem-lint.toml", "ignore = [\"IDEM001\"]\n");
    write(dir.path(), "sub/idem-lint.toml", "ignore = [\"IDEM001\"]\n");
    write(dir.path(), "ci/strict.toml", "ignore = [\"IDEM002\"]\n");
    write(dir.path(), "a.rs", BAD);
    write(dir.path(), "sub/b.rs", BAD);
    let (_, found) = findings(dir.path(), &[".", "--config", "ci/strict.toml"]);
    assert_eq!(
        found,
        vec![
            f("a.rs", "IDEM001", "error"),
            f("sub/b.rs", "IDEM001", "error")
        ]
    );
    // Patterns in the explicit file are relative to its own directory.
    write(
        dir.path(),
        "ci/excl2.toml",
        "[per-file-ignores]\n\"a.rs\" = [\"IDEM00\"]\n",
    );
    let (_, found) = findings(dir.path(), &[".", "--config", "ci/excl2.toml"]);
    assert_eq!(
        found,
        vec![
            f("sub/b.rs", "IDEM001", "error"),
            f("sub/b.rs", "IDEM002", "error")
        ]
    );
}

#[test]
fn config_flag_accepts_a_manifest_and_rejects_one_without_a_table() {
    let dir = tempdir();
    write(dir.path(), "a.rs", BAD);
    write(
        dir.path(),
        "conf/Cargo.toml",
        "[workspace]\n[workspace.metadata.idem-lint]\nignore = [\"IDEM001\"]\n",
    );
    write(
        dir.path(),
        "plain/Cargo.toml",
        "[package]\nname = \"p\"\nversion = \"0.1.0\"\n",
    );
    let (_, found) = findings(dir.path(), &["a.rs", "--config", "conf/Cargo.toml"]);
    assert_eq!(found, vec![f("a.rs", "IDEM002", "error")]);
    let (code, _, stderr) = run(dir.path(), &["a.rs", "--config", "plain/Cargo.toml"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("plain/Cargo.toml") && stderr.contains("metadata.idem-lint"),
        "{stderr}"
    );
    let (code, _, stderr) = run(dir.path(), &["a.rs", "--config", "missing.toml"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.toml"), "{stderr}");
}

#[test]
fn unknown_top_level_key_is_exit_2_with_file_line_and_key() {
    let dir = tempdir();
    write(
        dir.path(),
        "idem-lint.toml",
        "# team settings\nignore = []\ncolour = \"always\"\n",
    );
    write(dir.path(), "a.rs", BAD);
    let (code, stdout, stderr) = run(dir.path(), &["."]);
    assert_eq!(code, 2, "{stdout}");
    assert!(stderr.contains("idem-lint.toml:3:1"), "{stderr}");
    assert!(stderr.contains("colour"), "{stderr}");
    assert!(
        stdout.is_empty(),
        "nothing is linted with a broken configuration: {stdout}"
    );
}

#[test]
fn unknown_vocabulary_key_and_bad_values_name_the_key() {
    let dir = tempdir();
    write(dir.path(), "a.rs", BAD);
    let cases: &[(&str, &str, &str)] = &[
        (
            "[vocabulary]\ntenants = [\"shop\"]\n",
            "idem-lint.toml:2:1",
            "tenants",
        ),
        (
            "max-file-size = \"big\"\n",
            "idem-lint.toml:1:17",
            "max-file-size",
        ),
        (
            "[vocabulary]\ntenant = [\n  \"shop\",\n  42,\n]\n",
            "idem-lint.toml:4:3",
            "vocabulary.tenant",
        ),
        (
            "[rules]\nIDEM001 = \"loud\"\n",
            "idem-lint.toml:2:11",
            "rules.IDEM001",
        ),
        (
            "[rules]\nIDEM999 = \"warn\"\n",
            "idem-lint.toml:2:1",
            "IDEM999",
        ),
        (
            "select = [\"IDEM001\", \"not-a-rule\"]\n",
            "idem-lint.toml:1:",
            "not-a-rule",
        ),
        (
            "[per-file-ignores]\n\"src/[a.rs\" = [\"IDEM001\"]\n",
            "idem-lint.toml:2:1",
            "src/[a.rs",
        ),
        ("ignore = [\"IDEM001\"\n", "idem-lint.toml:2:1", "ignore"),
    ];
    for (text, position, key) in cases {
        write(dir.path(), "idem-lint.toml", text);
        let (code, _, stderr) = run(dir.path(), &["a.rs"]);
        assert_eq!(code, 2, "{text}: {stderr}");
        assert!(
            stderr.contains(position),
            "{text}: expected {position} in {stderr}"
        );
        assert!(stderr.contains(key), "{text}: expected {key} in {stderr}");
    }
}

#[test]
fn unknown_key_in_cargo_metadata_points_into_the_manifest() {
    let dir = tempdir();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"svc\"\nversion = \"0.1.0\"\n\n[package.metadata.idem-lint]\nignored = [\"IDEM001\"]\n",
    );
    write(dir.path(), "src/lib.rs", BAD);
    let (code, _, stderr) = run(dir.path(), &["."]);
    assert_eq!(code, 2);
    assert!(stderr.contains("Cargo.toml:6:1"), "{stderr}");
    assert!(stderr.contains("ignored"), "{stderr}");
    // A manifest that does not mention idem-lint is cargo's business, even when odd.
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"svc\"\nversion = \"0.1.0\"\n[package.metadata]\nother-tool = 3\n",
    );
    let (code, _, stderr) = run(dir.path(), &["."]);
    assert_eq!(code, 1, "{stderr}");
}

#[test]
fn warn_level_does_not_fail_and_off_removes() {
    let dir = tempdir();
    write(
        dir.path(),
        "idem-lint.toml",
        "[rules]\nIDEM001 = \"warn\"\nmissing-scope-component = \"warn\"\n",
    );
    write(dir.path(), "a.rs", BAD);
    let (code, found) = findings(dir.path(), &["."]);
    assert_eq!(
        found,
        vec![
            f("a.rs", "IDEM001", "warning"),
            f("a.rs", "IDEM002", "warning")
        ]
    );
    assert_eq!(code, 0, "warnings alone do not fail the run");
    write(
        dir.path(),
        "idem-lint.toml",
        "[rules]\nIDEM00 = \"off\"\nIDEM002 = \"error\"\n",
    );
    let (code, found) = findings(dir.path(), &["."]);
    assert_eq!(
        found,
        vec![f("a.rs", "IDEM002", "error")],
        "the exact code beats the prefix"
    );
    assert_eq!(code, 1);
    // A warning-level rule raised to error fails the run.
    write(
        dir.path(),
        "idem-lint.toml",
        "[rules]\nunused-suppression = \"error\"\n",
    );
    write(
        dir.path(),
        "b.rs",
        "fn f() {} // idem-lint: allow(IDEM001) -- nothing here\n",
    );
    let (code, found) = findings(dir.path(), &["b.rs"]);
    assert_eq!(found, vec![f("b.rs", "IDEM900", "error")]);
    assert_eq!(code, 1);
}

#[test]
fn select_and_ignore_in_config_and_on_the_command_line() {
    let dir = tempdir();
    write(dir.path(), "idem-lint.toml", "select = [\"IDEM001\"]\n");
    write(dir.path(), "a.rs", BAD);
    let (_, found) = findings(dir.path(), &["."]);
    assert_eq!(found, vec![f("a.rs", "IDEM001", "error")]);
    // --select on the command line replaces the configured select...
    let (_, found) = findings(dir.path(), &[".", "--select", "IDEM002"]);
    assert_eq!(found, vec![f("a.rs", "IDEM002", "error")]);
    // ...and --ignore adds to the configured ignore.
    write(dir.path(), "idem-lint.toml", "ignore = [\"IDEM001\"]\n");
    let (code, found) = findings(dir.path(), &[".", "--ignore", "IDEM002"]);
    assert_eq!(found, vec![]);
    assert_eq!(code, 0);
}

#[test]
fn per_file_ignores_and_exclude() {
    let dir = tempdir();
    write(
        dir.path(),
        "idem-lint.toml",
        "exclude = [\"generated\", \"src/vendored.rs\"]\n[per-file-ignores]\n\"src/legacy/*.rs\" = [\"IDEM001\"]\n\"old.rs\" = [\"adhoc-key-concat\", \"IDEM002\"]\n",
    );
    write(dir.path(), "src/legacy/a.rs", BAD);
    write(dir.path(), "src/legacy/nested/b.rs", BAD);
    write(dir.path(), "src/c.rs", BAD);
    write(dir.path(), "src/deep/old.rs", BAD);
    write(dir.path(), "src/vendored.rs", BAD);
    write(dir.path(), "src/generated/x.rs", BAD);
    write(dir.path(), "generated/y.rs", BAD);
    let (_, found) = findings(dir.path(), &["."]);
    assert_eq!(
        found,
        vec![
            f("src/c.rs", "IDEM001", "error"),
            f("src/c.rs", "IDEM002", "error"),
            f("src/legacy/a.rs", "IDEM002", "error"),
            f("src/legacy/nested/b.rs", "IDEM001", "error"),
            f("src/legacy/nested/b.rs", "IDEM002", "error"),
        ]
    );
    // Excluded files are skipped even when named explicitly (pre-commit passes names).
    let (code, stdout, stderr) = run(dir.path(), &["src/vendored.rs", "--format", "short"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("no Rust or SQL files found in src/vendored.rs"),
        "{stderr}"
    );
}

#[test]
fn max_file_size_from_config_and_the_command_line_wins() {
    let dir = tempdir();
    write(dir.path(), "idem-lint.toml", "max-file-size = 10\n");
    write(dir.path(), "a.rs", BAD);
    let (code, found) = findings(dir.path(), &["."]);
    assert_eq!(found, vec![f("a.rs", "IDEM000", "error")]);
    assert_eq!(code, 1, "an oversized file fails the run");
    let (_, found) = findings(dir.path(), &[".", "--max-file-size", "100000"]);
    assert_eq!(found.len(), 2, "{found:?}");
}

/// Extending a role's vocabulary changes what the rules see.
#[test]
fn vocabulary_extension_changes_findings() {
    let dir = tempdir();
    let tenant = r#"use std::collections::HashMap;
pub fn lookup(shop_id: &str, user_id: &str, headers: &HeaderMap, cache: &HashMap<(String, String, String, String), Vec<u8>>) -> Option<Vec<u8>> {
    let idem_key = headers.get("Idempotency-Key")?.to_str().ok()?;
    let key = (shop_id.to_string(), user_id.to_string(), "charge".to_string(), idem_key.to_string());
    cache.get(&key).cloned()
}
"#;
    let wrapper = r#"use std::collections::HashMap;
pub struct Ctx { pub shop: String, pub user_id: String }
pub fn lookup(ctx: &Ctx, headers: &HeaderMap, cache: &HashMap<String, Vec<u8>>) -> Option<Vec<u8>> {
    let idem_key = headers.get("Idempotency-Key")?.to_str().ok()?;
    let k = acme_keys::scoped_key(&ctx.shop, &ctx.user_id, "charge", idem_key);
    cache.get(&k).cloned()
}
"#;
    let header = r#"use std::collections::HashMap;
pub fn lookup(headers: &http::HeaderMap, cache: &HashMap<String, Vec<u8>>) -> Option<Vec<u8>> {
    let token = headers.get("X-Dedupe-Token")?.to_str().ok()?;
    cache.get(token).cloned()
}
"#;
    write(dir.path(), "tenant.rs", tenant);
    write(dir.path(), "wrapper.rs", wrapper);
    write(dir.path(), "header.rs", header);
    // The tenant alone missing beside a principal is a `possible` finding.
    let all = ["--confidence", "possible", "."];
    let (_, before) = findings(dir.path(), &all);
    assert_eq!(
        before,
        vec![f("tenant.rs", "IDEM002", "error"), f("wrapper.rs", "IDEM002", "error")],
        "without configuration: `shop_id` is no tenant, `scoped_key` is an unknown call, the header is unknown"
    );
    write(
        dir.path(),
        "idem-lint.toml",
        "[vocabulary]\ntenant = [\"shop_id\"]\nkey-constructors = [\"acme_keys::scoped_key\"]\nheaders = [\"x-dedupe-token\"]\n",
    );
    let (_, after) = findings(dir.path(), &all);
    assert_eq!(after, vec![f("header.rs", "IDEM002", "error")]);
    // The snake_case spelling of multi-word roles is accepted too.
    write(
        dir.path(),
        "idem-lint.toml",
        "[vocabulary]\nkey_constructors = [\"acme_keys::scoped_key\"]\n",
    );
    let (_, after) = findings(dir.path(), &["--confidence", "possible", "wrapper.rs"]);
    assert_eq!(after, vec![]);
}

#[test]
fn config_subcommand_prints_the_resolved_configuration() {
    let dir = tempdir();
    write(
        dir.path(),
        "idem-lint.toml",
        "max-file-size = 1000\n[rules]\nIDEM001 = \"warn\"\n[per-file-ignores]\n\"src/legacy/*.rs\" = [\"IDEM002\"]\n[vocabulary]\ntenant = [\"shop_id\"]\nserver-ids = [\"outbox_id\"]\n",
    );
    write(dir.path(), "src/legacy/a.rs", BAD);
    let (code, stdout, stderr) = run(dir.path(), &["config", "src/legacy/a.rs"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("# from: idem-lint.toml"), "{stdout}");
    let shown: toml::Table = toml::from_str(&stdout).expect("the output is TOML");
    assert_eq!(shown["max-file-size"].as_integer(), Some(1000));
    assert_eq!(shown["rules"]["IDEM001"].as_str(), Some("warn"));
    assert_eq!(
        shown["rules"]["IDEM002"].as_str(),
        Some("off"),
        "per-file ignore applies to this path"
    );
    assert_eq!(shown["rules"]["IDEM000"].as_str(), Some("error"));
    assert_eq!(shown["vocabulary"]["tenant"][0].as_str(), Some("shop_id"));
    assert_eq!(
        shown["vocabulary"]["server-ids"][0].as_str(),
        Some("outbox_id")
    );
    let (_, stdout, _) = run(dir.path(), &["config", "src"]);
    let shown: toml::Table = toml::from_str(&stdout).expect("TOML");
    assert_eq!(shown["rules"]["IDEM002"].as_str(), Some("error"));
    // Without any configuration: the defaults.
    let bare = tempdir();
    let (code, stdout, _) = run(bare.path(), &["config"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("built-in defaults") || stdout.contains("# from:"),
        "{stdout}"
    );
    // A broken file is reported the same way as when linting.
    write(dir.path(), "idem-lint.toml", "nope = 1\n");
    let (code, _, stderr) = run(dir.path(), &["config", "src"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("idem-lint.toml:1:1") && stderr.contains("nope"),
        "{stderr}"
    );
}

#[test]
fn unknown_rules_and_keys_get_a_did_you_mean() {
    let dir = tempdir();
    write(dir.path(), "a.rs", BAD);
    for (config, needle) in [
        (
            "[rules]\nadhoc-key-concatt = \"warn\"\n",
            "unknown rule `adhoc-key-concatt` (`idem-lint rules` lists them); did you mean `adhoc-key-concat`?",
        ),
        (
            "exlude = [\"gen\"]\n",
            "unknown field `exlude`",
        ),
        ("exlude = [\"gen\"]\n", "did you mean `exclude`?"),
        ("[vocabulary]\ntennant = [\"shop\"]\n", "did you mean `tenant`?"),
        (
            "confidence = \"posible\"\n",
            "unknown confidence `posible`, expected `certain` or `possible`; did you mean `possible`?",
        ),
        ("confidence = \"high\"\n", "did you mean `certain`?"),
        ("[scope]\ntenat = false\n", "unknown field `tenat`"),
        ("[scope]\ntenat = false\n", "did you mean `tenant`?"),
        ("[scope]\nprincipals = false\n", "did you mean `principal`?"),
        ("[scope]\ntenant = \"no\"\n", "scope.tenant"),
    ] {
        write(dir.path(), "idem-lint.toml", config);
        let (code, _, stderr) = run(dir.path(), &["a.rs"]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(needle), "{config}: {stderr}");
    }
    // A word close to nothing gets no guess.
    write(dir.path(), "idem-lint.toml", "[rules]\nzzz = \"warn\"\n");
    let (_, _, stderr) = run(dir.path(), &["a.rs"]);
    assert!(!stderr.contains("did you mean"), "{stderr}");
    // The command line too.
    std::fs::remove_file(dir.path().join("idem-lint.toml")).expect("rm");
    for (arg, suggestion) in [
        ("IDEM01x", "IDEM001"),
        ("adhoc-key-concatt", "adhoc-key-concat"),
    ] {
        let (code, _, stderr) = run(dir.path(), &["a.rs", "--select", arg]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(&format!("did you mean `{suggestion}`?")),
            "{arg}: {stderr}"
        );
    }
    let (_, _, stderr) = run(dir.path(), &["explain", "adhoc-key-concatt"]);
    assert!(
        stderr.contains("did you mean `adhoc-key-concat`?"),
        "{stderr}"
    );
}

#[test]
fn misspelt_metadata_table_is_a_warning() {
    let dir = tempdir();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n\n[package.metadata.idem_lint]\nignore = [\"IDEM001\"]\n\n[workspace.metadata.idemlint]\n",
    );
    write(dir.path(), "src/lib.rs", BAD);
    let (code, _, stderr) = run(dir.path(), &["--format", "short", "--no-cache", "."]);
    assert_eq!(code, 1, "the table is not applied: {stderr}");
    for expected in [
        "warning: Cargo.toml: `[package.metadata.idem_lint]` is not read: idem-lint's table is spelt `[package.metadata.idem-lint]`",
        "warning: Cargo.toml: `[workspace.metadata.idemlint]` is not read: idem-lint's table is spelt `[workspace.metadata.idem-lint]`",
    ] {
        assert_eq!(stderr.matches(expected).count(), 1, "{stderr}");
    }
    // `idem-lint config` says it too.
    let (_, _, stderr) = run(dir.path(), &["config", "src"]);
    assert!(stderr.contains("[package.metadata.idem_lint]"), "{stderr}");
    // The right spelling, and other tools' tables, are not warned about.
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n\n[package.metadata.idem-lint]\nignore = [\"IDEM001\"]\n\n[package.metadata.docs-rs]\nall-features = true\n",
    );
    let (_, _, stderr) = run(dir.path(), &["--format", "short", "--no-cache", "."]);
    assert!(!stderr.contains("warning"), "{stderr}");
}

/// `confidence` applies per file like the other settings (the nearest
/// configuration wins) and `--confidence` wins over it.
#[test]
fn confidence_is_configured_per_file_and_the_command_line_wins() {
    let dir = tempdir();
    // The client key is known only by its name: a `possible` finding.
    let named =
        "pub fn remember(cache: &mut Cache, idem_key: &str) {\n    cache.insert(idem_key, 1);\n}\n";
    write(dir.path(), "a.rs", named);
    write(dir.path(), "sub/b.rs", named);
    write(
        dir.path(),
        "sub/idem-lint.toml",
        "confidence = \"possible\"\n",
    );
    let (code, found) = findings(dir.path(), &["."]);
    assert_eq!(found, vec![f("sub/b.rs", "IDEM002", "error")]);
    assert_eq!(code, 1);
    let (_, found) = findings(dir.path(), &[".", "--confidence", "certain"]);
    assert_eq!(found, vec![]);
    let (_, found) = findings(dir.path(), &[".", "--confidence", "possible"]);
    assert_eq!(
        found,
        vec![
            f("a.rs", "IDEM002", "error"),
            f("sub/b.rs", "IDEM002", "error")
        ]
    );
}

/// `idem-lint config` shows the tier and the service's scope components,
/// and its output, given back with `--config`, means the same.
#[test]
fn config_subcommand_shows_confidence_and_scope() {
    let dir = tempdir();
    let (_, stdout, _) = run(dir.path(), &["config"]);
    let shown: toml::Table = toml::from_str(&stdout).expect("TOML");
    assert_eq!(shown["confidence"].as_str(), Some("certain"), "{stdout}");
    assert_eq!(shown["scope"]["tenant"].as_bool(), Some(true), "{stdout}");
    assert_eq!(
        shown["scope"]["principal"].as_bool(),
        Some(true),
        "{stdout}"
    );
    write(
        dir.path(),
        "idem-lint.toml",
        "confidence = \"possible\"\n[scope]\ntenant = false\n",
    );
    let (code, stdout, stderr) = run(dir.path(), &["config"]);
    assert_eq!(code, 0, "{stderr}");
    let shown: toml::Table = toml::from_str(&stdout).expect("TOML");
    assert_eq!(shown["confidence"].as_str(), Some("possible"), "{stdout}");
    assert_eq!(shown["scope"]["tenant"].as_bool(), Some(false), "{stdout}");
    assert_eq!(
        shown["scope"]["principal"].as_bool(),
        Some(true),
        "{stdout}"
    );
    write(dir.path(), "shown.toml", &stdout);
    let (code, again, stderr) = run(dir.path(), &["config", "--config", "shown.toml"]);
    assert_eq!(code, 0, "{stderr}");
    let again: toml::Table = toml::from_str(&again).expect("TOML");
    assert_eq!(again["confidence"], shown["confidence"]);
    assert_eq!(again["scope"], shown["scope"]);
}

/// `[scope] tenant = false` (a single-tenant service): a key scoped by
/// principal and route is silent and no message or fix asks for a tenant;
/// `principal = false` likewise. Files under another configuration keep
/// every component.
#[test]
fn scope_without_tenant_or_principal_never_asks_for_it() {
    const IMPLIED: &str = " (unless the principal's ids are unique across tenants)";
    let dir = tempdir();
    let source = r#"use std::collections::HashMap;
pub struct Ctx { pub user_id: String }
pub fn raw(headers: &HeaderMap, cache: &HashMap<String, Vec<u8>>) -> Option<Vec<u8>> {
    let key = headers.get("Idempotency-Key")?.to_str().ok()?;
    cache.get(key).cloned()
}
pub fn by_user(ctx: &Ctx, headers: &HeaderMap, cache: &HashMap<(String, String, String), Vec<u8>>) -> Option<Vec<u8>> {
    let key = headers.get("Idempotency-Key")?.to_str().ok()?.to_string();
    let record = (ctx.user_id.clone(), "refund".to_string(), key);
    cache.get(&record).cloned()
}
"#;
    write(dir.path(), "single/a.rs", source);
    write(dir.path(), "multi/a.rs", source);
    let messages = |scope: &str| -> Vec<(u64, String, String)> {
        write(
            dir.path(),
            "single/idem-lint.toml",
            &format!("[scope]\n{scope}"),
        );
        // `--confidence possible`: the tenant alone missing beside a
        // principal is a `possible` finding.
        let args = [
            "--format",
            "json",
            "--no-cache",
            "--confidence",
            "possible",
            ".",
        ];
        let (code, stdout, stderr) = run(dir.path(), &args);
        assert_eq!(code, 1, "{stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
        let mut out: Vec<(u64, String, String)> = (json["diagnostics"].as_array().expect("array"))
            .iter()
            .map(|d| {
                let fix = d["fix"]["edits"][0]["replacement"].as_str().unwrap_or("");
                (
                    d["span"]["start"]["line"].as_u64().unwrap_or(0),
                    format!(
                        "{} {}",
                        d["path"].as_str().unwrap_or(""),
                        d["message"].as_str().unwrap_or("")
                    ),
                    fix.trim().to_string(),
                )
            })
            .collect();
        out.sort();
        out
    };
    let raw_fix = |tenant: &str, principal: &str| {
        format!("let scoped_key = idem_scope::scoped({tenant}, {principal}, \"route\", &key)?;")
    };
    let full = raw_fix("&tenant", "&principal");
    assert_eq!(
        messages("tenant = false\n"),
        vec![
            (5, "multi/a.rs the raw client key is used as the storage key: its scope lacks tenant, principal and route".to_string(), full.clone()),
            (5, "single/a.rs the raw client key is used as the storage key: its scope lacks principal and route".to_string(), raw_fix("\"single-tenant\"", "&principal")),
            (9, format!("multi/a.rs idempotency key scope lacks tenant{IMPLIED}"), String::new()),
        ]
    );
    assert_eq!(
        messages("principal = false\n"),
        vec![
            (5, "multi/a.rs the raw client key is used as the storage key: its scope lacks tenant, principal and route".to_string(), full.clone()),
            (5, "single/a.rs the raw client key is used as the storage key: its scope lacks tenant and route".to_string(), raw_fix("&tenant", "\"single-principal\"")),
            (9, format!("multi/a.rs idempotency key scope lacks tenant{IMPLIED}"), String::new()),
            (9, format!("single/a.rs idempotency key scope lacks tenant{IMPLIED}"), String::new()),
        ]
    );
    let both = messages("tenant = false\nprincipal = false\n");
    assert_eq!(
        both[1],
        (
            5,
            "single/a.rs the raw client key is used as the storage key: its scope lacks route"
                .to_string(),
            raw_fix("\"single-tenant\"", "\"single-principal\"")
        ),
    );
    assert_eq!(both.len(), 3, "{both:?}");
}

/// `[scope]` applies to IDEM008 too: the DDL of a single-tenant service's
/// migration needs no tenant column, and the message never asks for one.
#[test]
fn scope_applies_to_single_column_keys_in_sql() {
    let dir = tempdir();
    let ddl = "CREATE TABLE idempotency_keys (user_id text NOT NULL, route text NOT NULL, idempotency_key text NOT NULL, response jsonb, PRIMARY KEY (user_id, route, idempotency_key));\nCREATE TABLE idempotency_cache (idempotency_key text PRIMARY KEY, response jsonb);\n";
    write(dir.path(), "single/0001.sql", ddl);
    write(
        dir.path(),
        "single/idem-lint.toml",
        "[scope]\ntenant = false\n",
    );
    write(dir.path(), "multi/0001.sql", ddl);
    let (code, stdout, stderr) = run(dir.path(), &["--format", "short", "--no-cache", "."]);
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<&str> = stdout.lines().filter(|l| l.contains("IDEM008")).collect();
    assert_eq!(
        lines,
        [
            "multi/0001.sql:1:123: error[IDEM008] single-column-key: idempotency table `idempotency_keys` has a PRIMARY KEY on (user_id, route, idempotency_key) that lacks a tenant column",
            "multi/0001.sql:2:33: error[IDEM008] single-column-key: idempotency table `idempotency_cache` has a PRIMARY KEY on `idempotency_key` that lacks tenant, principal and route columns",
            "single/0001.sql:2:33: error[IDEM008] single-column-key: idempotency table `idempotency_cache` has a PRIMARY KEY on `idempotency_key` that lacks principal and route columns",
        ],
        "{stdout}"
    );
}
