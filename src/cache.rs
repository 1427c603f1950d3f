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

use crate::analysis::workspace_flow::Seed;
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

/// The shape of a stored entry: bumped when diagnostics gain a field (2:
/// `fix`), so a build of the same version never replays entries without it.
const ENTRY_FORMAT: &[u8] = b"entry-format-2";

/// Hashes what a unit's result depends on.
pub struct KeyBuilder(Xxh3);

impl KeyBuilder {
    /// Starts a key from the configuration hash.
    pub fn new(config: u128) -> Self {
        let mut hasher = Xxh3::new();
        hasher.update(crate::VERSION.as_bytes());
        hasher.update(ENTRY_FORMAT);
        hasher.update(build_id());
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

/// The running executable's size and modification time: a rebuilt binary
/// (a `cargo install --git` of a newer commit, a development build) may
/// analyse differently under the same version number, so its entries must
/// not be replayed. Without the executable's metadata only the version
/// and entry format separate builds.
fn build_id() -> &'static [u8] {
    static ID: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let Some(meta) = std::env::current_exe().and_then(std::fs::metadata).ok() else {
            return Vec::new();
        };
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        let mut id = meta.len().to_le_bytes().to_vec();
        id.extend_from_slice(&modified.to_le_bytes());
        id
    })
}

/// A 128-bit hash of a configuration's text (its `Debug` form).
pub fn config_hash(config: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(config.as_bytes())
}

/// What a file looked like on disk when its contents were hashed: a file
/// whose stamp is unchanged since need not be read again to know its hash.
/// The content hash stays the key; the stamp only saves the reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    mtime_ns: i128,
    ctime_ns: i128,
    inode: u64,
    device: u64,
}

impl Stamp {
    /// The stamp of a file's metadata.
    pub fn of(meta: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Stamp {
                len: meta.len(),
                mtime_ns: meta.mtime() as i128 * 1_000_000_000 + meta.mtime_nsec() as i128,
                ctime_ns: meta.ctime() as i128 * 1_000_000_000 + meta.ctime_nsec() as i128,
                inode: meta.ino(),
                device: meta.dev(),
            }
        }
        #[cfg(not(unix))]
        {
            let nanos = |t: std::io::Result<std::time::SystemTime>| {
                t.ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos() as i128)
            };
            Stamp {
                len: meta.len(),
                mtime_ns: nanos(meta.modified()),
                ctime_ns: nanos(meta.created()),
                inode: 0,
                device: 0,
            }
        }
    }
}

/// A file's contents as the memo remembers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Remembered {
    /// xxh3-128 of the text.
    pub hash: u128,
    /// The text carries an `idem-lint:` comment (needed after a hit).
    pub suppression: bool,
}

/// The stamp memo: per path, the stamp and hash of the file when it was
/// last read. Entries changed less than `RACY_NS` before the memo was
/// written are not trusted (a write in the same clock tick would keep the
/// stamp), as git does with its index.
#[derive(Debug, Default)]
pub struct Memo {
    written_ns: i128,
    entries: rustc_hash::FxHashMap<String, (Stamp, Remembered)>,
}

const RACY_NS: i128 = 2_000_000_000;

impl Memo {
    /// The remembered contents of `path`, if its stamp is unchanged.
    pub fn get(&self, path: &str, stamp: &Stamp) -> Option<Remembered> {
        let (known, remembered) = self.entries.get(path)?;
        let settled = stamp.mtime_ns.max(stamp.ctime_ns) < self.written_ns - RACY_NS;
        (known == stamp && settled).then_some(*remembered)
    }
}

fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
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

    fn memo_path(&self) -> PathBuf {
        self.dir.join("stamps.memo")
    }

    /// The stamp memo; empty when missing or unreadable, and a line that
    /// does not decode is skipped. The format is a header line
    /// `idem-lint-stamps <VERSION> <written_ns>`, then one line per file:
    /// `hash len mtime_ns ctime_ns inode device suppression path`
    /// (tab-separated, the path last), read far faster than JSON.
    pub fn load_memo(&self) -> Memo {
        let Ok(text) = std::fs::read_to_string(self.memo_path()) else {
            return Memo::default();
        };
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split(' ').collect();
        let written_ns = match header.as_slice() {
            ["idem-lint-stamps", version, written] if *version == crate::VERSION => {
                written.parse().ok()
            }
            _ => None,
        };
        let Some(written_ns) = written_ns else {
            return Memo::default();
        };
        let mut memo = Memo {
            written_ns,
            entries: Default::default(),
        };
        for line in lines {
            if let Some((path, entry)) = decode_stamp(line) {
                memo.entries.insert(path.to_string(), entry);
            }
        }
        memo
    }

    /// Writes the memo: the old one with `updates` applied.
    pub fn store_memo(&self, mut memo: Memo, updates: Vec<(String, Stamp, Remembered)>) {
        if updates.is_empty() {
            return;
        }
        for (path, stamp, remembered) in updates {
            // A path with a line break cannot be written on one line.
            if !path.contains(['\n', '\r']) {
                memo.entries.insert(path, (stamp, remembered));
            }
        }
        let mut out = format!("idem-lint-stamps {} {}\n", crate::VERSION, now_ns());
        for (path, (stamp, remembered)) in &memo.entries {
            out.push_str(&format!(
                "{:032x}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                remembered.hash,
                stamp.len,
                stamp.mtime_ns,
                stamp.ctime_ns,
                stamp.inode,
                stamp.device,
                u8::from(remembered.suppression),
                path
            ));
        }
        let _ = write_atomic(&self.memo_path(), out.as_bytes());
    }

    /// The cached diagnostics of a unit, if a valid entry exists.
    pub fn load(&self, key: Key) -> Option<Vec<Diagnostic>> {
        self.load_unit(key).map(|(diagnostics, _)| diagnostics)
    }

    /// The cached diagnostics of a unit and its calls into other crates
    /// given the client's key (`analysis::workspace_flow`), if a valid
    /// entry exists.
    pub fn load_unit(&self, key: Key) -> Option<(Vec<Diagnostic>, Vec<Seed>)> {
        let bytes = std::fs::read(self.entry(key)).ok()?;
        let value: Value = serde_json::from_slice(&bytes).ok()?;
        if value["tool"] != "idem-lint"
            || value["version"] != crate::VERSION
            || value["key"] != key.hex().as_str()
        {
            return None;
        }
        let diagnostics = value["diagnostics"]
            .as_array()?
            .iter()
            .map(decode)
            .collect::<Option<_>>()?;
        let calls = match value.get("key_calls") {
            Some(calls) => serde_json::from_value(calls.clone()).ok()?,
            None => Vec::new(),
        };
        Some((diagnostics, calls))
    }

    /// Stores a unit's diagnostics. Failures are ignored: the cache is an
    /// optimisation, never a reason to fail a run.
    pub fn store(&self, key: Key, diagnostics: &[Diagnostic]) {
        self.store_unit(key, diagnostics, &[]);
    }

    /// Stores a unit's diagnostics and its calls into other crates given
    /// the client's key (see [`Cache::load_unit`]).
    pub fn store_unit(&self, key: Key, diagnostics: &[Diagnostic], calls: &[Seed]) {
        let entry = json!({
            "tool": "idem-lint",
            "version": crate::VERSION,
            "key": key.hex(),
            "diagnostics": diagnostics,
            "key_calls": calls,
        });
        if let Ok(bytes) = serde_json::to_vec(&entry) {
            let _ = write_atomic(&self.entry(key), &bytes);
        }
    }
}

/// One line of the stamp memo (see `Cache::load_memo`).
fn decode_stamp(line: &str) -> Option<(&str, (Stamp, Remembered))> {
    let mut fields = line.splitn(8, '\t');
    let hash = u128::from_str_radix(fields.next()?, 16).ok()?;
    let mut number = || fields.next()?.parse::<i128>().ok();
    let (len, mtime_ns, ctime_ns, inode, device, suppression) = (
        number()?,
        number()?,
        number()?,
        number()?,
        number()?,
        number()?,
    );
    let path = fields.next()?;
    let stamp = Stamp {
        len: u64::try_from(len).ok()?,
        mtime_ns,
        ctime_ns,
        inode: u64::try_from(inode).ok()?,
        device: u64::try_from(device).ok()?,
    };
    let remembered = Remembered {
        hash,
        suppression: suppression != 0,
    };
    Some((path, (stamp, remembered)))
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
    // Entries written before fixes existed have no `fix`: none, not invalid.
    let fix = match &v["fix"] {
        Value::Null => None,
        fix => Some(serde_json::from_value(fix.clone()).ok()?),
    };
    // Entries written before evidence existed have neither: invalid, so
    // the unit is analysed again and its findings get their paths.
    let confidence = serde_json::from_value(v["confidence"].clone()).ok()?;
    let trace = serde_json::from_value(v["trace"].clone()).ok()?;
    Some(Diagnostic {
        confidence,
        trace,
        code: rule.code,
        name: rule.name,
        severity,
        message: v["message"].as_str()?.to_string(),
        path: v["path"].as_str()?.to_string(),
        span: span(&v["span"])?,
        labels,
        help,
        fix,
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
            fix: None,
            confidence: Default::default(),
            trace: Vec::new(),
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
    fn stamp_memo_round_trip_and_racy_entries() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = Cache::open(dir.path()).expect("cache");
        let file = dir.path().join("a.rs");
        std::fs::write(&file, "fn a() {}").expect("write");
        let stamp = Stamp::of(&std::fs::metadata(&file).expect("meta"));
        let remembered = Remembered {
            hash: 7,
            suppression: true,
        };
        cache.store_memo(
            Memo::default(),
            vec![("dir/a b.rs".to_string(), stamp, remembered)],
        );
        let memo = cache.load_memo();
        // Just written: the file may change again within its clock tick.
        assert_eq!(memo.get("dir/a b.rs", &stamp), None);
        let settled = Memo {
            written_ns: memo.written_ns + 2 * RACY_NS,
            ..memo
        };
        assert_eq!(settled.get("dir/a b.rs", &stamp), Some(remembered));
        let touched = Stamp {
            ctime_ns: stamp.ctime_ns + 1,
            ..stamp
        };
        assert_eq!(settled.get("dir/a b.rs", &touched), None);
        assert_eq!(settled.get("other.rs", &stamp), None);
        // A corrupt memo is empty, never an error.
        std::fs::write(cache.memo_path(), "garbage\n1\t2").expect("write");
        assert_eq!(cache.load_memo().entries.len(), 0);
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
