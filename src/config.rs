//! Configuration: `idem-lint.toml`, or `[package.metadata.idem-lint]` /
//! `[workspace.metadata.idem-lint]` in `Cargo.toml`, found by walking up from
//! each linted file (the nearest one wins, so files of one tree can differ);
//! `--config FILE` replaces discovery for every file.
//!
//! Patterns in `exclude` and `per-file-ignores` are globs relative to the
//! directory of the file that holds them, like ruff's.

use std::collections::BTreeMap;

// Keys are the user's own paths: no HashDoS to defend against.
use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;
use std::path::{Component as PathComponent, Path, PathBuf};
use std::sync::Arc;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use crate::analysis::vocab::{Vocabulary, VocabularyExtension};
use crate::diagnostic::{Confidence, Diagnostic, Severity};
use crate::discover::{display_path, Unit};
use crate::rules::{self, ServiceScope};

/// The name of the dedicated configuration file.
pub const CONFIG_FILE: &str = "idem-lint.toml";

/// The level of a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Reported and fails the run.
    Error,
    /// Reported, does not fail the run.
    Warn,
    /// Not reported.
    Off,
}

impl Level {
    /// The level a severity stands for (`None`: off).
    pub fn of(severity: Option<Severity>) -> Level {
        match severity {
            Some(Severity::Error) => Level::Error,
            Some(Severity::Warning) => Level::Warn,
            None => Level::Off,
        }
    }

    /// The level as configuration spells it: `error`, `warn`, `off`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Off => "off",
        }
    }
}

impl<'de> Deserialize<'de> for Level {
    /// `error`, `warn`, `off`; other tools' spellings (`warning`, `deny`,
    /// `allow`) get a "did you mean".
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Level, D::Error> {
        let text = String::deserialize(deserializer)?;
        let level = [Level::Error, Level::Warn, Level::Off]
            .into_iter()
            .find(|l| l.as_str() == text);
        level.ok_or_else(|| {
            let meant = match text.to_ascii_lowercase().as_str() {
                "warning" | "warnings" | "warn" => Some("warn"),
                "deny" | "forbid" | "err" | "error" => Some("error"),
                "allow" | "ignore" | "none" | "disabled" | "off" => Some("off"),
                _ => None,
            };
            de::Error::custom(format!(
                "unknown level `{text}`, expected one of `error`, `warn`, `off`{}",
                hint(meant)
            ))
        })
    }
}

/// `confidence = "certain" | "possible"`; other words get a "did you mean".
fn deserialize_confidence<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Confidence>, D::Error> {
    let text = String::deserialize(deserializer)?;
    let tiers = [Confidence::Certain, Confidence::Possible];
    if let Some(tier) = tiers.into_iter().find(|t| t.as_str() == text) {
        return Ok(Some(tier));
    }
    let meant = match text.to_ascii_lowercase().as_str() {
        "high" | "sure" | "definite" => Some("certain"),
        "medium" | "maybe" | "probable" | "all" => Some("possible"),
        _ => did_you_mean(&text, tiers.map(Confidence::as_str)),
    };
    Err(de::Error::custom(format!(
        "unknown confidence `{text}`, expected `certain` or `possible`{}",
        hint(meant)
    )))
}

/// A rule code (`IDEM001`), name (`adhoc-key-concat`) or code prefix
/// (`IDEM00`), checked against the registry when the file is read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct RuleRef(String);

impl RuleRef {
    /// A reference to at least one registered rule, or `None`.
    pub fn parse(text: &str) -> Option<RuleRef> {
        let upper = text.trim().to_ascii_uppercase();
        let known = rules::find(text.trim()).is_some()
            || (!upper.is_empty() && rules::ALL.iter().any(|r| r.code.starts_with(&upper)));
        known.then(|| RuleRef(text.trim().to_string()))
    }

    /// The text as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// How specifically this reference names `code`: exact code or name beats
    /// a longer prefix, which beats a shorter one; `None` if it does not.
    fn specificity(&self, code: &str) -> Option<usize> {
        if self.0.eq_ignore_ascii_case(code) || rules::find(&self.0).is_some_and(|r| r.code == code)
        {
            return Some(usize::MAX);
        }
        let upper = self.0.to_ascii_uppercase();
        (upper.len() < code.len() && code.starts_with(&upper)).then_some(upper.len())
    }

    /// Whether this reference names `code`.
    pub fn matches(&self, code: &str) -> bool {
        self.specificity(code).is_some()
    }
}

impl<'de> Deserialize<'de> for RuleRef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        RuleRef::parse(&text).ok_or_else(|| {
            de::Error::custom(format!(
                "unknown rule `{text}` (`idem-lint rules` lists them){}",
                hint(suggest_rule(&text))
            ))
        })
    }
}

