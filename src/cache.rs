//! The result cache: one entry per analysis unit, keyed by the contents of
//! all its files, the configuration and the tool version (never mtimes,
//! which CI checkouts reset). A unit's findings depend on every file in it
//! (function summaries cross files), so a change to any file invalidates
//! the whole unit.
//!
//! Entries live in `<dir>/v<VERSION>/`, next to a `CACHEDIR.TAG` and a
//! `.gitignore`. They are written to a temporary file and renamed, so a
//! reader never sees half an entry; an entry that does not decode, or that
//! names another key, tool or version, is ignored and overwritten.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{json, Value};
use xxhash_rust::xxh3::Xxh3;

use crate::diagnostic::{Diagnostic, Label, Position, Severity, Span};
use crate::rules;

/// The standard tag that tells backup tools the directory is a cache.
const CACHEDIR_TAG: &str = "Signature: 8a477f597d28d172789f06886806bc55\n\
# This file is a cache directory tag created by idem-lint.\n\
# For information about cache directory tags see https://bford.info/cachedir/\n";

/// The cache directory of one tool version.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
}

/// A unit's cache key, from [`KeyBuilder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key(u128);

impl Key {
    fn hex(self) -> String {
        format!("{:032x}", self.0)
    }
}

/// Hashes what a unit's result depends on.
pub struct KeyBuilder(Xxh3);

impl KeyBuilder {
    /// Starts a key from the configuration hash.
    pub fn new(config: u128) -> Self {
        let mut hasher = Xxh3::new();
        hasher.update(crate::VERSION.as_bytes());
        hasher.update(&config.to_le_bytes());
        KeyBuilder(hasher)
    }

    /// Adds one piece (length-prefixed, so pieces cannot run together).
    pub fn add(&mut self, bytes: &[u8]) {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    /// The key.
    pub fn finish(&self) -> Key {
        Key(self.0.digest128())
    }
}

/// A 128-bit hash of a configuration's text (its `Debug` form).
pub fn config_hash(config: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(config.as_bytes())
}

impl Cache {
    /// Opens (creating) the version-scoped cache under `root`. `None` when
    /// the directory cannot be created: the run goes on without a cache.
    pub fn open(root: &Path) -> Option<Cache> {
        let dir = root.join(format!("v{}", crate::VERSION));
        std::fs::create_dir_all(&dir).ok()?;
        for (name, text) in [("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", "*\n")] {
            let path = root.join(name);
            if !path.exists() {
                let _ = write_atomic(&path, text.as_bytes());
            }
        }
        Some(Cache { dir })
    }

    fn entry(&self, key: Key) -> PathBuf {
        self.dir.join(format!("{}.json", key.hex()))
    }

    /// The cached diagnostics of a unit, if a valid entry exists.
    pub fn load(&self, key: Key) -> Option<Vec<Diagnostic>> {
        let bytes = std::fs::read(self.entry(key)).ok()?;
        let value: Value = serde_json::from_slice(&bytes).ok()?;
        if value["tool"] != "idem-lint"
            || value["version"] != crate::VERSION
            || value["key"] != key.hex().as_str()
        {
            return None;
        }
        value["diagnostics"]
            .as_array()?
            .iter()
            .map(decode)
            .collect()
    }

    /// Stores a unit's diagnostics. Failures are ignored: the cache is an
    /// optimisation, never a reason to fail a run.
    pub fn store(&self, key: Key, diagnostics: &[Diagnostic]) {
        let entry = json!({
            "tool": "idem-lint",
            "version": crate::VERSION,
            "key": key.hex(),
            "diagnostics": diagnostics,
        });
        if let Ok(bytes) = serde_json::to_vec(&entry) {
            let _ = write_atomic(&self.entry(key), &bytes);
        }
    }
}

/// Writes through a unique temporary file in the same directory, then
/// renames it over `path`: readers see the old entry or the new one.
fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let unique = format!(
        ".tmp-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let tmp = path.with_extension(unique);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

fn position(v: &Value) -> Option<Position> {
    Some(Position {
        line: usize::try_from(v["line"].as_u64()?).ok()?,
        column: usize::try_from(v["column"].as_u64()?).ok()?,
    })
}

fn span(v: &Value) -> Option<Span> {
    Some(Span {
        start: position(&v["start"])?,
        end: position(&v["end"])?,
    })
}

/// Rebuilds a diagnostic from its JSON; `None` for anything unexpected,
/// such as a code this build does not know.
fn decode(v: &Value) -> Option<Diagnostic> {
    let rule = rules::find(v["code"].as_str()?)?;
    if v["name"] != rule.name {
        return None;
    }
    let severity = match v["severity"].as_str()? {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        _ => return None,
    };
    let labels = v["labels"]
        .as_array()?
        .iter()
        .map(|l| {
            Some(Label {
                message: l["message"].as_str()?.to_string(),
                span: span(&l["span"])?,
            })
        })
        .collect::<Option<Vec<Label>>>()?;
    let help = match &v["help"] {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        _ => return None,
    };
    Some(Diagnostic {
        code: rule.code,
        name: rule.name,
        severity,
        message: v["message"].as_str()?.to_string(),
        path: v["path"].as_str()?.to_string(),
        span: span(&v["span"])?,
        labels,
        help,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Diagnostic {
        Diagnostic {
            code: "IDEM001",
            name: "adhoc-key-concat",
            severity: Severity::Error,
            message: "m".into(),
            path: "src/a.rs".into(),
            span: Span {
                start: Position {
                    line: 3,
                    column: 15,
                },
                end: Position {
                    line: 3,
                    column: 50,
                },
            },
            labels: vec![Label {
                message: "l".into(),
                span: Span::file_start(),
            }],
            help: Some("h".into()),
        }
    }

    #[test]
    fn round_trip_and_rejects() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = Cache::open(dir.path()).expect("cache");
        assert!(dir.path().join("CACHEDIR.TAG").is_file());
        let key = KeyBuilder::new(1).finish();
        assert_eq!(cache.load(key), None, "empty cache");
        cache.store(key, &[sample()]);
        assert_eq!(cache.load(key), Some(vec![sample()]));
        // Corrupt: truncated JSON.
        let path = cache.entry(key);
        let text = std::fs::read_to_string(&path).expect("entry");
        std::fs::write(&path, &text[..text.len() / 2]).expect("write");
        assert_eq!(cache.load(key), None);
        // Foreign: a valid entry copied under another key.
        let other = KeyBuilder::new(2).finish();
        std::fs::write(cache.entry(other), &text).expect("write");
        assert_eq!(cache.load(other), None);
        // Unknown rule code.
        std::fs::write(&path, text.replace("IDEM001", "IDEM999")).expect("write");
        assert_eq!(cache.load(key), None);
    }

    #[test]
    fn keys_depend_on_every_piece() {
        let key = |pieces: &[&[u8]], config| {
            let mut b = KeyBuilder::new(config);
            for p in pieces {
                b.add(p);
            }
            b.finish()
        };
        assert_eq!(key(&[b"a", b"b"], 1), key(&[b"a", b"b"], 1));
        assert_ne!(key(&[b"a", b"b"], 1), key(&[b"ab"], 1));
        assert_ne!(key(&[b"a", b"b"], 1), key(&[b"a", b"b"], 2));
        assert_ne!(key(&[b"a", b"b"], 1), key(&[b"a", b"c"], 1));
    }
}
