//! The command line: argument parsing and exit codes. `main.rs` and the
//! `cargo idem-lint` binary are thin wrappers around [`run`].

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::lint::{lint_paths, LintOptions};
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
    },
    /// List every rule with its code, name and default level.
    Rules {
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Text)]
        format: ListFormat,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ListFormat {
    Text,
    Json,
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
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
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
    /// Skip files larger than this many bytes (reported as IDEM000).
    #[arg(long, value_name = "BYTES", default_value_t = crate::source::DEFAULT_MAX_FILE_SIZE)]
    max_file_size: u64,
    /// Skip paths containing this segment or prefix (repeatable).
    #[arg(long, value_name = "PATH")]
    exclude: Vec<String>,
    /// Parse every file instead of only those the lexical pre-filter selects
    /// (same findings, slower; IDEM000 parse errors are then reported for all files).
    #[arg(long)]
    no_prefilter: bool,
    /// Do not read or write the result cache (default location:
    /// `.idem-lint-cache` in the current directory, or `IDEM_LINT_CACHE_DIR`).
    #[arg(long)]
    no_cache: bool,
}

/// Runs the command line with `args` (program name first); returns the exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
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
        Some(Command::Explain { rule }) => explain(&rule),
        Some(Command::Rules { format }) => list_rules(format),
        None => lint(cli.lint),
    }
}

fn explain(code: &str) -> i32 {
    match rules::find(code) {
        Some(rule) => {
            println!(
                "{} ({}) — default level: {}\n",
                rule.name, rule.code, rule.level
            );
            println!("{}", rule.body());
            EXIT_OK
        }
        None => {
            eprintln!("error: unknown rule `{code}`; `idem-lint rules` lists them");
            EXIT_FAILURE
        }
    }
}

fn list_rules(format: ListFormat) -> i32 {
    match format {
        ListFormat::Text => {
            for rule in rules::ALL {
                println!(
                    "{}  {:<26} {:<8} {}",
                    rule.code,
                    rule.name,
                    rule.level.to_string(),
                    rule.summary
                );
            }
        }
        ListFormat::Json => {
            let list: Vec<serde_json::Value> = rules::ALL
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "code": r.code, "name": r.name,
                        "level": r.level.to_string(), "summary": r.summary,
                    })
                })
                .collect();
            println!("{}", serde_json::Value::Array(list));
        }
    }
    EXIT_OK
}

fn lint(args: LintArgs) -> i32 {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    for code in args.select.iter().chain(&args.ignore) {
        if rules::find(code).is_none()
            && !rules::ALL
                .iter()
                .any(|r| r.code.starts_with(&code.to_ascii_uppercase()))
        {
            eprintln!(
                "error: unknown rule `{code}` in --select/--ignore; `idem-lint rules` lists them"
            );
            return EXIT_FAILURE;
        }
    }
    let options = LintOptions {
        jobs: args.jobs,
        max_file_size: args.max_file_size,
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        exclude: args.exclude.clone(),
        prefilter: !args.no_prefilter,
        cache_dir: (!args.no_cache).then(|| {
            std::env::var_os("IDEM_LINT_CACHE_DIR")
                .filter(|d| !d.is_empty())
                .map_or_else(|| PathBuf::from(".idem-lint-cache"), PathBuf::from)
        }),
        ..LintOptions::default()
    };
    let result = match lint_paths(&paths, &options) {
        Ok(result) => result,
        Err(err) => {
            eprintln!("error: {err}");
            return EXIT_FAILURE;
        }
    };
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => to_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    };
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100);
    let rendered = report::render(
        &result,
        args.format,
        &RenderOptions {
            color,
            width,
            quiet: args.quiet,
            statistics: args.statistics,
        },
    );
    let written = match &args.output {
        Some(path) => std::fs::write(path, rendered.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => std::io::stdout()
            .lock()
            .write_all(rendered.as_bytes())
            .map_err(|e| format!("cannot write to standard output: {e}")),
    };
    if let Err(message) = written {
        eprintln!("error: {message}");
        return EXIT_FAILURE;
    }
    for problem in &result.fatal {
        eprintln!("error: {}: {}", problem.display, problem.message);
    }
    if !result.fatal.is_empty() {
        EXIT_FAILURE
    } else if result.has_errors() && !args.exit_zero {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}
