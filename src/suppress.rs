//! Suppression comments, applied after the rules and before levels and sorting:
//!
//! - `// idem-lint: allow(IDEM001, missing-scope-component) -- reason` on the
//!   offending line, or alone on the line above it (further comment-only lines
//!   may sit in between, so suppressions stack);
//! - `// idem-lint: allow-file(IDEM005) -- reason` anywhere in the file.
//!
//! In SQL files the comment starts with `--`. A suppression that suppresses
//! nothing is reported as IDEM900, one without a reason as IDEM901.
//!
//! syn drops comments, so they are found by a small lexer over the file text
//! that skips string, raw string, character and block-comment contents: text
//! that merely looks like a suppression inside a literal is not one. Doc
//! comments (`///`, `//!`) are documentation, never suppressions.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Position, Span};
use crate::rules::{self, suppression_without_reason, unused_suppression, Rule};

/// What a suppression covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Diagnostics whose primary span includes this line.
    Line(usize),
    /// The whole file.
    File,
}

/// One rule named in a suppression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// As written.
    pub text: String,
    /// The rule's code, when the text names a rule.
    pub code: Option<&'static str>,
}

/// A parsed `idem-lint:` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    /// What it covers.
    pub scope: Scope,
    /// The rules it names (empty when malformed).
    pub rules: Vec<Named>,
    /// The text after `--`, when present and not empty.
    pub reason: Option<String>,
    /// The comment, up to a following `//` comment (such as a `//~` marker).
    pub span: Span,
    /// Why the comment is not a valid suppression, if it is not.
    pub malformed: Option<String>,
}

/// A line comment found in source text.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Comment {
    line: usize,
    /// Column of the comment opener (`//` or `--`).
    column: usize,
    /// The text after the opener.
    body: String,
    /// Nothing but whitespace precedes it on its line.
    own_line: bool,
    /// `///` or `//!`.
    doc: bool,
}

/// Which lexer to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// Rust: `//` comments.
    Rust,
    /// SQL: `--` comments.
    Sql,
}

impl Language {
    /// The language of a display path (`.sql` is SQL, everything else Rust,
    /// as in discovery).
    pub fn of_path(path: &str) -> Language {
        if path.to_ascii_lowercase().ends_with(".sql") {
            Language::Sql
        } else {
            Language::Rust
        }
    }
}

