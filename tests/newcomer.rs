//! What a newcomer meets first (issue 25): the summary's file counts, no
//! summary before a missing path's error, colour by the environment's
//! conventions, the short format coloured as rustc's.

use std::process::Command;

fn idem_lint(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_idem-lint"));
    cmd.args(args).arg("--no-cache");
    for var in ["NO_COLOR", "CLICOLOR_FORCE", "CLICOLOR", "COLUMNS"] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().expect("idem-lint runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_summary_counts_files_with_findings_of_files_analysed() {
    let (code, stdout, _) = idem_lint(&["fixtures/demo"], &[]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout.lines().last(),
        Some("9 errors, 0 warnings in 3 of 6 files")
    );
    let (code, stdout, _) = idem_lint(
        &[
            "fixtures/adhoc-key-concat/only_logged.rs",
            "--format",
            "short",
        ],
        &[],
    );
    assert_eq!(
        (code, stdout.as_str()),
        (0, "0 errors, 0 warnings in 1 file\n")
    );
}

#[test]
fn a_missing_path_prints_its_error_and_no_summary() {
    let (code, stdout, stderr) = idem_lint(&["no/such/dir"], &[]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(stderr, "error: no/such/dir: no such file or directory\n");
}

#[test]
fn clicolor_force_colours_piped_output_and_no_color_wins() {
    let (_, plain, _) = idem_lint(&["fixtures/demo"], &[]);
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let (_, forced, _) = idem_lint(&["fixtures/demo"], &[("CLICOLOR_FORCE", "1")]);
    assert!(forced.contains("\u{1b}[31m"), "{forced}");
    let (_, both, _) = idem_lint(
        &["fixtures/demo"],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    );
    assert!(!both.contains('\u{1b}'), "{both}");
}

#[test]
fn short_format_is_coloured_like_rustc_when_asked() {
    let (_, stdout, _) = idem_lint(
        &["fixtures/demo", "--format", "short", "--color", "always"],
        &[],
    );
    assert_eq!(
        stdout.lines().next(),
        Some("\u{1b}[1mfixtures/demo/migrations/0002_refund_dedup.sql:5:5:\u{1b}[0m \u{1b}[31;1merror[IDEM008]\u{1b}[0m single-column-key: idempotency table `refund_dedup` has a PRIMARY KEY on `idempotency_key` that lacks tenant, principal and route columns")
    );
}

#[test]
fn a_level_spelt_warning_gets_did_you_mean_warn() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("idem-lint.toml"),
        "[rules]\nIDEM001 = \"warning\"\n",
    )
    .expect("config");
    std::fs::write(dir.path().join("a.rs"), "fn main() {}\n").expect("a.rs");
    let path = dir.path().to_string_lossy().into_owned();
    let (code, stdout, stderr) = idem_lint(&[&path], &[]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.ends_with("idem-lint.toml:2:11: key `rules.IDEM001`: unknown level `warning`, expected one of `error`, `warn`, `off`; did you mean `warn`?\n"),
        "{stderr}"
    );
}

#[test]
fn idem004_help_shows_the_async_release_pattern() {
    let (_, stdout, _) = idem_lint(&["fixtures/missing-release", "--format", "json"], &[]);
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let help = doc["diagnostics"][0]["help"].as_str().expect("help");
    assert!(
        help.contains("`ClaimGuard::new(move || { rt.spawn(async move { /* release */ }); })`"),
        "{help}"
    );
}

#[test]
fn idem008_note_is_a_note_line_not_part_of_the_help() {
    let (_, stdout, _) = idem_lint(&["fixtures/demo/migrations"], &[]);
    assert!(
        stdout.contains("response\n  note: the key also lacks a scope_version column"),
        "{stdout}"
    );
}

