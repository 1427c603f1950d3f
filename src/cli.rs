//! The command line: argument parsing and exit codes. `main.rs` and the
//! `cargo idem-lint` binary are thin wrappers around [`run`].

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::baseline;
use crate::cargo_packages::{self, PackagesError, Selection};
use crate::config::{self, ConfigSource, Resolver};
use crate::diff_base::ChangedLines;
use crate::lint::{lint_paths, LintOptions};
use crate::merge::{MergeFormat, Shard};
use crate::model::LintResult;
use crate::partition::Partition;
use crate::report::{self, Format, RenderOptions};
use crate::rules;

/// Exit code: no error-level finding.
pub const EXIT_OK: i32 = 0;
/// Exit code: at least one error-level finding.
pub const EXIT_FINDINGS: i32 = 1;
/// Exit code: the run itself failed.
pub const EXIT_FAILURE: i32 = 2;

/// Finds idempotency-key bugs in Rust services.
#[derive(Debug, Parser)]
#[command(
    name = "idem-lint",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    lint: LintArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a rule's documentation.
    Explain {
        /// Rule code (IDEM001) or name (adhoc-key-concat).
        rule: String,
        /// When to use colours (NO_COLOR is honoured in auto mode).
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
    /// List every rule with its code, name and default level.
    Rules {
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Text)]
        format: ListFormat,
    },
    /// Combine the JSON or SARIF reports of `--partition` shards into the
    /// report of one unpartitioned run (exit 1 when it has errors).
    Merge {
        /// The shards' reports (all JSON or all SARIF, from one idem-lint version).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Output format (default: the shards' format, which must be one;
        /// JSON shards can be written as SARIF, read in the checkout).
        #[arg(long, value_enum)]
        format: Option<MergeFormatArg>,
        /// Write the report to FILE instead of standard output.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Exit 0 even when the merged report has errors.
        #[arg(long)]
        exit_zero: bool,
    },
    /// Print the configuration that applies to PATH, as TOML.
    Config {
        /// A file or directory (default: the current directory).
        #[arg(default_value = ".")]
        path: PathBuf,
        /// Use this configuration file instead of discovering one.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
}

/// `--format`: the command line's names for [`report::Format`] (the
/// renderers know nothing of clap).
#[derive(Debug, Clone, Copy, ValueEnum)]
enum FormatArg {
    /// miette graphical reports (labels over 5 lines away become `note:` lines;
    /// wrapped at COLUMNS or the terminal width, not when piped).
    Human,
    /// Versioned JSON.
    Json,
    /// `path:line:col: error[CODE] rule-name: message`, one line per finding.
    Short,
    /// SARIF 2.1.0 (GitHub code scanning).
    Sarif,
    /// GitHub Actions `::error` annotations.
    Github,
    /// rustc's JSON diagnostics as cargo `compiler-message` lines, for
    /// editors (rust-analyzer's `check.overrideCommand`).
    RustcJson,
}

/// `--message-format`: cargo's values, so `cargo idem-lint
/// --message-format=json` works where an editor runs `cargo check` with it.
/// Every `json*` variant is the same `rustc-json` output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MessageFormat {
    Human,
    Short,
    Json,
    JsonDiagnosticShort,
    JsonDiagnosticRenderedAnsi,
    JsonRenderDiagnostics,
}

/// The output format `--message-format` values ask for (cargo allows a
/// comma-separated list: any JSON flavour wins, then `short`).
fn message_format(values: &[MessageFormat]) -> Option<FormatArg> {
    let is_json = |v: &&MessageFormat| !matches!(v, MessageFormat::Human | MessageFormat::Short);
    if values.iter().any(|v| is_json(&v)) {
        Some(FormatArg::RustcJson)
    } else if values.contains(&MessageFormat::Short) {
        Some(FormatArg::Short)
    } else {
        values.first().map(|_| FormatArg::Human)
    }
}

