//! Statements of a SQL text: where they end (`;`, SQL Server's `GO`
//! lines, MySQL's `#` comments) and the SQL Server words no dialect parses.

use sqlparser::tokenizer::{Token, TokenWithSpan, Whitespace};

use super::is_trivia;

/// Splits at top-level `;` (the tokenizer already keeps `;` inside strings,
/// comments and dollar-quoted bodies) and at SQL Server's `GO` batch
/// separator, a line of its own.
pub(super) fn split_statements(tokens: &[TokenWithSpan]) -> Vec<&[TokenWithSpan]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..tokens.len() {
        if matches!(tokens[i].token, Token::SemiColon | Token::EOF) || is_batch_separator(tokens, i)
        {
            out.push(&tokens[start..i]);
            start = i + 1;
        }
    }
    out.push(&tokens[start..]);
    out.retain(|s| s.iter().any(|t| !is_trivia(&t.token)));
    out
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

/// Whether a line starts with MySQL's `#` comment (no other dialect starts
/// a line of SQL with `#`).
pub(super) fn hash_comments(text: &str) -> bool {
    text.lines().any(|line| line.trim_start().starts_with('#'))
}

/// `GO` alone on its line (spaces around it allowed).
fn is_batch_separator(tokens: &[TokenWithSpan], i: usize) -> bool {
    let Token::Word(word) = &tokens[i].token else {
        return false;
    };
    if word.quote_style.is_some() || !word.value.eq_ignore_ascii_case("GO") {
        return false;
    }
    let blank = |t: &TokenWithSpan| {
        matches!(
            t.token,
            Token::Whitespace(Whitespace::Space | Whitespace::Tab)
        )
    };
    let ends_line =
        |t: &TokenWithSpan| matches!(t.token, Token::EOF | Token::Whitespace(Whitespace::Newline));
    let before = tokens[..i].iter().rev().find(|t| !blank(t));
    let after = tokens[i + 1..].iter().find(|t| !blank(t));
    before.is_none_or(ends_line) && after.is_none_or(ends_line)
}
