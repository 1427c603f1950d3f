//! Where the human report may break a line: at spaces, but never inside
//! code. Help texts quote code (`` `let k = ..;` `` or
//! `idem_scope::scoped(tenant, principal, route, key)`), and code broken
//! over two lines of a narrow terminal can no longer be read or pasted; a
//! code span longer than the line overflows it instead.

use textwrap::core::Word;

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
}