/// The rustc JSON flavour the `--message-format` values ask for, as cargo
/// combines them (`json-diagnostic-short,json-render-diagnostics`).
fn rustc_style(values: &[MessageFormat]) -> crate::report::rustc_json::Style {
    crate::report::rustc_json::Style {
        short: values.contains(&MessageFormat::JsonDiagnosticShort),
        ansi: values.contains(&MessageFormat::JsonDiagnosticRenderedAnsi),
        render_diagnostics: values.contains(&MessageFormat::JsonRenderDiagnostics),
    }
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Format {
        match arg {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Short => Format::Short,
            FormatArg::Sarif => Format::Sarif,
            FormatArg::Github => Format::Github,
            FormatArg::RustcJson => Format::RustcJson(Default::default()),
        }
    }
}

/// `merge --format`: the formats shards can be merged in.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum MergeFormatArg {
    /// Versioned JSON.
    Json,
    /// SARIF 2.1.0.
    Sarif,
}

impl From<MergeFormatArg> for MergeFormat {
    fn from(arg: MergeFormatArg) -> MergeFormat {
        match arg {
            MergeFormatArg::Json => MergeFormat::Json,
            MergeFormatArg::Sarif => MergeFormat::Sarif,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ListFormat {
    Text,
    Json,
}

/// `--confidence`: the least certain findings shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ConfidenceArg {
    /// Only findings whose whole path from source to sink is a flow.
    Certain,
    /// Also findings whose source is known only by a name.
    Possible,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
struct LintArgs {
    /// Files and directories to lint (default: the current directory).
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
    /// cargo's spelling, for editors: `json` (and every `json-*` variant
    /// cargo accepts) is `--format rustc-json`; `short`, `human` as named.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        value_name = "FMT",
        conflicts_with = "format"
    )]
    message_format: Vec<MessageFormat>,
    /// Write the report to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Only report these codes or names (comma separated; prefixes like IDEM00 allowed).
    #[arg(long, value_delimiter = ',', value_name = "CODE")]
    select: Vec<String>,
    /// Never report these codes or names (comma separated).
    #[arg(long, value_delimiter = ',', value_name = "CODE")]
    ignore: Vec<String>,
    /// Exit 0 even when errors are found.
    #[arg(long)]
    exit_zero: bool,
    /// When to use colours (NO_COLOR is honoured in auto mode).
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    jobs: usize,
    /// Print only the findings, no summary line.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Print the number of findings per rule.
    #[arg(long)]
    statistics: bool,
    /// Skip files larger than this many bytes (reported as IDEM000) [default: 4194304].
    #[arg(long, value_name = "BYTES")]
    max_file_size: Option<u64>,
    /// The least certain findings to report: `certain` reports only paths
    /// established by flow; `possible` adds those whose source is only a
    /// name (JSON `confidence`, SARIF `precision` medium). Wins over the
    /// configuration's `confidence` [default: certain].
    #[arg(long, value_enum, value_name = "TIER")]
    confidence: Option<ConfidenceArg>,
    /// Stop analysing one crate (or loose file) after this many seconds; it is
    /// reported as IDEM000 "analysis budget exceeded" and the run exits 2.
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    unit_time_limit: u64,
    /// Stop analysing one crate (or loose file) once its analysis holds this
    /// many megabytes; reported like --unit-time-limit.
    #[arg(long, value_name = "MB", default_value_t = 2048)]
    unit_memory_limit: usize,
    /// Skip paths: a path or prefix (`./x` too), an absolute path, a segment
    /// name, or a glob like `**/generated/**` (repeatable). Skipped files of
    /// a crate's src/ are still read as context, never reported.
    #[arg(long, value_name = "PATH")]
    exclude: Vec<String>,
    /// Use this configuration file for every path instead of discovering
    /// idem-lint.toml / Cargo.toml metadata.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Report only findings that FILE (from --write-baseline) does not list.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Record every current finding in FILE and exit 0.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    /// Parse every file instead of only those the lexical pre-filter selects
    /// (same findings, slower; IDEM000 parse errors are then reported for all files).
    #[arg(long)]
    no_prefilter: bool,
    /// Do not read or write the result cache (default location:
    /// `.idem-lint-cache` in the current directory, or `IDEM_LINT_CACHE_DIR`).
    #[arg(long)]
    no_cache: bool,
    /// Report only findings on lines changed since the merge base of REV and
    /// HEAD (committed, staged, unstaged and untracked changes; whole crates
    /// are still analysed). For pull requests: `--diff-base origin/main`.
    #[arg(long, value_name = "REV")]
    diff_base: Option<String>,
    /// Lint every member of the workspace (as `cargo idem-lint` does from
    /// the workspace root).
    #[arg(long, conflicts_with = "paths")]
    workspace: bool,
    /// Lint this workspace member's directory (repeatable).
    #[arg(
        long = "package",
        short = 'p',
        value_name = "NAME",
        conflicts_with = "paths"
    )]
    package: Vec<String>,
    /// Start from this Cargo.toml instead of the nearest one.
    #[arg(long, value_name = "PATH", conflicts_with = "paths")]
    manifest_path: Option<PathBuf>,
    /// Apply the machine-applicable suggested fixes (every scope component
    /// found in scope) to the files, then report what remains. Fixes with
    /// placeholders are never applied.
    #[arg(long)]
    fix: bool,
    /// With `-` as the path: the name of the file standard input holds
    /// (for its configuration and the paths reported), as editors send it.
    #[arg(long, value_name = "PATH")]
    stdin_filename: Option<String>,
    /// Print on stderr which configuration each path used and which Rust
    /// and SQL files were skipped, and why.
    #[arg(long, short = 'v')]
    verbose: bool,
    /// Lint only shard I of N (`I/N` or `hash:I/N`, 1-based): units (crates,
    /// loose files) are shared out by a stable hash of their path, so N CI
    /// jobs cover everything once; `idem-lint merge` joins their reports.
    #[arg(long, value_name = "I/N")]
    partition: Option<Partition>,
}