/// At `COLUMNS=80` help text (code included) and notes fit: a code span
/// wider than the line is cut at the width instead of overflowing it.
#[test]
fn help_and_note_lines_fit_80_columns() {
    let all = ["fixtures", "--confidence", "possible"];
    let (_, stdout, _) = idem_lint(&all, &[("COLUMNS", "80")]);
    let snippet =
        |l: &str| l.contains('│') || l.contains('·') || l.contains('╭') || l.contains('╰');
    let wide: Vec<&str> = stdout
        .lines()
        .filter(|l| !snippet(l) && l.chars().count() > 80)
        .collect();
    assert!(wide.is_empty(), "{}", wide.join("\n"));
    assert!(stdout.contains("\n  help: "), "{stdout}");
}

/// Standard input is linted as the file would be, at the default tier and
/// with `--confidence possible` (the fixture has findings of both).
#[test]
fn standard_input_is_linted_as_the_stdin_filename() {
    use std::io::Write;
    let file = "fixtures/adhoc-key-concat/format_macro_forms.rs";
    let mut outputs = Vec::new();
    for tier in [&[][..], &["--confidence", "possible"][..]] {
        let mut args = vec![file, "--format", "short"];
        args.extend_from_slice(tier);
        let (_, from_file, _) = idem_lint(&args, &[]);
        let mut child = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
            .args([
                "-",
                "--stdin-filename",
                "src/x.rs",
                "--format",
                "short",
                "--no-cache",
            ])
            .args(tier)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("runs");
        let text = std::fs::read(file).expect("fixture");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(&text)
            .expect("write");
        let out = child.wait_with_output().expect("finishes");
        assert_eq!(out.status.code(), Some(1));
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(stdout, from_file.replace(file, "src/x.rs"));
        outputs.push(stdout);
    }
    assert!(
        outputs[0].lines().count() < outputs[1].lines().count(),
        "{outputs:?}"
    );
}

#[test]
fn verbose_names_the_configuration_and_every_skipped_file_with_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    for file in [
        "a.rs",
        ".hidden/b.rs",
        "target/c.rs",
        "gen/d.rs",
        "vendor/e.sql",
    ] {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
        std::fs::write(path, "fn a() {}\n").expect("write");
    }
    std::fs::write(dir.path().join(".ignore"), "gen/\n").expect("ignore");
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(["-v", "--quiet", "--no-cache", ".", "--exclude", "vendor"])
        .current_dir(dir.path())
        .output()
        .expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "config: built-in defaults (no idem-lint.toml or Cargo.toml metadata found) for .\n\
         skipped: .hidden/b.rs (hidden)\n\
         skipped: gen/d.rs (ignored by .gitignore/.ignore, or by the configuration's exclude)\n\
         skipped: target/c.rs (under target/)\n\
         skipped: vendor/e.sql (excluded by --exclude)\n"
    );
}

/// Issue 25, unreadable paths: a link loop says so (and one on a name that
/// is no Rust or SQL file is not a finding); a named one is in the JSON too;
/// an unclosed delimiter says which opened where.
#[cfg(unix)]
#[test]
fn link_loops_and_unclosed_delimiters_say_what_is_wrong() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::os::unix::fs::symlink("loop.rs", root.join("loop.rs")).expect("link");
    std::os::unix::fs::symlink("notes.txt", root.join("notes.txt")).expect("link");
    std::fs::write(root.join("un.rs"), "fn a() {\n    let x = (1, 2;\n}\n").expect("write");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
            .args(args)
            .args(["--no-cache", "--no-prefilter", "--format", "short"])
            .current_dir(root)
            .output()
            .expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, _) = run(&["."]);
    assert_eq!(code, Some(1));
    assert_eq!(
        stdout,
        "loop.rs:1:1: error[IDEM000] parse-error: cannot read: a symbolic link loop (the link leads back to itself)\n\
         un.rs:3:1: error[IDEM000] parse-error: cannot parse Rust: mismatched closing delimiter: `}` does not close the `(` opened at 2:13\n\
         2 errors, 0 warnings in 2 of 2 files\n"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(["loop.rs", "--no-cache", "--format", "json"])
        .current_dir(root)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["diagnostics"][0]["code"], "IDEM000");
    assert_eq!(doc["diagnostics"][0]["path"], "loop.rs");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: loop.rs: cannot read: a symbolic link loop (the link leads back to itself)\n"
    );
}
