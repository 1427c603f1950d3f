//! Statements of a SQL text: where they end (`;`, batch separator lines
//! such as SQL Server's `GO`, MySQL's `#` comments), where their DDL starts behind a guard,
//! the SQL Server words no dialect parses, and parsing one in the dialect
//! that reads it.

use sqlparser::ast::Statement;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer, Whitespace};

use super::is_trivia;

/// Splits at top-level `;` (the tokenizer already keeps `;` inside strings,
/// comments and dollar-quoted bodies) and at a batch separator on a line of
/// its own (`GO`, `/`, `//`).
///
/// Where every parenthesis closes, "top-level" also means outside
/// parentheses, and a `CREATE` first on its line there starts a
/// statement (not `ALTER`, which also starts a clause of `ALTER TABLE`): no dialect has a `;` inside a column list or one statement
/// beginning another, while a dialect that continues lines with `;` or
/// ends statements with nothing (Visual FoxPro's `CREATE TABLE t ( ;`)
/// has both. Unbalanced parentheses (a typo) keep the plain split.
pub(super) fn split_statements(tokens: &[TokenWithSpan]) -> Vec<&[TokenWithSpan]> {
    let depths = paren_depths(tokens);
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..tokens.len() {
        let top = depths.as_ref().is_none_or(|d| d[i] == 0);
        let ends = match tokens[i].token {
            Token::EOF => true,
            Token::SemiColon => top,
            _ => is_batch_separator(tokens, i),
        };
        if ends {
            out.push(&tokens[start..i]);
            start = i + 1;
        } else if depths.is_some() && top && i > start && starts_statement_line(tokens, i) {
            let before = &tokens[start..i];
            if before.iter().any(|t| !is_trivia(&t.token)) {
                out.push(before);
                start = i;
            }
        }
    }
    out.push(&tokens[start..]);
    out.retain(|s| s.iter().any(|t| !is_trivia(&t.token)));
    out
}

/// The parenthesis depth before each token; `None` where the parentheses
/// do not balance (one closes that never opened, or one never closes).
fn paren_depths(tokens: &[TokenWithSpan]) -> Option<Vec<u32>> {
    let mut depth = 0u32;
    let mut out = Vec::with_capacity(tokens.len());
    for t in tokens {
        out.push(depth);
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.checked_sub(1)?,
            _ => {}
        }
    }
    (depth == 0).then_some(out)
}

/// A `CREATE` that is the first word on its line.
fn starts_statement_line(tokens: &[TokenWithSpan], i: usize) -> bool {
    let ddl = matches!(&tokens[i].token, Token::Word(w) if w.quote_style.is_none()
        && w.value.eq_ignore_ascii_case("create"));
    ddl && first_on_line(tokens, i)
}

/// Whether only spaces and tabs stand between token `i` and the start of
/// its line (a line comment's token holds its line's end).
fn first_on_line(tokens: &[TokenWithSpan], i: usize) -> bool {
    tokens[..i]
        .iter()
        .rev()
        .find(|t| !is_blank(t))
        .is_none_or(|t| {
            matches!(
                &t.token,
                Token::Whitespace(Whitespace::Newline | Whitespace::SingleLineComment { .. })
            )
        })
}

/// A space or a tab.
fn is_blank(t: &TokenWithSpan) -> bool {
    matches!(
        t.token,
        Token::Whitespace(Whitespace::Space | Whitespace::Tab)
    )
}

/// A text no tokenizer reads (Visual FoxPro's `*` comment lines, whose
/// prose may hold an apostrophe): the line of each complaint blanked,
/// character for character so that positions hold, until `tokenize`
/// accepts it; `None` when it still fails after a few lines, or when a
/// line to blank holds a word of what IDEM008 reads (`CREATE`, `KEY`,
/// `UNIQUE`, ..): that line is skipped with a note instead of dropped.
pub(super) fn blank_unreadable_lines(
    text: &str,
    tokenize: impl Fn(&str) -> Result<Vec<TokenWithSpan>, sqlparser::tokenizer::TokenizerError>,
) -> Option<(String, Vec<TokenWithSpan>)> {
    const MAX_BLANKED: usize = 16;
    let mut text = text.to_string();
    for _ in 0..MAX_BLANKED {
        let line = match tokenize(&text) {
            Ok(tokens) => return Some((text, tokens)),
            Err(err) => err.location.line,
        };
        let index = usize::try_from(line).ok()?.checked_sub(1)?;
        let mut blanked = false;
        text = text
            .split_inclusive('\n')
            .enumerate()
            .map(|(n, l)| {
                if n != index || l.trim().is_empty() || holds_ddl_word(l) {
                    return l.to_string();
                }
                blanked = true;
                l.chars()
                    .map(|c| if c == '\n' || c == '\r' { c } else { ' ' })
                    .collect()
            })
            .collect();
        if !blanked {
            return None;
        }
    }
    None
}