struct Lexer {
    chars: Vec<char>,
    i: usize,
    line: usize,
    column: usize,
    line_has_code: bool,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.i + ahead).copied()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek(0) {
            self.i += 1;
            if c == '\n' {
                self.line += 1;
                self.column = 1;
                self.line_has_code = false;
            } else {
                self.column += 1;
            }
        }
    }

    /// Skips to the end of the line and returns what was skipped.
    fn rest_of_line(&mut self) -> String {
        let mut text = String::new();
        while let Some(c) = self.peek(0) {
            if c == '\n' {
                break;
            }
            text.push(c);
            self.bump();
        }
        text
    }

    /// Skips a `/* */` comment, nested as in Rust when `nested`.
    fn block_comment(&mut self, nested: bool) {
        self.bump();
        self.bump();
        let mut depth = 1;
        while depth > 0 {
            match (self.peek(0), self.peek(1)) {
                (None, _) => return,
                (Some('*'), Some('/')) => {
                    self.bump();
                    self.bump();
                    depth -= 1;
                }
                (Some('/'), Some('*')) if nested => {
                    self.bump();
                    self.bump();
                    depth += 1;
                }
                _ => self.bump(),
            }
        }
    }

    /// Skips a quoted literal opened by `quote` at the current position;
    /// `escapes` says whether backslash escapes the next character, `doubled`
    /// whether a doubled quote stands for itself (SQL).
    fn quoted(&mut self, quote: char, escapes: bool, doubled: bool) {
        self.bump();
        while let Some(c) = self.peek(0) {
            if escapes && c == '\\' {
                self.bump();
                self.bump();
                continue;
            }
            if c == quote {
                self.bump();
                if doubled && self.peek(0) == Some(quote) {
                    self.bump();
                    continue;
                }
                break;
            }
            self.bump();
        }
        self.line_has_code = true;
    }

    /// Skips `r#"…"#` with `hashes` hashes; the position is on the `r`.
    fn raw_string(&mut self, hashes: usize) {
        for _ in 0..hashes + 2 {
            self.bump();
        }
        while let Some(c) = self.peek(0) {
            self.bump();
            if c == '"' && (0..hashes).all(|k| self.peek(k) == Some('#')) {
                for _ in 0..hashes {
                    self.bump();
                }
                break;
            }
        }
        self.line_has_code = true;
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The line comments of `text`, skipping literal and block-comment contents.
fn comments(text: &str, language: Language) -> Vec<Comment> {
    let mut lx = Lexer {
        chars: text.chars().collect(),
        i: 0,
        line: 1,
        column: 1,
        line_has_code: false,
    };
    let mut out = Vec::new();
    while let Some(c) = lx.peek(0) {
        let next = lx.peek(1);
        let opener = match language {
            Language::Rust => c == '/' && next == Some('/'),
            Language::Sql => c == '-' && next == Some('-'),
        };
        if opener {
            let (line, column, own_line) = (lx.line, lx.column, !lx.line_has_code);
            lx.bump();
            lx.bump();
            let body = lx.rest_of_line();
            let doc = language == Language::Rust
                && (body.starts_with('!') || (body.starts_with('/') && !body.starts_with("//")));
            out.push(Comment {
                line,
                column,
                body,
                own_line,
                doc,
            });
            continue;
        }
        if c == '/' && next == Some('*') {
            lx.block_comment(language == Language::Rust);
            continue;
        }
        if c.is_whitespace() {
            lx.bump();
            continue;
        }
        match (language, c) {
            (Language::Rust, '"') => lx.quoted('"', true, false),
            (Language::Rust, '\'') => {
                // A character literal, or a lifetime / label such as `'a`.
                if next == Some('\\') {
                    lx.quoted('\'', true, false);
                } else if lx.peek(2) == Some('\'') {
                    lx.bump();
                    lx.bump();
                    lx.bump();
                    lx.line_has_code = true;
                } else {
                    lx.bump();
                    lx.line_has_code = true;
                }
            }
            (Language::Rust, c) if is_ident_char(c) => {
                let start = lx.i;
                while lx.peek(0).is_some_and(is_ident_char) {
                    lx.bump();
                }
                lx.line_has_code = true;
                let ident: String = lx.chars[start..lx.i].iter().collect();
                match (ident.as_str(), lx.peek(0)) {
                    ("r" | "br" | "cr", Some('"' | '#')) => {
                        let mut hashes = 0;
                        while lx.peek(hashes) == Some('#') {
                            hashes += 1;
                        }
                        if lx.peek(hashes) == Some('"') {
                            // `raw_string` expects to sit on the `r`: step back one.
                            lx.i -= 1;
                            lx.column -= 1;
                            lx.raw_string(hashes);
                        }
                    }
                    ("b" | "c", Some('"')) => lx.quoted('"', true, false),
                    ("b", Some('\'')) => lx.quoted('\'', true, false),
                    _ => {}
                }
            }
            (Language::Sql, '\'') => lx.quoted('\'', false, true),
            (Language::Sql, '"') => lx.quoted('"', false, true),
            _ => {
                lx.bump();
                lx.line_has_code = true;
            }
        }
    }
    out
}

/// Parses one comment; `None` when it is not an `idem-lint:` comment.
fn parse(
    comment: &Comment,
    language: Language,
    own_line_comments: &BTreeSet<usize>,
) -> Option<Suppression> {
    if comment.doc {
        return None;
    }
    let lead = comment.body.len() - comment.body.trim_start().len();
    let body = comment.body.trim_start();
    // A later comment (a `//~` fixture marker, a note) is not part of this one.
    let stop = match language {
        Language::Rust => "//",
        Language::Sql => "--~",
    };
    let end = body
        .match_indices(stop)
        .map(|(at, _)| at)
        .find(|&at| body[..at].ends_with(char::is_whitespace))
        .unwrap_or(body.len());
    let text = body[..end].trim_end();
    let rest = strip_prefix_ignore_case(text, "idem-lint:")?;
    let width = 2 + lead + text.chars().count();
    let span = Span {
        start: Position {
            line: comment.line,
            column: comment.column,
        },
        end: Position {
            line: comment.line,
            column: comment.column + width,
        },
    };
    let rest = rest.trim_start();
    let (scope, after) = if let Some(after) = strip_prefix_ignore_case(rest, "allow-file") {
        (Scope::File, after)
    } else if let Some(after) = strip_prefix_ignore_case(rest, "allow") {
        let target = if comment.own_line {
            // Alone on its line: it covers the next line that is not itself a comment.
            let mut line = comment.line + 1;
            while own_line_comments.contains(&line) {
                line += 1;
            }
            line
        } else {
            comment.line
        };
        (Scope::Line(target), after)
    } else {
        return Some(malformed(
            span,
            "expected `allow(CODE, ..)` or `allow-file(CODE, ..)` after `idem-lint:`",
        ));
    };
    let Some(inner) = after.trim_start().strip_prefix('(') else {
        return Some(malformed(
            span,
            "expected `(` and a list of rule codes or names",
        ));
    };
    let Some((list, tail)) = inner.split_once(')') else {
        return Some(malformed(span, "the list of rules is not closed with `)`"));
    };
    let rules: Vec<Named> = list
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| Named {
            text: t.to_string(),
            code: rules::find(t).map(|r| r.code),
        })
        .collect();
    if rules.is_empty() {
        return Some(malformed(span, "the list of rules is empty"));
    }
    let reason = tail
        .trim_start()
        .strip_prefix("--")
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string);
    Some(Suppression {
        scope,
        rules,
        reason,
        span,
        malformed: None,
    })
}

