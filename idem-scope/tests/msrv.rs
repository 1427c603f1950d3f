//! The crate every idem-lint diagnostic recommends must build where services
//! build: on the workspace's declared minimum Rust version. Clippy's
//! `incompatible_msrv` lint checks our own use of std against `rust-version`;
//! this test checks the other half, that no dependency (normal or build, with
//! every feature of idem-scope: `tower`, `postgres`, `redis`, `conformance`)
//! declares a newer `rust-version` than ours.

use std::process::Command;

use serde_json::Value;

/// `1.85` and `1.85.0` are the same version: always three parts.
fn version(text: &str) -> [u64; 3] {
    let mut parts = text.split('.').map(|p| p.parse().unwrap_or(0));
    [(); 3].map(|()| parts.next().unwrap_or(0))
}

#[test]
fn no_dependency_needs_a_newer_rust_than_idem_scope() {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--all-features",
        ])
        .args(["--manifest-path", manifest])
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("metadata is JSON");
    let packages = metadata["packages"].as_array().expect("packages");
    let package = |id: &str| {
        packages
            .iter()
            .find(|p| p["id"] == id)
            .unwrap_or_else(|| panic!("package {id} in metadata"))
    };
    let root = packages
        .iter()
        .find(|p| p["name"] == "idem-scope")
        .expect("idem-scope in metadata");
    let ours = root["rust_version"]
        .as_str()
        .expect("idem-scope declares rust-version");
    let workspace_manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml"))
            .expect("workspace manifest");
    assert!(
        workspace_manifest.contains(&format!("rust-version = \"{ours}\"")),
        "idem-scope's rust-version {ours} is not the workspace's"
    );

    let nodes = metadata["resolve"]["nodes"].as_array().expect("resolve");
    let mut todo = vec![root["id"].as_str().expect("id").to_string()];
    let mut seen = std::collections::BTreeSet::new();
    let mut too_new = Vec::new();
    while let Some(id) = todo.pop() {
        if !seen.insert(id.clone()) {
            continue;
        }
        let p = package(&id);
        if let Some(needs) = p["rust_version"].as_str() {
            if version(needs) > version(ours) {
                too_new.push(format!("{} {} needs {needs}", p["name"], p["version"]));
            }
        }
        let node = nodes.iter().find(|n| n["id"] == id.as_str()).expect("node");
        for dep in node["deps"].as_array().expect("deps") {
            let runtime = dep["dep_kinds"]
                .as_array()
                .expect("dep_kinds")
                .iter()
                .any(|k| k["kind"] != "dev");
            if runtime {
                todo.push(dep["pkg"].as_str().expect("pkg").to_string());
            }
        }
    }
    assert!(seen.len() > 5, "walked the dependency graph: {seen:?}");
    for feature_dep in ["tower", "sqlx", "redis", "hyper"] {
        assert!(
            seen.iter().any(|id| package(id)["name"] == feature_dep),
            "the walk covers the optional dependency {feature_dep}"
        );
    }
    assert!(
        too_new.is_empty(),
        "idem-scope declares Rust {ours}, but: {too_new:?}"
    );
}