/// Whether a line holds a word of a key's definition.
fn holds_ddl_word(line: &str) -> bool {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| {
            [
                "create",
                "alter",
                "primary",
                "unique",
                "key",
                "index",
                "constraint",
            ]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k))
        })
}

/// SQL Server's `CLUSTERED`/`NONCLUSTERED` after `UNIQUE` or `KEY` blanked
/// (same length, so positions hold): no dialect parses `CREATE UNIQUE
/// NONCLUSTERED INDEX`, and the kind of index says nothing of its columns.
pub(super) fn without_index_kind(text: &str) -> std::borrow::Cow<'_, str> {
    let upper = text.to_ascii_uppercase();
    if !upper.contains("CLUSTERED") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    let mut previous = "";
    let bytes = upper.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let end = (bytes[at..].iter())
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .map_or(bytes.len(), |n| at + n);
        if end == at {
            at += 1;
            continue;
        }
        let word = &upper[at..end];
        if matches!(word, "CLUSTERED" | "NONCLUSTERED") && matches!(previous, "UNIQUE" | "KEY") {
            out.replace_range(at..end, &" ".repeat(end - at));
        }
        previous = word;
        at = end;
    }
    std::borrow::Cow::Owned(out)
}

/// A statement's syntax trees and the tokens they were parsed from.
pub(super) type Parsed = (Vec<Statement>, Vec<TokenWithSpan>);

/// A statement parsed by the first dialect that reads it, with its
/// tokens (tried on the statement, then on `columns`, an index's text
/// through its column list); else the error of the dialect that read the
/// most of it.
pub(super) fn parse_statement(
    dialects: &super::Dialects,
    text: &str,
    columns: Option<&str>,
) -> (Option<Parsed>, String) {
    let mut first_error: Option<((u64, u64), String)> = None;
    let texts: Vec<_> = std::iter::once(text)
        .chain(columns.filter(|c| c.len() < text.len()))
        .map(without_index_kind)
        .collect();
    let attempts = texts
        .iter()
        .flat_map(|t| dialects.iter().map(move |d| (d, t)));
    for ((name, dialect), parse_text) in attempts {
        let Ok(tokens) = Tokenizer::new(dialect.as_ref(), parse_text).tokenize_with_location()
        else {
            continue;
        };
        match Parser::new(dialect.as_ref())
            .with_tokens_with_locations(tokens.clone())
            .parse_statements()
        {
            Ok(statements) => return (Some((statements, tokens)), String::new()),
            Err(err) => {
                let message = err.to_string();
                let at = super::error_location(&message);
                if first_error.as_ref().is_none_or(|(best, _)| at > *best) {
                    first_error = Some((at, format!("{name}: {}", super::clean_error(&message))));
                }
            }
        }
    }
    (None, first_error.map(|(_, e)| e).unwrap_or_default())
}