/// The candidate closest to `word` (case-insensitively), when it is close
/// enough to be a likely typo. Jaro similarity above 0.8, a little stricter
/// than clap's 0.7 for its own suggestions: a wrong hint is worse than none.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let word = word.trim().to_ascii_lowercase();
    let mut best: Option<(f64, &'a str)> = None;
    for candidate in candidates {
        let score = strsim::jaro(&word, &candidate.to_ascii_lowercase());
        // Strictly better only: ties go to the earlier candidate (code order).
        if score > 0.8 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// The rule code or name closest to an unknown `text`.
pub fn suggest_rule(text: &str) -> Option<&'static str> {
    did_you_mean(text, rules::ALL.iter().flat_map(|r| [r.code, r.name]))
}

/// `; did you mean `x`?` for an error message, or nothing.
pub fn hint(suggestion: Option<&str>) -> String {
    suggestion.map_or_else(String::new, |s| format!("; did you mean `{s}`?"))
}

/// serde's "unknown field `x`, expected one of `a`, `b`" with a hint for the
/// likely intended key appended.
fn with_key_hint(message: String) -> String {
    let Some(rest) = message.split_once("unknown field `").map(|(_, rest)| rest) else {
        return message;
    };
    let Some((unknown, expected)) = rest.split_once('`') else {
        return message;
    };
    // The expected names are the backticked words after the unknown one.
    let candidates = expected.split('`').skip(1).step_by(2);
    let suggestion = did_you_mean(unknown, candidates).map(str::to_string);
    format!("{message}{}", hint(suggestion.as_deref()))
}

/// A path glob (`src/legacy/*.rs`, `generated`), checked when the file is read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct PathPattern(String);

impl PathPattern {
    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Adds the globs this pattern stands for: the path itself and everything
    /// under it; a pattern without `/` matches at any depth, like gitignore.
    fn add_to(&self, builder: &mut GlobSetBuilder) -> Result<(), globset::Error> {
        let mut pattern = self.0.trim().trim_start_matches("./").to_string();
        let anchored = pattern.starts_with('/') || pattern.trim_end_matches('/').contains('/');
        pattern = pattern
            .trim_start_matches('/')
            .trim_end_matches('/')
            .to_string();
        let mut forms = vec![pattern.clone(), format!("{pattern}/**")];
        if !anchored {
            forms.push(format!("**/{pattern}"));
            forms.push(format!("**/{pattern}/**"));
        }
        for form in forms {
            builder.add(GlobBuilder::new(&form).literal_separator(true).build()?);
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for PathPattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let pattern = PathPattern(text.clone());
        pattern
            .add_to(&mut GlobSetBuilder::new())
            .map_err(|e| de::Error::custom(format!("invalid path pattern `{text}`: {e}")))?;
        Ok(pattern)
    }
}

/// The contents of one configuration (an `idem-lint.toml` file or the
/// `idem-lint` metadata table of a `Cargo.toml`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConfigFile {
    /// Skip files larger than this many bytes (reported as IDEM000).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_file_size: Option<u64>,
    /// Only these rules (codes, names or prefixes); all when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub select: Option<Vec<RuleRef>>,
    /// Never these rules.
    pub ignore: Vec<RuleRef>,
    /// Paths not linted at all.
    pub exclude: Vec<PathPattern>,
    /// The least certain findings reported (`--confidence` wins); `certain`
    /// when absent.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "deserialize_confidence"
    )]
    pub confidence: Option<Confidence>,
    /// Rule levels: `IDEM001 = "warn"`, `missing-scope-component = "off"`.
    pub rules: BTreeMap<RuleRef, Level>,
    /// Rules ignored in matching files: `"src/legacy/*.rs" = ["IDEM001"]`.
    pub per_file_ignores: BTreeMap<PathPattern, Vec<RuleRef>>,
    /// Names added to the built-in vocabulary.
    pub vocabulary: VocabularyExtension,
    /// The scope components the service has (`[scope] tenant = false`).
    pub scope: ServiceScope,
}

/// Where configuration comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ConfigSource {
    /// Walk up from each linted file (the default).
    #[default]
    Discover,
    /// One file for every linted file (`--config FILE`): an `idem-lint.toml`
    /// or a `Cargo.toml` with an `idem-lint` metadata table.
    File(PathBuf),
    /// Built-in defaults only.
    Defaults,
}

