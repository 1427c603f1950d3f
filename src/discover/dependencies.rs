//! What each crate's manifest depends on, by package name, read without
//! cargo (`[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`
//! and their `[target.*]` forms; a renamed dependency by its `package`):
//! the crates a crate's calls can reach (`lint::workspace`), and the units
//! a shard must keep together (`partition`).

use std::collections::BTreeSet;
use std::path::Path;

use super::Unit;

/// The package name and dependency names in `root/Cargo.toml`.
pub fn package_of(root: &Path) -> Option<(String, BTreeSet<String>)> {
    let text = std::fs::read_to_string(root.join("Cargo.toml")).ok()?;
    let manifest: toml::Table = text.parse().ok()?;
    let name = manifest.get("package")?.get("name")?.as_str()?;
    let mut deps = BTreeSet::new();
    let mut tables: Vec<&toml::Table> = vec![&manifest];
    if let Some(targets) = manifest.get("target").and_then(toml::Value::as_table) {
        tables.extend(targets.values().filter_map(toml::Value::as_table));
    }
    for table in tables {
        for kind in ["dependencies", "dev-dependencies", "build-dependencies"] {
            let Some(list) = table.get(kind).and_then(toml::Value::as_table) else {
                continue;
            };
            for (key, spec) in list {
                let package = spec.get("package").and_then(toml::Value::as_str);
                deps.insert(normalise(package.unwrap_or(key)));
            }
        }
    }
    Some((normalise(name), deps))
}

/// Cargo treats `-` and `_` in package names alike.
fn normalise(name: &str) -> String {
    name.replace('-', "_")
}

/// Per unit of `units`, the first unit of the group it is linked to by
/// dependencies among them (its own index when it has none): crates one
/// of which may call another are linted together, so that the flow
/// between them does not depend on how a run is sharded.
pub fn linked_groups(units: &[Unit]) -> Vec<usize> {
    let manifests: Vec<Option<(String, BTreeSet<String>)>> = (units.iter())
        .map(|unit| unit.crate_root.as_deref().and_then(package_of))
        .collect();
    let mut group: Vec<usize> = (0..units.len()).collect();
    fn root(group: &mut [usize], mut n: usize) -> usize {
        while group[n] != n {
            group[n] = group[group[n]];
            n = group[n];
        }
        n
    }
    for (from, manifest) in manifests.iter().enumerate() {
        let Some((_, deps)) = manifest else {
            continue;
        };
        for (to, other) in manifests.iter().enumerate() {
            if let Some((name, _)) = other {
                if to != from && deps.contains(name) {
                    let (a, b) = (root(&mut group, from), root(&mut group, to));
                    group[a.max(b)] = a.min(b);
                }
            }
        }
    }
    (0..units.len()).map(|n| root(&mut group, n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_package_and_its_dependencies_renamed_and_per_target() {
        let dir = std::env::temp_dir().join(format!("idem-ws-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            r#"
[package]
name = "my-api"
[dependencies]
my-services = { path = "../services" }
store = { package = "my-store", path = "../store" }
[target.'cfg(unix)'.dev-dependencies]
unix_only = "1"
"#,
        )
        .unwrap();
        let (name, deps) = package_of(&dir).unwrap();
        assert_eq!(name, "my_api");
        let deps: Vec<&str> = deps.iter().map(String::as_str).collect();
        assert_eq!(deps, ["my_services", "my_store", "unix_only"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
