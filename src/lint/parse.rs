//! Parsing what the pre-filter planned: the nesting guard and the parse of
//! a file with its unselected items blanked.

use std::ops::Range;

/// Files whose [`crate::lex::nesting_score`] exceeds this are not parsed:
/// syn's recursive descent overflowed the 256 MiB stack of a debug build at
/// about 10,000 nested generics, so this keeps a tenfold margin while no
/// hand-written code comes near it.
pub const MAX_NESTING: usize = 1000;

/// Parses `text` with the planned ranges blanked. Should the blanked text
/// not parse where the file does (a blanked range the scan got wrong), the
/// file is parsed whole: blanking may save work, never change a result.
pub(super) fn parse_planned(text: &str, blank: &[Range<usize>]) -> syn::Result<syn::File> {
    let parsed = if blank.is_empty() {
        syn::parse_file(text)
    } else {
        let blanked = crate::prefilter::blank(text, blank);
        syn::parse_file(&blanked).or_else(|_| syn::parse_file(text))
    };
    // Only where proc-macro2 could not tokenize: a syntax error in balanced
    // tokens is syn's to describe.
    parsed.map_err(|err| {
        if err.to_string() == "cannot parse string into token stream" {
            delimiter_error(text).unwrap_or(err)
        } else {
            err
        }
    })
}

/// For a file proc-macro2 cannot tokenize ("cannot parse string into token
/// stream"), the unbalanced delimiter as an error placed on it.
fn delimiter_error(text: &str) -> Option<syn::Error> {
    let problem = super::delimiters::find(text)?;
    // A span at (line, column): the one token of a text holding only
    // whitespace before it (span positions count per parsed text).
    let padding = format!(
        "{}{}x",
        "\n".repeat(problem.line - 1),
        " ".repeat(problem.column - 1)
    );
    let tokens: proc_macro2::TokenStream = padding.parse().ok()?;
    let span = tokens.into_iter().next()?.span();
    Some(syn::Error::new(span, problem.message))
}

/// How many bytes `ranges` (sorted by start, possibly overlapping) cover.
pub(super) fn blanked_len(ranges: &[Range<usize>]) -> usize {
    let mut covered = 0;
    let mut end = 0;
    for range in ranges {
        let start = range.start.max(end);
        if range.end > start {
            covered += range.end - start;
            end = range.end;
        }
    }
    covered
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanked_len_counts_overlaps_once() {
        assert_eq!(blanked_len(&[]), 0);
        assert_eq!(blanked_len(&[0..4, 10..12]), 6);
        // A table inside a blanked item, and a range sharing an end.
        assert_eq!(blanked_len(&[0..10, 2..5, 10..15]), 15);
        assert_eq!(blanked_len(&[0..10, 5..20]), 20);
    }
}