/// A configuration that cannot be used: the run fails (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("{path}: cannot read configuration: {message}")]
    Io {
        /// The configuration file.
        path: String,
        /// What the OS said.
        message: String,
    },
    /// A syntax error, an unknown key or a bad value.
    #[error("{path}:{line}:{column}: {}{message}", key.as_ref().map(|k| format!("key `{k}`: ")).unwrap_or_default())]
    Invalid {
        /// The configuration file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (chars).
        column: usize,
        /// The dotted key the error is about, when known.
        key: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// `--config` names a `Cargo.toml` without an `idem-lint` table.
    #[error("{path}: no [package.metadata.idem-lint] or [workspace.metadata.idem-lint] table")]
    NoTable {
        /// The manifest.
        path: String,
    },
}

/// One configuration, ready to answer questions about files.
#[derive(Debug)]
pub struct Settings {
    /// The file it was read from (`None`: built-in defaults).
    pub source: Option<PathBuf>,
    /// Which table of a `Cargo.toml` it was read from.
    pub table: Option<&'static str>,
    /// The directory patterns are relative to.
    pub root: PathBuf,
    /// The configuration as written.
    pub config: ConfigFile,
    /// The built-in vocabulary extended by `[vocabulary]`.
    pub vocab: Vocabulary,
    exclude: GlobSet,
    per_file: Vec<(GlobSet, Vec<RuleRef>)>,
}

impl Settings {
    fn new(
        source: Option<PathBuf>,
        table: Option<&'static str>,
        root: PathBuf,
        config: ConfigFile,
        base: &Vocabulary,
    ) -> Result<Settings, globset::Error> {
        let mut exclude = GlobSetBuilder::new();
        for pattern in &config.exclude {
            pattern.add_to(&mut exclude)?;
        }
        let mut per_file = Vec::new();
        for (pattern, codes) in &config.per_file_ignores {
            let mut set = GlobSetBuilder::new();
            pattern.add_to(&mut set)?;
            per_file.push((set.build()?, codes.clone()));
        }
        let mut vocab = base.clone();
        vocab.extend(&config.vocabulary);
        Ok(Settings {
            source,
            table,
            root,
            exclude: exclude.build()?,
            per_file,
            config,
            vocab,
        })
    }

    /// `path` relative to this configuration's directory, with `/` separators
    /// (the display path when it lies elsewhere).
    pub fn relative(&self, path: &Path) -> String {
        match absolute(path).strip_prefix(&self.root) {
            Ok(rel) => display_path(rel),
            Err(_) => display_path(path),
        }
    }

    /// Whether `path` is excluded from linting.
    pub fn is_excluded(&self, path: &Path) -> bool {
        !self.config.exclude.is_empty() && self.exclude.is_match(self.relative(path))
    }

    /// The largest file analysed, when configured.
    pub fn max_file_size(&self) -> Option<u64> {
        self.config.max_file_size
    }

    /// The least certain findings reported, when configured.
    pub fn confidence(&self) -> Option<Confidence> {
        self.config.confidence
    }

    /// The scope components the service has.
    pub fn scope(&self) -> ServiceScope {
        self.config.scope
    }

    /// The severity of `code` in the file at `path` (`None`: off). Command-line
    /// `--select` replaces `select` (`cli_select`), so it is not applied here.
    pub fn severity(&self, code: &str, path: &Path, cli_select: bool) -> Option<Severity> {
        // A code missing from the registry (tests/rules.rs forbids it) is not dropped.
        let default = rules::ALL
            .iter()
            .find(|r| r.code == code)
            .map_or(Severity::Error, |r| r.level);
        if !cli_select {
            if let Some(select) = &self.config.select {
                if !select.iter().any(|r| r.matches(code)) {
                    return None;
                }
            }
        }
        if self.config.ignore.iter().any(|r| r.matches(code)) {
            return None;
        }
        if !self.per_file.is_empty() {
            let rel = self.relative(path);
            if self
                .per_file
                .iter()
                .any(|(set, codes)| codes.iter().any(|r| r.matches(code)) && set.is_match(&rel))
            {
                return None;
            }
        }
        let level = self
            .config
            .rules
            .iter()
            .filter_map(|(r, level)| r.specificity(code).map(|s| (s, *level)))
            .max_by_key(|(s, _)| *s)
            .map(|(_, level)| level);
        match level {
            Some(Level::Off) => None,
            Some(Level::Warn) => Some(Severity::Warning),
            Some(Level::Error) => Some(Severity::Error),
            None => Some(default),
        }
    }
}

/// A unit with the configuration of each file and of the unit as a whole.
#[derive(Debug)]
pub struct PlannedUnit {
    /// The unit, without excluded files.
    pub unit: Unit,
    /// The configuration of the crate directory (or of the loose file): its
    /// vocabulary is the unit's, because the unit is analysed as a whole.
    pub settings: Arc<Settings>,
    /// The configuration of each file, in `unit.files` order.
    pub files: Vec<Arc<Settings>>,
}