fn malformed(span: Span, why: &str) -> Suppression {
    Suppression {
        scope: Scope::File,
        rules: Vec::new(),
        reason: None,
        span,
        malformed: Some(why.to_string()),
    }
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// Every suppression comment in `text`.
pub fn find(text: &str, language: Language) -> Vec<Suppression> {
    let found = comments(text, language);
    let own_line: BTreeSet<usize> = found
        .iter()
        .filter(|c| c.own_line)
        .map(|c| c.line)
        .collect();
    found
        .iter()
        .filter_map(|c| parse(c, language, &own_line))
        .collect()
}

fn covers(s: &Suppression, d: &Diagnostic) -> bool {
    let names = s.rules.iter().any(|n| n.code == Some(d.code));
    names
        && match s.scope {
            Scope::File => true,
            Scope::Line(line) => d.span.contains_line(line),
        }
}

fn is_meta(code: &str) -> bool {
    code == unused_suppression::RULE.code || code == suppression_without_reason::RULE.code
}

/// Removes suppressed findings from `diagnostics` and adds IDEM900/IDEM901
/// for the suppression comments of `sources`. Files that could not be
/// analysed (with an IDEM000 finding) get no IDEM900: their rules never ran.
pub fn apply(diagnostics: &mut Vec<Diagnostic>, sources: &BTreeMap<String, Arc<String>>) {
    let unanalysed: BTreeSet<String> = diagnostics
        .iter()
        .filter(|d| d.code == rules::parse_error::RULE.code)
        .map(|d| d.path.clone())
        .collect();
    let mut by_file: BTreeMap<&str, Vec<(Suppression, Vec<bool>)>> = BTreeMap::new();
    for (path, text) in sources {
        // Most files have no suppression: skip them without lexing.
        let mentions = text
            .as_bytes()
            .windows(10)
            .any(|w| w.eq_ignore_ascii_case(b"idem-lint:"));
        if !mentions {
            continue;
        }
        let found = find(text, Language::of_path(path));
        if !found.is_empty() {
            by_file.insert(
                path.as_str(),
                found
                    .into_iter()
                    .map(|s| {
                        let used = vec![false; s.rules.len()];
                        (s, used)
                    })
                    .collect(),
            );
        }
    }
    if by_file.is_empty() {
        return;
    }
    let suppress = |d: &Diagnostic, by_file: &mut BTreeMap<&str, Vec<(Suppression, Vec<bool>)>>| {
        let Some(list) = by_file.get_mut(d.path.as_str()) else {
            return false;
        };
        let mut hit = false;
        for (s, used) in list.iter_mut() {
            if covers(s, d) {
                hit = true;
                for (named, flag) in s.rules.iter().zip(used.iter_mut()) {
                    if named.code == Some(d.code) {
                        *flag = true;
                    }
                }
            }
        }
        hit
    };
    diagnostics.retain(|d| !suppress(d, &mut by_file));
    let mut meta = Vec::new();
    for (path, list) in &by_file {
        for (s, used) in list {
            if let Some(why) = &s.malformed {
                meta.push(diagnostic(
                    &unused_suppression::RULE,
                    path,
                    s.span,
                    format!("malformed suppression comment suppresses nothing: {why}"),
                    "write `// idem-lint: allow(IDEM001) -- reason` on the line or the line above, or `// idem-lint: allow-file(IDEM001) -- reason`",
                ));
                continue;
            }
            let unknown: Vec<&str> = s
                .rules
                .iter()
                .filter(|n| n.code.is_none())
                .map(|n| n.text.as_str())
                .collect();
            let unused: Vec<String> = if unanalysed.contains(*path) {
                Vec::new()
            } else {
                s.rules
                    .iter()
                    .zip(used)
                    .filter(|(n, used)| !**used && n.code.is_some_and(|c| !is_meta(c)))
                    .map(|(n, _)| n.text.clone())
                    .collect()
            };
            if !unknown.is_empty() {
                meta.push(diagnostic(
                    &unused_suppression::RULE,
                    path,
                    s.span,
                    format!(
                        "suppression names unknown rule{} {}",
                        if unknown.len() == 1 { "" } else { "s" },
                        quoted_list(&unknown)
                    ),
                    "`idem-lint rules` lists the rule codes and names",
                ));
            }
            if !unused.is_empty() {
                let unused: Vec<&str> = unused.iter().map(String::as_str).collect();
                let place = match s.scope {
                    Scope::File => "in this file".to_string(),
                    Scope::Line(line) => format!("on line {line}"),
                };
                meta.push(diagnostic(
                    &unused_suppression::RULE,
                    path,
                    s.span,
                    format!(
                        "unused suppression: no {} finding {place}",
                        quoted_list(&unused)
                    ),
                    "remove the suppression (or the rules it no longer needs)",
                ));
            }
            if s.reason.is_none() {
                meta.push(diagnostic(
                    &suppression_without_reason::RULE,
                    path,
                    s.span,
                    "suppression without a reason".to_string(),
                    "say why after ` -- `: `// idem-lint: allow(IDEM001) -- keys are scoped upstream by the gateway`",
                ));
            }
        }
    }
    // Suppressions of IDEM900/IDEM901 themselves.
    meta.retain(|d| !suppress(d, &mut by_file));
    diagnostics.extend(meta);
}

/// `a`, `a or b`, `a, b or c`, quoted.
fn quoted_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    match quoted.as_slice() {
        [init @ .., last] if !init.is_empty() => format!("{} or {last}", init.join(", ")),
        _ => quoted.join(""),
    }
}

