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
    if blank.is_empty() {
        return syn::parse_file(text);
    }
    let blanked = crate::prefilter::blank(text, blank);
    syn::parse_file(&blanked).or_else(|_| syn::parse_file(text))
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