/// Finds and caches configurations.
#[derive(Debug)]
pub struct Resolver {
    base: Vocabulary,
    explicit: Option<Arc<Settings>>,
    defaults: Arc<Settings>,
    /// Loaded configurations by file and request (dedicated file, own
    /// manifest, workspace manifest); `None` for a manifest without a table.
    loaded: HashMap<(PathBuf, usize), Option<Arc<Settings>>>,
    /// The configuration found from each starting directory.
    by_dir: HashMap<PathBuf, Arc<Settings>>,
    /// Per directory: whether it holds a dedicated configuration file and a
    /// manifest. Ancestors are shared by thousands of files; each is probed once.
    probed: HashMap<PathBuf, (bool, bool)>,
    /// The current directory, read once: every relative path is made absolute.
    cwd: PathBuf,
    /// Problems that do not stop the run (a misspelt metadata table), once each.
    warnings: std::collections::BTreeSet<String>,
}

impl Resolver {
    /// A resolver for `source`, extending the vocabulary `base`.
    pub fn new(source: &ConfigSource, base: &Vocabulary) -> Result<Resolver, ConfigError> {
        let cwd = absolute(Path::new("."));
        let defaults =
            Settings::new(None, None, cwd, ConfigFile::default(), base).map_err(|e| {
                ConfigError::Io {
                    path: "<defaults>".into(),
                    message: e.to_string(),
                }
            })?;
        let mut resolver = Resolver {
            base: base.clone(),
            explicit: None,
            defaults: Arc::new(defaults),
            loaded: HashMap::default(),
            by_dir: HashMap::default(),
            probed: HashMap::default(),
            warnings: Default::default(),
            cwd: absolute(Path::new(".")),
        };
        match source {
            ConfigSource::Discover => {}
            ConfigSource::Defaults => resolver.explicit = Some(resolver.defaults.clone()),
            ConfigSource::File(path) => {
                let is_manifest = path.file_name().is_some_and(|n| n == "Cargo.toml");
                let loaded = if is_manifest {
                    resolver.load(path, &[TABLE_PACKAGE, TABLE_WORKSPACE])?
                } else {
                    resolver.load(path, &[])?
                };
                let settings = loaded.ok_or_else(|| ConfigError::NoTable {
                    path: display_path(path),
                })?;
                resolver.explicit = Some(settings);
            }
        }
        Ok(resolver)
    }