/// Runs the command line with `args` (program name first); returns the exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    run_named(args, None)
}

/// [`run`] for the `cargo-idem-lint` binary (its own name already removed
/// from `args`): help and usage say `cargo idem-lint`, as users type it,
/// instead of the executable's file name clap would take from `args[0]`.
pub fn run_cargo<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    run_named(args, Some("cargo idem-lint"))
}

fn run_named<I, T>(args: I, bin_name: Option<&'static str>) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mut command = Cli::command();
    if let Some(name) = bin_name {
        command = command.bin_name(name);
    }
    let parsed = command
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() {
                EXIT_FAILURE
            } else {
                EXIT_OK
            };
            let _ = err.print();
            return code;
        }
    };
    match cli.command {
        Some(Command::Explain { rule, color }) => explain(&rule, color),
        Some(Command::Rules { format }) => list_rules(format),
        Some(Command::Config { path, config }) => show_config(&path, config),
        Some(Command::Merge {
            files,
            format,
            output,
            exit_zero,
        }) => merge(&files, format.map(Into::into), output.as_deref(), exit_zero),
        None => lint(cli.lint, bin_name.is_some()),
    }
}

fn explain(code: &str, color: Color) -> i32 {
    match rules::find(code) {
        Some(rule) => {
            let color = use_color(color, std::io::stdout().is_terminal());
            stdout_or_failure(&report::markdown::render_rule(rule, color))
        }
        None => {
            eprintln!(
                "error: unknown rule `{code}` (`idem-lint rules` lists them){}",
                config::hint(config::suggest_rule(code))
            );
            EXIT_FAILURE
        }
    }
}

fn list_rules(format: ListFormat) -> i32 {
    let mut out = String::new();
    match format {
        ListFormat::Text => {
            for rule in rules::ALL {
                out.push_str(&format!(
                    "{}  {:<26} {:<8} {}\n",
                    rule.code,
                    rule.name,
                    config_level(rule),
                    rule.summary
                ));
            }
        }
        ListFormat::Json => {
            let list: Vec<serde_json::Value> = rules::ALL
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "code": r.code, "name": r.name,
                        "level": config_level(r), "summary": r.summary,
                    })
                })
                .collect();
            out.push_str(&format!("{}\n", serde_json::Value::Array(list)));
        }
    }
    stdout_or_failure(&out)
}