/// Where a statement's first parenthesised group closes (an index's column
/// list), by its tokens: a parenthesis in a string or a comment is none.
pub(super) fn first_group_end(tokens: &[TokenWithSpan]) -> Option<Location> {
    let open = tokens.iter().position(|t| t.token == Token::LParen)?;
    let mut depth = 0usize;
    for t in &tokens[open..] {
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen => {
                depth -= 1;
                if depth == 0 {
                    return Some(t.span.end);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether a line starts with MySQL's `#` comment (no other dialect starts
/// a line of SQL with `#`).
pub(super) fn hash_comments(text: &str) -> bool {
    text.lines().any(|line| line.trim_start().starts_with('#'))
}

/// A batch separator alone on its line (spaces around it allowed): SQL
/// Server's `GO`, or slashes (`/` of Oracle's SQL*Plus, `//` of SAP MaxDB's
/// loader), which a tokenizer reads as division or as a `//` comment.
fn is_batch_separator(tokens: &[TokenWithSpan], i: usize) -> bool {
    let slash = |t: &TokenWithSpan| matches!(t.token, Token::Div);
    let (first, last) = match &tokens[i].token {
        Token::Word(word)
            if word.quote_style.is_none() && word.value.eq_ignore_ascii_case("GO") =>
        {
            (i, i)
        }
        // Each slash of the run (`//` is two) ends what comes before it.
        Token::Div => {
            let back = tokens[..i].iter().rev().take_while(|t| slash(t)).count();
            let ahead = tokens[i + 1..].iter().take_while(|t| slash(t)).count();
            (i - back, i + ahead)
        }
        // The comment holds its line's end.
        Token::Whitespace(Whitespace::SingleLineComment { prefix, comment })
            if prefix == "//" && comment.trim().is_empty() =>
        {
            return first_on_line(tokens, i);
        }
        _ => return false,
    };
    let after = tokens[last + 1..].iter().find(|t| !is_blank(t));
    let ends_line = |t: &TokenWithSpan| {
        matches!(
            t.token,
            Token::EOF
                | Token::Whitespace(Whitespace::Newline | Whitespace::SingleLineComment { .. })
        )
    };
    first_on_line(tokens, first) && after.is_none_or(ends_line)
}

/// A batch whose DDL runs under a guard (Sybase ASE's and SQL Server's
/// `if object_id('t') is null begin create table .. end`): the statement
/// from its `CREATE`, which the guard's `end` trails harmlessly (the
/// tolerant reading stops at the column list).
pub(super) fn past_guard(statement: &[TokenWithSpan]) -> &[TokenWithSpan] {
    let word = |t: &TokenWithSpan, w: &str| matches!(&t.token, Token::Word(word) if word.quote_style.is_none() && word.value.eq_ignore_ascii_case(w));
    let guarded = statement
        .iter()
        .find(|t| !is_trivia(&t.token))
        .is_some_and(|t| word(t, "if") || word(t, "begin"));
    if !guarded {
        return statement;
    }
    let begin = statement.iter().position(|t| word(t, "begin"));
    let create = begin.and_then(|b| (b..statement.len()).find(|&i| word(&statement[i], "create")));
    create.map_or(statement, |i| &statement[i..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::dialect::MsSqlDialect;
    use sqlparser::tokenizer::Tokenizer;

    fn from_guard(sql: &str) -> String {
        let tokens = Tokenizer::new(&MsSqlDialect {}, sql)
            .tokenize_with_location()
            .unwrap_or_default();
        past_guard(&tokens)
            .iter()
            .map(|t| t.token.to_string())
            .collect()
    }

    fn statements(sql: &str) -> Vec<String> {
        let tokens = Tokenizer::new(&MsSqlDialect {}, sql)
            .tokenize_with_location()
            .unwrap_or_default();
        split_statements(&tokens)
            .iter()
            .map(|s| s.iter().map(|t| t.token.to_string()).collect::<String>())
            .map(|s| s.trim().to_string())
            .collect()
    }

    #[test]
    fn continued_lines_stay_in_their_statement_and_a_create_starts_one() {
        let foxpro = "CREATE TABLE a ( ;\n k C(1) ;\n)\nCREATE TABLE b (k INT)";
        assert_eq!(
            statements(foxpro),
            ["CREATE TABLE a ( ;\n k C(1) ;\n)", "CREATE TABLE b (k INT)"]
        );
        // `ALTER` also starts a clause, so it never splits.
        let alter = "ALTER TABLE t\n  ALTER COLUMN c SET NOT NULL;\nSELECT 1";
        assert_eq!(
            statements(alter),
            ["ALTER TABLE t\n  ALTER COLUMN c SET NOT NULL", "SELECT 1"]
        );
        // A parenthesis that never closes keeps the plain split.
        let typo = "CREATE TABLE a (k INT;\nCREATE TABLE b (k INT);";
        assert_eq!(statements(typo).len(), 2);
    }

    #[test]
    fn a_batch_separator_after_a_comment_line_still_separates() {
        let batches =
            "INSERT INTO a VALUES (1)\n-- next batch\nGO -- done\nINSERT INTO b VALUES (2)";
        assert_eq!(statements(batches).len(), 2, "{:?}", statements(batches));
    }

    #[test]
    fn unreadable_prose_lines_are_blanked_in_place() {
        let tokenize = |t: &str| Tokenizer::new(&MsSqlDialect {}, t).tokenize_with_location();
        let sql = "* the kiosk's tables\nCREATE TABLE a (k INT)";
        let (text, _) = blank_unreadable_lines(sql, tokenize).expect("recovered");
        assert_eq!(text.chars().count(), sql.chars().count());
        assert!(text.starts_with(&" ".repeat(20)), "{text:?}");
        // A line that defines a key is never dropped.
        assert!(
            blank_unreadable_lines("CREATE TABLE a (k TEXT DEFAULT 'x PRIMARY KEY)", tokenize)
                .is_none()
        );
    }

    #[test]
    fn a_guarded_batch_starts_at_its_create() {
        let guarded = "if object_id('t') is null\nbegin\n create table t (k int)\nend";
        assert_eq!(from_guard(guarded), "create table t (k int)\nend");
        // Unguarded statements, and guards without DDL, stay whole.
        assert_eq!(
            from_guard("create table t (k int)"),
            "create table t (k int)"
        );
        assert_eq!(
            from_guard("if 1 = 1 begin select 1 end"),
            "if 1 = 1 begin select 1 end"
        );
    }
}