    /// Warnings gathered so far (sorted, each once), for the caller to show.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings).into_iter().collect()
    }

    /// The configuration that applies to `path` (a file or a directory).
    pub fn for_path(&mut self, path: &Path) -> Result<Arc<Settings>, ConfigError> {
        let is_dir = self.explicit.is_none() && path.is_dir();
        self.resolve(path, is_dir)
    }

    /// [`Resolver::for_path`] for a path known to be a file, as the walk
    /// found it: no need to ask the file system.
    fn for_file(&mut self, path: &Path) -> Result<Arc<Settings>, ConfigError> {
        self.resolve(path, false)
    }

    fn resolve(&mut self, path: &Path, is_dir: bool) -> Result<Arc<Settings>, ConfigError> {
        if let Some(explicit) = &self.explicit {
            return Ok(explicit.clone());
        }
        let abs = absolute_from(&self.cwd, path);
        let start = if is_dir {
            abs
        } else {
            abs.parent().map(Path::to_path_buf).unwrap_or(abs)
        };
        if let Some(found) = self.by_dir.get(&start) {
            return Ok(found.clone());
        }
        let mut seen_manifest = false;
        let mut found = None;
        for dir in start.ancestors() {
            let (has_dedicated, has_manifest) = self.probe(dir);
            if has_dedicated {
                found = self.load(&dir.join(CONFIG_FILE), &[])?;
                break;
            }
            let manifest = dir.join("Cargo.toml");
            if has_manifest {
                // A crate's own manifest may configure it in `package.metadata`;
                // manifests further up configure their workspace members.
                let tables: &[&'static str] = if seen_manifest {
                    &[TABLE_WORKSPACE]
                } else {
                    &[TABLE_PACKAGE, TABLE_WORKSPACE]
                };
                seen_manifest = true;
                if let Some(settings) = self.load(&manifest, tables)? {
                    found = Some(settings);
                    break;
                }
            }
        }
        let settings = found.unwrap_or_else(|| self.defaults.clone());
        self.by_dir.insert(start, settings.clone());
        Ok(settings)
    }

    /// Whether `dir` holds a dedicated configuration file and a manifest.
    fn probe(&mut self, dir: &Path) -> (bool, bool) {
        if let Some(known) = self.probed.get(dir) {
            return *known;
        }
        let found = (
            dir.join(CONFIG_FILE).is_file(),
            dir.join("Cargo.toml").is_file(),
        );
        self.probed.insert(dir.to_path_buf(), found);
        found
    }

    /// Resolves every file of `units`, dropping excluded files and empty units.
    pub fn plan(&mut self, units: Vec<Unit>) -> Result<Vec<PlannedUnit>, ConfigError> {
        let mut planned = Vec::with_capacity(units.len());
        for mut unit in units {
            let mut files = Vec::with_capacity(unit.files.len());
            let mut kept = Vec::with_capacity(unit.files.len());
            // Files come sorted, so neighbours mostly share a directory and
            // with it a configuration.
            let mut last: Option<(PathBuf, Arc<Settings>)> = None;
            for mut entry in std::mem::take(&mut unit.files) {
                let dir = entry.path.parent().unwrap_or(Path::new(""));
                let settings = match &last {
                    Some((known, settings)) if known == dir => settings.clone(),
                    _ => {
                        let settings = self.for_file(&entry.path)?;
                        last = Some((dir.to_path_buf(), settings.clone()));
                        settings
                    }
                };
                if settings.is_excluded(&entry.path) {
                    // An excluded file of a crate is still its siblings' context.
                    if unit.crate_root.is_none() {
                        continue;
                    }
                    entry.context = true;
                }
                files.push(settings);
                kept.push(entry);
            }
            if kept.iter().all(|entry| entry.context) {
                continue;
            }
            let settings = match &unit.crate_root {
                Some(root) if root.as_os_str().is_empty() => self.for_path(Path::new("."))?,
                Some(root) => self.for_path(root)?,
                None => files[0].clone(),
            };
            unit.files = kept;
            planned.push(PlannedUnit {
                unit,
                settings,
                files,
            });
        }
        Ok(planned)
    }

    /// Reads `path`: the whole file, or the first of `tables` present in a
    /// manifest (`None` when it has none of them).
    fn load(
        &mut self,
        path: &Path,
        tables: &[&'static str],
    ) -> Result<Option<Arc<Settings>>, ConfigError> {
        let cache_key = (path.to_path_buf(), tables.len());
        if let Some(found) = self.loaded.get(&cache_key) {
            return Ok(found.clone());
        }
        let found = self.read(path, tables)?;
        self.loaded.insert(cache_key, found.clone());
        Ok(found)
    }

    fn read(
        &mut self,
        path: &Path,
        tables: &[&'static str],
    ) -> Result<Option<Arc<Settings>>, ConfigError> {
        let shown = shown_path(path);
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Io {
            path: shown.clone(),
            message: e.to_string(),
        })?;
        let invalid = |err: toml::de::Error| {
            let span = err.span().unwrap_or(0..0);
            let (line, column) = line_column(&text, span.start);
            ConfigError::Invalid {
                path: shown.clone(),
                line,
                column,
                key: key_at(&text, &span),
                message: with_key_hint(
                    err.message()
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            }
        };
        if !tables.is_empty() {
            // Before the fast path below: a misspelt table is exactly a
            // manifest without the bytes `idem-lint`.
            self.warn_misspelt_tables(&shown, &text);
        }
        let (config, table) = if tables.is_empty() {
            (toml::from_str::<ConfigFile>(&text).map_err(invalid)?, None)
        } else if !text.contains("idem-lint") {
            // Most manifests say nothing about idem-lint, and parsing a
            // vendored crate's manifest costs more than the rest of a warm
            // run's work for that crate. (Only a key spelled with a `\u`
            // escape could name the table without these bytes.)
            return Ok(None);
        } else {
            let manifest = match toml::from_str::<Manifest>(&text) {
                Ok(manifest) => manifest,
                Err(err) => return Err(invalid(err)),
            };
            let mut chosen = None;
            for &table in tables {
                let holder = match table {
                    TABLE_PACKAGE => manifest.package.as_ref(),
                    _ => manifest.workspace.as_ref(),
                };
                if let Some(config) = holder
                    .and_then(|h| h.metadata.as_ref())
                    .and_then(|m| m.idem_lint.clone())
                {
                    chosen = Some((config, Some(table)));
                    break;
                }
            }
            match chosen {
                Some(found) => found,
                None => return Ok(None),
            }
        };
        let root = absolute(path)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let settings = Settings::new(Some(path.to_path_buf()), table, root, config, &self.base)
            .map_err(|e| ConfigError::Invalid {
                path: shown.clone(),
                line: 1,
                column: 1,
                key: None,
                message: e.to_string(),
            })?;
        Ok(Some(Arc::new(settings)))
    }
}

impl Resolver {
    /// Notes `[package.metadata.idem_lint]` and other near spellings of our
    /// table: serde ignores unknown metadata, so without this such a
    /// configuration would silently not apply.
    fn warn_misspelt_tables(&mut self, shown: &str, text: &str) {
        // Most manifests never mention idem-lint in any spelling: no parse.
        if !text
            .as_bytes()
            .windows(4)
            .any(|w| w.eq_ignore_ascii_case(b"idem"))
        {
            return;
        }
        // A manifest that does not parse is reported when it is read for
        // our table; here there is nothing more to say.
        let Ok(manifest) = toml::from_str::<toml::Table>(text) else {
            return;
        };
        for section in ["package", "workspace"] {
            let metadata = manifest
                .get(section)
                .and_then(|s| s.get("metadata"))
                .and_then(toml::Value::as_table);
            for key in metadata.into_iter().flat_map(|m| m.keys()) {
                if key != "idem-lint" && looks_like_our_table(key) {
                    self.warnings.insert(format!(
                        "{shown}: `[{section}.metadata.{key}]` is not read: idem-lint's table is spelt `[{section}.metadata.idem-lint]`"
                    ));
                }
            }
        }
    }
}

/// `idem_lint`, `idemlint`, `IdemLint`, `idem-lnt`…: our table's name with
/// other separators or case, or a typo or two away.
fn looks_like_our_table(key: &str) -> bool {
    let squashed: String = key
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    squashed == "idemlint" || strsim::levenshtein(&key.to_ascii_lowercase(), "idem-lint") <= 2
}

const TABLE_PACKAGE: &str = "package.metadata.idem-lint";
const TABLE_WORKSPACE: &str = "workspace.metadata.idem-lint";

#[derive(Deserialize)]
struct Manifest {
    package: Option<MetadataHolder>,
    workspace: Option<MetadataHolder>,
}

#[derive(Deserialize)]
struct MetadataHolder {
    metadata: Option<Metadata>,
}

#[derive(Deserialize)]
struct Metadata {
    #[serde(rename = "idem-lint")]
    idem_lint: Option<ConfigFile>,
}

/// Applies each file's levels, `select`/`ignore`, `per-file-ignores` and
/// confidence to `diagnostics`: findings of rules that are off, or less
/// certain than `floor` says for their file's settings, are dropped; the
/// others get their configured severity.
pub fn apply_levels(
    diagnostics: &mut Vec<Diagnostic>,
    resolver: &mut Resolver,
    known: &HashMap<String, Arc<Settings>>,
    cli_select: bool,
    floor: impl Fn(&Settings) -> Confidence,
) -> Result<(), ConfigError> {
    let mut kept = Vec::with_capacity(diagnostics.len());
    for mut d in std::mem::take(diagnostics) {
        let settings = match known.get(&d.path) {
            Some(settings) => settings.clone(),
            None => resolver.for_path(Path::new(&d.path))?,
        };
        if d.confidence < floor(&settings) {
            continue;
        }
        if let Some(severity) = settings.severity(d.code, Path::new(&d.path), cli_select) {
            d.severity = severity;
            kept.push(d);
        }
    }
    *diagnostics = kept;
    Ok(())
}

/// The resolved configuration of one path, as `idem-lint config PATH` prints it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
struct Shown<'a> {
    max_file_size: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    select: Option<&'a Vec<RuleRef>>,
    ignore: &'a [RuleRef],
    exclude: &'a [PathPattern],
    confidence: Confidence,
    rules: BTreeMap<String, Level>,
    per_file_ignores: &'a BTreeMap<PathPattern, Vec<RuleRef>>,
    vocabulary: &'a VocabularyExtension,
    scope: ServiceScope,
}

