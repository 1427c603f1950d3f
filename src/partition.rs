//! `--partition i/n`: one of `n` CI jobs lints a deterministic share of the
//! units, and `idem-lint merge` (`crate::merge`) joins the shards' reports.
//!
//! A unit (a crate, or a file outside any crate) belongs to shard
//! `hash(key) mod n`, where the key is the unit's path relative to the
//! directory idem-lint runs from (the repository root in CI). The hash is a
//! fixed SHA-256, never std's per-process randomised hasher, so every
//! machine, `--jobs` value and run puts a unit in the same shard: each unit
//! is linted by exactly one shard, and its findings are reported only there.
//! Walk problems outside any unit are shared out the same way by their path.

use std::str::FromStr;

use sha2::{Digest, Sha256};

use crate::discover::{Discovered, Unit};
use crate::report::paths::{rooted, RootedPath};

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    index: u64,
    count: u64,
}

/// Why a `--partition` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum PartitionError {
    /// Not `i/n` or `hash:i/n`.
    #[error("expected `i/n` or `hash:i/n` with 1 <= i <= n (e.g. `hash:1/3`), got `{0}`")]
    Syntax(String),
    /// `n` is zero.
    #[error("the number of shards must be at least 1, got `{0}`")]
    NoShards(String),
    /// `i` is outside `1..=n`.
    #[error("shard {index} does not exist: shards are numbered 1 to {count}")]
    OutOfRange {
        /// The shard asked for.
        index: u64,
        /// How many there are.
        count: u64,
    },
}

impl FromStr for Partition {
    type Err = PartitionError;

    /// Parses `i/n` or `hash:i/n` (the spelling `cargo nextest` uses).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let spec = text.strip_prefix("hash:").unwrap_or(text);
        let syntax = || PartitionError::Syntax(text.to_string());
        let (index, count) = spec.split_once('/').ok_or_else(syntax)?;
        let number = |s: &str| s.trim().parse::<u64>().map_err(|_| syntax());
        let (index, count) = (number(index)?, number(count)?);
        if count == 0 {
            return Err(PartitionError::NoShards(text.to_string()));
        }
        if index == 0 || index > count {
            return Err(PartitionError::OutOfRange { index, count });
        }
        Ok(Partition { index, count })
    }
}

impl Partition {
    /// Whether the unit or file keyed by `key` (a display path) is this shard's.
    pub fn owns(&self, key: &str) -> bool {
        shard_of(&stable_key(key), self.count) == self.index - 1
    }

    /// Keeps this shard's units and walk problems. Fatal problems (a named
    /// path that does not exist) stay: every shard must fail on them.
    /// Crates linked by dependencies go to the shard of the group's first
    /// unit (`discover::dependencies::linked_groups`): a client key one of
    /// them passes to another is followed within one shard.
    pub fn retain(&self, found: &mut Discovered) {
        let groups = crate::discover::dependencies::linked_groups(&found.units);
        let keys: Vec<String> = groups.iter().map(|&g| unit_key(&found.units[g])).collect();
        let mut n = 0;
        found.units.retain(|_| {
            n += 1;
            self.owns(&keys[n - 1])
        });
        found.problems.retain(|problem| self.owns(&problem.display));
    }
}

/// The path a unit is known by: its crate directory, or its one file.
fn unit_key(unit: &Unit) -> String {
    match (&unit.crate_root, unit.files.first()) {
        (Some(root), _) => crate::discover::display_path(root),
        (None, Some(file)) => file.display.clone(),
        (None, None) => String::new(),
    }
}

/// `key` relative to the current directory, `/`-separated and without `./`,
/// so `idem-lint .`, `idem-lint ./` and `idem-lint $PWD` shard alike.
fn stable_key(key: &str) -> String {
    let root = std::env::current_dir().ok();
    match rooted(key, root.as_deref()) {
        RootedPath::Relative(rel) => rel,
        RootedPath::Absolute(path) => path.to_string_lossy().replace('\\', "/"),
    }
}

/// The 0-based shard of `key` among `count`: the first 8 bytes of its
/// SHA-256, modulo `count`.
fn shard_of(key: &str, count: u64) -> u64 {
    let digest = Sha256::digest(key.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first) % count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_spellings_parse() {
        let want = Partition { index: 2, count: 3 };
        assert_eq!("2/3".parse(), Ok(want));
        assert_eq!("hash:2/3".parse(), Ok(want));
    }

    #[test]
    fn bad_values_are_refused() {
        for bad in ["0/3", "4/3", "x", "1/0", "1/", "/3", "count:1/2", "-1/3"] {
            assert!(bad.parse::<Partition>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_key_has_exactly_one_shard() {
        for count in 1..=5 {
            let shards: Vec<Partition> = (1..=count)
                .map(|index| Partition { index, count })
                .collect();
            for key in ["a", "crates/x", "src/lib.rs", "migrations/1.sql", "."] {
                let owners = shards.iter().filter(|p| p.owns(key)).count();
                assert_eq!(owners, 1, "{key} in {count} shards");
            }
        }
    }

    #[test]
    fn the_hash_is_fixed() {
        // A changed hash would move units between shards of one CI run built
        // from two versions; pin it.
        assert_eq!(shard_of("crates/x", 1_000_003), 996_635);
    }

    #[test]
    fn spellings_of_one_path_share_a_shard() {
        for index in 1..=7 {
            let shard = Partition { index, count: 7 };
            assert_eq!(shard.owns("./a/../b/c"), shard.owns("b/c"));
        }
    }
}