fn diagnostic(rule: &Rule, path: &str, span: Span, message: String, help: &str) -> Diagnostic {
    Diagnostic {
        code: rule.code,
        name: rule.name,
        severity: rule.level,
        message,
        path: path.to_string(),
        span,
        labels: Vec::new(),
        help: Some(help.to_string()),
        fix: None,
        confidence: crate::model::diagnostic::Confidence::Certain,
        trace: crate::model::diagnostic::TraceStep::here(path, span),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rust(text: &str) -> Vec<Suppression> {
        find(text, Language::Rust)
    }

    #[test]
    fn trailing_and_own_line() {
        let s = rust("let a = 1; // idem-lint: allow(IDEM001) -- ok\n// idem-lint: allow(adhoc-key-concat, IDEM002) -- ok\n// other\nlet b = 2;\n");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].scope, Scope::Line(1));
        assert_eq!(s[1].scope, Scope::Line(4));
        assert_eq!(s[1].rules.len(), 2);
        assert_eq!(s[1].rules[0].code, Some("IDEM001"));
        assert_eq!(s[0].reason.as_deref(), Some("ok"));
    }

    #[test]
    fn literals_and_doc_comments_are_not_suppressions() {
        let text = concat!(
            "let s = \"// idem-lint: allow(IDEM001)\";\n",
            "let r = r#\"\n// idem-lint: allow(IDEM001)\n\"#;\n",
            "/// // idem-lint: allow(IDEM001)\n",
            "/* // idem-lint: allow(IDEM001) /* nested */ // idem-lint: allow(IDEM001) */\n",
            "let c = '\"'; let l: &'static str = \"x\";\n",
            "// see the idem-lint: allow syntax\n",
        );
        assert!(rust(text).is_empty(), "{:?}", rust(text));
    }

    #[test]
    fn marker_after_the_reason_is_not_part_of_it() {
        let s =
            rust("x(); // idem-lint: allow(IDEM001) -- legacy, see https://x.y/z //~ IDEM900\n");
        assert_eq!(s[0].reason.as_deref(), Some("legacy, see https://x.y/z"));
        assert_eq!(s[0].span.start.column, 6);
        let s = rust("x(); // idem-lint: allow(IDEM001) //~ IDEM901\n");
        assert_eq!(s[0].reason, None);
    }

    #[test]
    fn sql_comments() {
        let s = find(
            "select '-- idem-lint: allow(IDEM008)';\n-- idem-lint: allow-file(IDEM008) -- legacy table\n",
            Language::Sql,
        );
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].scope, Scope::File);
    }

    #[test]
    fn malformed_is_kept() {
        let s = rust("// idem-lint: allow IDEM001\n");
        assert!(s[0].malformed.is_some());
    }
}