/// Renders the configuration that applies to `path` as TOML: where it comes
/// from, and the effective level of every rule in that file.
pub fn show(settings: &Settings, path: &Path, default_max_file_size: u64) -> String {
    let rules = rules::ALL
        .iter()
        .map(|r| {
            (
                r.code.to_string(),
                Level::of(settings.severity(r.code, path, false)),
            )
        })
        .collect();
    let shown = Shown {
        max_file_size: settings
            .config
            .max_file_size
            .unwrap_or(default_max_file_size),
        select: settings.config.select.as_ref(),
        ignore: &settings.config.ignore,
        exclude: &settings.config.exclude,
        confidence: settings.confidence().unwrap_or(Confidence::Certain),
        rules,
        per_file_ignores: &settings.config.per_file_ignores,
        vocabulary: &settings.config.vocabulary,
        scope: settings.scope(),
    };
    let shown_file = shown_path;
    let origin = match (&settings.source, settings.table) {
        (Some(file), Some(table)) => format!("[{table}] in {}", shown_file(file)),
        (Some(file), None) => shown_file(file),
        (None, _) => "built-in defaults".to_string(),
    };
    let body = toml::to_string_pretty(&shown)
        .unwrap_or_else(|e| format!("# cannot render the configuration: {e}\n"));
    // Whether the path is excluded is a fact, not a setting: a comment, so
    // the output stays a configuration file `--config` accepts as it is.
    let excluded = if settings.is_excluded(path) {
        "# this path is excluded: it is not linted\n"
    } else {
        ""
    };
    format!(
        "# idem-lint configuration for {}\n# from: {origin}\n{excluded}# [rules] shows the effective level of every rule in this path;\n# [vocabulary] lists the names added to the built-in vocabulary;\n# [scope] says which scope components the service has.\n\n{body}",
        display_path(path)
    )
}

