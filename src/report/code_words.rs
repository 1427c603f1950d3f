//! Where the human report may break a line: at spaces, but never inside
//! code. Help texts quote code (`` `let k = ..;` `` or
//! `idem_scope::scoped(tenant, principal, route, key)`), and code broken
//! over two lines of a narrow terminal can no longer be read or pasted.
//! Code wider than the help's lines cannot stay whole: [`wrap`] starts it
//! on a line of its own and breaks it at its spaces, between tokens, so the
//! pieces still read (and paste) as the same code; miette's wrap would cut
//! it at the width, inside a token (issue 25: `"ro` / `ute"`).

use textwrap::core::{display_width, Word};

/// miette's word separator: words end after a run of spaces outside code
/// (backticks, or the parentheses of a call on a `::` path).
pub fn words(line: &str) -> Box<dyn Iterator<Item = Word<'_>> + '_> {
    Box::new(break_points(line).into_iter().map(Word::from))
}

/// The pieces of `line`, each ending after the spaces where a break is allowed.
fn break_points(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut in_ticks = false;
    // Open parentheses of a path call: `idem_scope::scoped(` opens one.
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => in_ticks = !in_ticks,
            b'(' if depth > 0 || line[start..i].contains("::") => depth += 1,
            b')' if depth > 0 => depth -= 1,
            b' ' if !in_ticks && depth == 0 => {
                let end = i + bytes[i..].iter().take_while(|&&b| b == b' ').count();
                pieces.push(&line[start..end]);
                start = end;
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if start < line.len() {
        pieces.push(&line[start..]);
    }
    pieces
}

/// `help` with line breaks where code is wider than `width` columns (the
/// help's lines after their indent), as described above; other lines are
/// left for miette to wrap. The broken lines fit, so miette keeps them.
pub fn wrap(help: &str, width: usize) -> String {
    let lines: Vec<String> = help.split('\n').map(|l| wrap_line(l, width)).collect();
    lines.join("\n")
}

fn wrap_line(line: &str, width: usize) -> String {
    let pieces = break_points(line);
    let wide = |piece: &str| display_width(piece.trim_end()) > width;
    if !pieces.iter().any(|piece| wide(piece)) {
        return line.to_string();
    }
    // First fit, as miette wraps: each line is its pieces with the spaces
    // between them, never the trailing ones.
    // Pieces cover the line in order: `end` is where the last one placed
    // ends, `start` where the current line starts.
    let mut lines: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut end = 0;
    for piece in pieces {
        let code = wide(piece);
        let parts = if code { at_spaces(piece) } else { vec![piece] };
        for (i, part) in parts.into_iter().enumerate() {
            let filled = display_width(&line[start..end]) + display_width(part.trim_end());
            if end > start && ((code && i == 0) || filled > width) {
                lines.push(line[start..end].trim_end());
                start = end;
            }
            end += part.len();
        }
    }
    if end > start {
        lines.push(line[start..end].trim_end());
    }
    lines.join("\n")
}

/// `code` in pieces that each end after a run of spaces.
fn at_spaces(code: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b' ' {
            let end = i + bytes[i..].iter().take_while(|&&b| b == b' ').count();
            pieces.push(&code[start..end]);
            start = end;
            i = end;
            continue;
        }
        i += 1;
    }
    if start < code.len() {
        pieces.push(&code[start..]);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_stays_whole() {
        let line = "bind it: `let k = f(a, b)?;` then idem_scope::scoped(t, p, r, k) now";
        assert_eq!(
            break_points(line),
            [
                "bind ",
                "it: ",
                "`let k = f(a, b)?;` ",
                "then ",
                "idem_scope::scoped(t, p, r, k) ",
                "now"
            ]
        );
    }

    #[test]
    fn code_wider_than_the_line_breaks_between_tokens() {
        let help = "scope the key: bind it first, `let scoped_key = idem_scope::scoped(&ctx.tenant_id, &ctx.user_id, \"route\", &key)?;`, then use `scoped_key.storage_key()`; a key shared across tenants";
        assert_eq!(
            wrap(help, 70),
            "scope the key: bind it first,\n\
             `let scoped_key = idem_scope::scoped(&ctx.tenant_id, &ctx.user_id,\n\
             \"route\", &key)?;`, then use `scoped_key.storage_key()`; a key shared\n\
             across tenants"
        );
        // Code that fits is left to miette.
        assert_eq!(
            wrap("bind `let k = f(a, b)?;` now", 20),
            "bind `let k = f(a, b)?;` now"
        );
    }
}