/// A rule's default level as a configuration file spells it (`warn`, not
/// `warning`), so what `rules` prints can be pasted into `[rules]`.
fn config_level(rule: &rules::Rule) -> &'static str {
    config::Level::of(Some(rule.level)).as_str()
}

/// Writes `text` to standard output. A reader that closes the pipe early
/// (`idem-lint | head`) has taken all it wants: like ripgrep and ruff, that
/// is not an error and prints nothing (Rust ignores SIGPIPE, so the write
/// returns `BrokenPipe` instead of killing the process).
fn write_stdout(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// [`write_stdout`] for output written in pieces by `write`, buffered.
fn stream_stdout(
    write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock<'static>>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// [`write_stdout`] for the subcommands: exit 0, or 2 when stdout fails
/// for another reason (a full disk) rather than panicking as `print!` does.
fn stdout_or_failure(text: &str) -> i32 {
    match write_stdout(text) {
        Ok(()) => EXIT_OK,
        Err(err) => {
            eprintln!("error: cannot write to standard output: {err}");
            EXIT_FAILURE
        }
    }
}

/// The paths to lint: those named; else, for `cargo idem-lint` or with a
/// package option, the chosen packages' directories (see
/// [`cargo_packages`]), whose nested members that were not chosen are added
/// to `args.exclude` and named on stderr; else `.`, which is also the
/// fallback when cargo or a manifest is missing and no package option asked
/// for one. `Err` is the exit code.
fn lint_paths_of(args: &mut LintArgs, cargo_mode: bool) -> Result<Vec<PathBuf>, i32> {
    if !args.paths.is_empty() {
        return Ok(args.paths.clone());
    }
    let selection = Selection {
        manifest_path: args.manifest_path.clone(),
        workspace: args.workspace,
        packages: args.package.clone(),
    };
    let here = vec![PathBuf::from(".")];
    if !cargo_mode && !selection.is_given() {
        return Ok(here);
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    match cargo_packages::lint_roots(&selection, &cwd) {
        Ok(roots) if roots.paths.is_empty() => Ok(here),
        Ok(roots) => {
            if let Some(note) = roots.skipped_note().filter(|_| !args.quiet) {
                eprintln!("note: {note}");
            }
            let skipped = roots.skipped.iter().map(|p| p.display().to_string());
            args.exclude.extend(skipped);
            Ok(roots.paths)
        }
        Err(PackagesError::NoCargo { .. } | PackagesError::NoManifest(_))
            if !selection.is_given() =>
        {
            Ok(here)
        }
        Err(err) => {
            eprintln!("error: {err}");
            Err(EXIT_FAILURE)
        }
    }
}

fn lint(mut args: LintArgs, cargo_mode: bool) -> i32 {
    if let Some(format) = message_format(&args.message_format) {
        args.format = format;
    }
    let paths = match lint_paths_of(&mut args, cargo_mode) {
        Ok(paths) => paths,
        Err(code) => return code,
    };
    for code in args.select.iter().chain(&args.ignore) {
        if rules::find(code).is_none()
            && !rules::ALL
                .iter()
                .any(|r| r.code.starts_with(&code.to_ascii_uppercase()))
        {
            eprintln!(
                "error: unknown rule `{code}` in --select/--ignore (`idem-lint rules` lists them){}",
                config::hint(config::suggest_rule(code))
            );
            return EXIT_FAILURE;
        }
    }
    let options = LintOptions {
        jobs: args.jobs,
        max_file_size: args
            .max_file_size
            .unwrap_or(crate::source::DEFAULT_MAX_FILE_SIZE),
        max_file_size_fixed: args.max_file_size.is_some(),
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        exclude: args.exclude.clone(),
        config: args
            .config
            .clone()
            .map_or(ConfigSource::Discover, ConfigSource::File),
        prefilter: !args.no_prefilter,
        confidence: match args.confidence {
            Some(ConfidenceArg::Possible) => crate::model::diagnostic::Confidence::Possible,
            Some(ConfidenceArg::Certain) | None => crate::model::diagnostic::Confidence::Certain,
        },
        confidence_fixed: args.confidence.is_some(),
        unit_limits: crate::limits::Limits {
            time: std::time::Duration::from_secs(args.unit_time_limit),
            memory: args.unit_memory_limit.saturating_mul(1 << 20),
        },
        cache_dir: (!args.no_cache).then(|| {
            std::env::var_os("IDEM_LINT_CACHE_DIR")
                .filter(|d| !d.is_empty())
                .map_or_else(|| PathBuf::from(".idem-lint-cache"), PathBuf::from)
        }),
        partition: args.partition,
        progress: crate::progress::wanted(
            Format::from(args.format).is_machine(),
            args.quiet,
            std::io::stderr().is_terminal(),
            std::env::var("TERM").ok().as_deref(),
        )
        .then(crate::progress::Progress::default),
        ..LintOptions::default()
    };
    // Read the baseline before linting: a bad one fails fast.
    let baseline = match args.baseline.as_deref().map(baseline::load).transpose() {
        Ok(baseline) => baseline,
        Err(err) => {
            eprintln!("error: {err}");
            return EXIT_FAILURE;
        }
    };
    // Ask git before linting: an unknown revision fails fast.
    let changed = match args
        .diff_base
        .as_deref()
        .map(ChangedLines::since)
        .transpose()
    {
        Ok(changed) => changed,
        Err(err) => {
            eprintln!("error: {err}");
            return EXIT_FAILURE;
        }
    };
    let from_stdin = paths.len() == 1 && paths[0].as_os_str() == "-";
    if from_stdin && args.fix {
        eprintln!("error: --fix cannot write its fixes back to standard input");
        return EXIT_FAILURE;
    }
    let linted = if from_stdin {
        lint_standard_input(args.stdin_filename.as_deref(), &options)
    } else {
        lint_paths(&paths, &options).map_err(|e| e.to_string())
    };
    let mut result = match linted {
        Ok(result) => result,
        Err(err) => {
            eprintln!("error: {err}");
            return EXIT_FAILURE;
        }
    };
    if args.verbose {
        print_verbose(&paths, &result, &args, &options);
    }
    if args.fix {
        result = match fix_and_relint(&result, &paths, &options) {
            Ok(result) => result,
            Err(err) => {
                eprintln!("error: {err}");
                return EXIT_FAILURE;
            }
        };
    }
    if let Some(file) = &args.write_baseline {
        return write_baseline(&result, file);
    }
    if let (Some(baseline), Some(file)) = (&baseline, &args.baseline) {
        let linted = result.linted.clone();
        baseline::apply(&mut result, baseline, file, &linted, |code| {
            crate::lint::enabled(code, &options)
        });
        report_stale(&result, file);
    }
    // After the baseline: its entries for unchanged lines are not stale.
    if let Some(changed) = &changed {
        changed.retain(&mut result);
    }
    // Nothing to lint is said in words, not as "0 errors in 0 files" (exit 0,
    // like ruff's "No Python files found"); JSON and SARIF still get their
    // (empty) document, for the tools that read them.
    let nothing_found = result.linted.is_empty()
        && result.fatal.is_empty()
        && result.diagnostics.is_empty()
        && result.files_analyzed == 0;
    if nothing_found {
        let shown: Vec<String> = paths
            .iter()
            .map(|p| crate::discover::display_path(p))
            .collect();
        eprintln!(
            "warning: no Rust or SQL files found in {}",
            shown.join(", ")
        );
        if !Format::from(args.format).is_machine() {
            return EXIT_OK;
        }
    }
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let color = use_color(args.color, to_terminal);
    let width = output_width(to_terminal);
    // Only named paths that failed: the error says so, a `0 errors in 0
    // files` summary before it would read as a clean run.
    let nothing_read = result.files_analyzed == 0 && !result.fatal.is_empty();
    let options = RenderOptions {
        color,
        width,
        quiet: args.quiet || nothing_read,
        statistics: args.statistics,
    };
    let format = match Format::from(args.format) {
        Format::RustcJson(_) => Format::RustcJson(rustc_style(&args.message_format)),
        other => other,
    };
    if let Format::RustcJson(style) = format {
        if style.render_diagnostics {
            // cargo's `json-render-diagnostics`: rendered on stderr.
            eprint!("{}", report::rustc_json::rendered_all(&result, style));
        }
    }
    let written = match &args.output {
        Some(path) => std::fs::File::create(path)
            .and_then(|file| {
                let mut out = std::io::BufWriter::new(file);
                report::write(&result, format, &options, &mut out)?;
                out.flush()
            })
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => stream_stdout(|out| report::write(&result, format, &options, out))
            .map_err(|e| format!("cannot write to standard output: {e}")),
    };
    if let Err(message) = written {
        eprintln!("error: {message}");
        return EXIT_FAILURE;
    }
    for warning in &result.warnings {
        eprintln!("warning: {warning}");
    }
    for problem in &result.fatal {
        eprintln!("error: {}: {}", problem.display, problem.message);
    }
    for first in &result.over_budget {
        eprintln!(
            "error: {first}: analysis budget exceeded; the findings of its crate are missing"
        );
    }
    if !result.fatal.is_empty() || !result.over_budget.is_empty() {
        EXIT_FAILURE
    } else if result.has_errors() && !args.exit_zero {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}

/// `-`: standard input, linted as `--stdin-filename` (default `-`).
fn lint_standard_input(name: Option<&str>, options: &LintOptions) -> Result<LintResult, String> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    crate::lint::lint_stdin(name.unwrap_or("-"), &bytes, options).map_err(|e| e.to_string())
}

/// `--verbose`: the configuration of each path and the files skipped.
fn print_verbose(paths: &[PathBuf], result: &LintResult, args: &LintArgs, options: &LintOptions) {
    let named: Vec<PathBuf> = match (&args.stdin_filename, paths) {
        (Some(name), [only]) if only.as_os_str() == "-" => vec![PathBuf::from(name)],
        _ => paths.to_vec(),
    };
    if let Ok(mut resolver) = Resolver::new(&options.config, &options.vocab) {
        for path in &named {
            if let Ok(settings) = resolver.for_path(path) {
                eprintln!("{}", crate::verbose::config_line(path, &settings));
            }
        }
    }
    for line in crate::verbose::skipped_lines(&named, &result.linted, &options.exclude) {
        eprintln!("{line}");
    }
}

/// `--fix`: writes the machine-applicable fixes, says how many on stderr,
/// and lints again so the report shows what remains.
fn fix_and_relint(
    result: &LintResult,
    paths: &[PathBuf],
    options: &LintOptions,
) -> Result<LintResult, String> {
    let done = crate::fix::apply(&result.diagnostics, std::path::Path::new("."))
        .map_err(|e| e.to_string())?;
    eprintln!(
        "fixed: {} applied, {} skipped (overlapping another fix)",
        done.applied, done.skipped
    );
    let after = lint_paths(paths, options).map_err(|e| e.to_string())?;
    let hand = crate::fix::NeedsHand::of(&after.diagnostics);
    if hand.total() > 0 {
        eprintln!("note: {hand}");
    }
    Ok(after)
}

/// Whether to colour output: `auto` asks the terminal and the environment
/// (`NO_COLOR`, `CLICOLOR_FORCE`, `TERM=dumb`: [`crate::terminal`]).
fn use_color(color: Color, to_terminal: bool) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => crate::terminal::auto_color(to_terminal, &crate::terminal::Env::current()),
    }
}

/// `idem-lint merge`: exit 2 when the shards do not fit together, else
/// 1 when the merged report has errors (unless `exit_zero`), else 0.
fn merge(
    files: &[PathBuf],
    format: Option<MergeFormat>,
    output: Option<&std::path::Path>,
    exit_zero: bool,
) -> i32 {
    let merged = files
        .iter()
        .map(Shard::read)
        .collect::<Result<Vec<_>, _>>()
        .and_then(|shards| crate::merge::merge(&shards, format));
    let merged = match merged {
        Ok(merged) => merged,
        Err(err) => {
            eprintln!("error: {err}");
            return EXIT_FAILURE;
        }
    };
    let written = match output {
        Some(path) => std::fs::write(path, merged.text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            write_stdout(&merged.text).map_err(|e| format!("cannot write to standard output: {e}"))
        }
    };
    match written {
        Err(message) => {
            eprintln!("error: {message}");
            EXIT_FAILURE
        }
        Ok(()) if merged.has_errors && !exit_zero => EXIT_FINDINGS,
        Ok(()) => EXIT_OK,
    }
}

fn show_config(path: &std::path::Path, file: Option<PathBuf>) -> i32 {
    let source = file.map_or(ConfigSource::Discover, ConfigSource::File);
    let settings = Resolver::new(&source, &crate::analysis::vocab::Vocabulary::default()).and_then(
        |mut resolver| {
            let settings = resolver.for_path(path);
            for warning in resolver.take_warnings() {
                eprintln!("warning: {warning}");
            }
            settings
        },
    );
    match settings {
        Ok(settings) => stdout_or_failure(&config::show(
            &settings,
            path,
            crate::source::DEFAULT_MAX_FILE_SIZE,
        )),
        Err(err) => {
            eprintln!("error: {err}");
            EXIT_FAILURE
        }
    }
}

fn write_baseline(result: &LintResult, file: &std::path::Path) -> i32 {
    for problem in &result.fatal {
        eprintln!("error: {}: {}", problem.display, problem.message);
    }
    if !result.fatal.is_empty() {
        eprintln!("error: baseline not written: some paths could not be linted");
        return EXIT_FAILURE;
    }
    match baseline::write(result, file) {
        Ok(written) => {
            eprintln!(
                "wrote {} finding{} ({} entr{}) to {}",
                result.diagnostics.len(),
                if result.diagnostics.len() == 1 {
                    ""
                } else {
                    "s"
                },
                written.entries.len(),
                if written.entries.len() == 1 {
                    "y"
                } else {
                    "ies"
                },
                file.display()
            );
            EXIT_OK
        }
        Err(err) => {
            eprintln!("error: {err}");
            EXIT_FAILURE
        }
    }
}

/// A note on stderr for baseline entries whose findings were fixed.
fn report_stale(result: &LintResult, file: &std::path::Path) {
    let Some(outcome) = &result.baseline else {
        return;
    };
    if outcome.stale.is_empty() {
        return;
    }
    let total: usize = outcome.stale.iter().map(|e| e.count).sum();
    eprintln!(
        "note: {total} baselined finding{} no longer occur{} (fixed): {} is stale; run with --write-baseline {} to drop {}",
        if total == 1 { "" } else { "s" },
        if total == 1 { "s" } else { "" },
        file.display(),
        file.display(),
        if total == 1 { "it" } else { "them" },
    );
    for entry in &outcome.stale {
        let item = if entry.identity.item.is_empty() {
            String::new()
        } else {
            format!(" in `{}`", entry.identity.item)
        };
        eprintln!(
            "  {} {}{item} ({} {})",
            entry.identity.path, entry.identity.code, entry.count, entry.name
        );
    }
}

/// The width human output wraps at: `COLUMNS` when set, else the terminal's
/// width on a terminal; output to a file or pipe (CI logs, `| less`) is not
/// wrapped at all, so long lines stay whole for the viewer to wrap.
fn output_width(to_terminal: bool) -> usize {
    if let Some(columns) = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()) {
        return columns;
    }
    if !to_terminal {
        return report::NO_WRAP;
    }
    terminal_size::terminal_size().map_or(100, |(width, _)| usize::from(width.0))
}