/// `path` made absolute against the current directory, with `.` and `..`
/// removed lexically (symbolic links are left alone, as the user named them).
pub fn absolute(path: &Path) -> PathBuf {
    match std::env::current_dir() {
        Ok(cwd) => absolute_from(&cwd, path),
        Err(_) => absolute_from(Path::new(""), path),
    }
}

/// `path` made absolute against `cwd`, with `.` and `..` removed lexically.
fn absolute_from(cwd: &Path, path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    };
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            PathComponent::CurDir => {}
            PathComponent::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A configuration file's path for messages: relative to the current
/// directory when it lies below it.
fn shown_path(path: &Path) -> String {
    match path.strip_prefix(absolute(Path::new("."))) {
        Ok(rel) => display_path(rel),
        Err(_) => display_path(path),
    }
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The dotted key an error at `span` is about: the nearest `key =` at or
/// above it, under the nearest `[table]` header.
fn key_at(text: &str, span: &Range<usize>) -> Option<String> {
    let end = text[..span.start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let mut key: Option<String> = None;
    for line in text[..end].lines().rev() {
        let line = line.trim();
        if line.starts_with('[') {
            let table = line
                .trim_start_matches('[')
                .trim_end_matches(']')
                .trim()
                .to_string();
            return Some(match key {
                Some(key) => format!("{table}.{key}"),
                None => table,
            });
        }
        if key.is_none() {
            if let Some((name, _)) = line.split_once('=') {
                let name = name.trim().trim_matches('"').trim_matches('\'');
                let bare = name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '*'));
                if !name.is_empty() && bare {
                    key = Some(name.to_string());
                }
            }
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ConfigFile, toml::de::Error> {
        toml::from_str(text)
    }

    #[test]
    fn full_file_parses() {
        let config = parse(
            r#"
max-file-size = 1000
select = ["IDEM00"]
ignore = ["IDEM002"]
exclude = ["generated"]
[rules]
adhoc-key-concat = "warn"
IDEM002 = "off"
[per-file-ignores]
"src/legacy/*.rs" = ["IDEM001"]
[vocabulary]
tenant = ["shop"]
key-constructors = ["acme::keys::scoped_key"]
"#,
        )
        .expect("valid");
        assert_eq!(config.max_file_size, Some(1000));
        assert_eq!(config.vocabulary.tenant, vec!["shop".to_string()]);
        assert_eq!(config.rules.len(), 2);
    }

    #[test]
    fn confidence_and_scope_parse_and_default() {
        let config = parse("confidence = \"possible\"\n[scope]\ntenant = false\n").expect("valid");
        assert_eq!(config.confidence, Some(Confidence::Possible));
        assert_eq!(
            config.scope,
            ServiceScope {
                tenant: false,
                principal: true
            }
        );
        let defaults = parse("").expect("valid");
        assert_eq!(defaults.confidence, None);
        assert_eq!(defaults.scope, ServiceScope::default());
        assert!(defaults.scope.tenant && defaults.scope.principal);
        let err = parse("[scope]\nroute = false\n").expect_err("the route always exists");
        assert!(
            err.message().contains("unknown field `route`"),
            "{}",
            err.message()
        );
        let err = parse("confidence = \"maybe\"\n").expect_err("no such tier");
        assert!(
            err.message().contains("did you mean `possible`?"),
            "{}",
            err.message()
        );
    }

    #[test]
    fn unknown_rule_is_an_error_with_position() {
        let text = "[rules]\nIDEM999 = \"warn\"\n";
        let err = parse(text).expect_err("unknown rule");
        assert!(err.message().contains("IDEM999"), "{}", err.message());
        let (line, _) = line_column(text, err.span().expect("span").start);
        assert_eq!(line, 2);
    }

    #[test]
    fn key_of_a_bad_value_in_a_multiline_array() {
        let text = "[vocabulary]\ntenant = [\n  \"a\",\n  3,\n]\n";
        let err = parse(text).expect_err("bad value");
        let span = err.span().expect("span");
        assert_eq!(key_at(text, &span).as_deref(), Some("vocabulary.tenant"));
    }

    #[test]
    fn most_specific_level_wins() {
        let config = parse("[rules]\nIDEM00 = \"off\"\nIDEM001 = \"warn\"\n").expect("valid");
        let settings = Settings::new(
            None,
            None,
            PathBuf::from("/"),
            config,
            &Vocabulary::default(),
        )
        .expect("globs");
        let p = Path::new("/a.rs");
        assert_eq!(
            settings.severity("IDEM001", p, false),
            Some(Severity::Warning)
        );
        assert_eq!(settings.severity("IDEM002", p, false), None);
    }

    #[test]
    fn every_vocabulary_role_reaches_the_vocabulary() {
        let config = parse(
            r#"
[vocabulary]
tenant = ["Realm"]
principal = ["seller"]
route = ["rpc_name"]
client-key = ["request_token"]
headers = ["X-Dedupe-Token"]
store-receivers = ["memo"]
store-methods = ["fetch_cached"]
key-constructors = ["Acme::Keys::scoped_key"]
server-ids = ["ledger_ref"]
sentinels = ["house_account"]
claim-verbs = ["lease"]
complete-verbs = ["seal"]
release-verbs = ["unlease"]
server-prefixes = ["SRV:"]
"#,
        )
        .expect("valid");
        let base = Vocabulary::default();
        let settings = Settings::new(None, None, PathBuf::from("/"), config, &base).expect("globs");
        let v = &settings.vocab;
        use crate::analysis::vocab::Component;
        assert_eq!(v.component_of_name("realm"), Some(Component::Tenant));
        assert_eq!(v.component_of_name("seller"), Some(Component::Principal));
        assert_eq!(v.component_of_name("rpc_name"), Some(Component::Route));
        assert!(v.is_client_key_name("request_token") && !base.is_client_key_name("request_token"));
        assert!(v.is_key_header("x-dedupe-token") && !base.is_key_header("x-dedupe-token"));
        assert!(v.is_store_receiver("memo") && !base.is_store_receiver("memo"));
        assert!(v.is_store_method("fetch_cached") && !base.is_store_method("fetch_cached"));
        // Paths keep their case; a `use`d call matches by its tail.
        assert!(v.is_key_constructor("Acme::Keys::scoped_key"));
        assert!(v.is_key_constructor("Keys::scoped_key"));
        assert!(!v.is_key_constructor("Other::scoped_key_v2"));
        assert!(v.is_server_id_name("ledger_ref") && !base.is_server_id_name("ledger_ref"));
        assert!(base.is_server_id_name("eventId"));
        assert!(v.is_sentinel("HOUSE_ACCOUNT") && !base.is_sentinel("house_account"));
        assert!(
            base.is_sentinel("MERCHANT_ID_NOT_FOUND") && base.is_sentinel("Principal::Anonymous")
        );
        assert!(base.is_sentinel("") && base.is_sentinel("DEFAULT_TENANT"));
        assert!(!base.is_sentinel("acme") && !base.is_sentinel("tenant_id"));
        assert!(
            v.is_claim_verb("lease")
                && !base.is_claim_verb("lease")
                && base.is_claim_verb("try_claim")
        );
        assert!(v.is_complete_verb("seal") && base.is_complete_verb("save_response"));
        assert!(v.is_release_verb("unlease") && base.is_release_verb("abandon"));
        assert!(v.has_server_prefix("SRV:evt_1") && !v.has_server_prefix("srv:evt_1"));
        assert!(base.has_server_prefix("s:evt_1") && !base.has_server_prefix("u:abc"));
        assert_eq!(v.server_prefixes().len(), 2);
    }

    #[test]
    fn patterns_match_relative_paths() {
        let config = parse(
            "exclude = [\"gen\", \"src/vendor/*.rs\"]\n[per-file-ignores]\n\"src/legacy/*.rs\" = [\"IDEM001\"]\n",
        )
        .expect("valid");
        let settings = Settings::new(
            None,
            None,
            PathBuf::from("/repo"),
            config,
            &Vocabulary::default(),
        )
        .expect("globs");
        assert!(settings.is_excluded(Path::new("/repo/a/gen/x.rs")));
        assert!(settings.is_excluded(Path::new("/repo/src/vendor/x.rs")));
        assert!(!settings.is_excluded(Path::new("/repo/src/vendor/deep/x.rs")));
        assert!(!settings.is_excluded(Path::new("/repo/generated.rs")));
        let legacy = Path::new("/repo/src/legacy/a.rs");
        assert_eq!(settings.severity("IDEM001", legacy, false), None);
        assert!(settings.severity("IDEM002", legacy, false).is_some());
        assert!(settings
            .severity("IDEM001", Path::new("/repo/src/a.rs"), false)
            .is_some());
    }
}
