//! `scripts/test.sh` checks its prerequisites before building anything and
//! names each missing one with what to install.

use std::path::Path;
use std::process::Command;

#[test]
fn test_script_names_every_missing_prerequisite_before_building() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A copy outside the repository: no `.tools/` already installed there.
    std::fs::create_dir(dir.path().join("scripts")).expect("mkdir");
    let script = dir.path().join("scripts/test.sh");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/test.sh"),
        &script,
    )
    .expect("copy");
    // A PATH with only what the script itself runs before the check.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).expect("mkdir");
    for tool in ["dirname", "id"] {
        let found = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("no {tool}"));
        std::os::unix::fs::symlink(found, bin.join(tool)).expect("symlink");
    }
    let bash = ["/usr/bin/bash", "/bin/bash"]
        .into_iter()
        .find(|p| Path::new(p).is_file())
        .expect("bash");
    let out = Command::new(bash)
        .arg(&script)
        .env("PATH", &bin)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "scripts/test.sh: missing prerequisites (see README, Development):",
            "  - cargo (https://rustup.rs)",
            "  - npm, to install Microsoft's SARIF validator into .tools/ (Debian: apt-get install npm)",
            "  - python3 with the venv module, for pre-commit in .tools/venv (Debian: apt-get install python3-venv)",
        ],
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "it went on past the check");
}
