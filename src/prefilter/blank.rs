//! What is left of a scanned file for syn: the unselected items, doc
//! comments outside kept items and large inert tables are blanked
//! ([`FilePlan`], [`blank`]), keeping every line and column in place.

use std::ops::Range;

use super::scan::FileScan;

/// What to do with one file of a unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilePlan {
    /// Nothing in it can contribute to a finding: it is not parsed.
    Skip,
    /// Parse it with these byte ranges blanked out (see [`blank`]).
    Parse {
        /// Sorted, non-overlapping byte ranges.
        blank: Vec<Range<usize>>,
    },
}

/// Plans one file from which of its items are selected. Unselected
/// top-level items (functions, methods, constants, statics, at any module,
/// `impl` or `trait` depth, but not inside a kept item) are blanked, and so
/// are doc comments outside kept items and their own docs: neither can reach a finding
/// (an item's only way in is the call graph the selection closes over), and
/// both are most of the syntax tree of generated code. `needed`: the
/// file's `use` declarations rename a selected function, or it defines a
/// struct a kept function names, so it is parsed even with no item kept.
pub(super) fn file_plan(scan: &FileScan<'_>, selected: &[bool], needed: bool) -> FilePlan {
    let mut keep = selected.to_vec();
    // A nested selected item keeps the items around it (items come after
    // their parents, so one backwards pass carries it all the way up).
    for n in (0..scan.items.len()).rev() {
        if let (true, Some(parent)) = (keep[n], scan.items[n].parent) {
            keep[parent] = true;
        }
    }
    if !keep.iter().any(|k| *k) && !scan.ddl_outside_items && !needed {
        return FilePlan::Skip;
    }
    let top = |n: &usize| scan.items[*n].parent.is_none();
    let kept: Vec<Range<usize>> = (0..scan.items.len())
        .filter(top)
        .filter(|&n| keep[n])
        .map(|n| scan.items[n].head..scan.items[n].extent.end)
        .collect();
    let mut blank: Vec<Range<usize>> = (0..scan.items.len())
        .filter(top)
        .filter(|&n| !keep[n])
        .map(|n| scan.items[n].extent.clone())
        .collect();
    // Kept bodies are sorted and disjoint: a binary search finds the one a
    // comment could be in.
    let inside_kept = |at: usize| {
        let i = kept.partition_point(|k| k.start <= at);
        i > 0 && kept[i - 1].contains(&at)
    };
    // A kept function's own doc may document its parameters as the
    // client's key: the comments right before a kept item's head stay.
    let mut heads: Vec<(usize, usize)> = (0..scan.items.len())
        .map(|n| (scan.items[n].head, n))
        .collect();
    heads.sort_unstable();
    let documents_kept = |end: usize| {
        let i = heads.partition_point(|(head, _)| *head < end);
        heads.get(i).is_some_and(|(_, n)| keep[*n])
    };
    blank.extend(
        scan.doc_comments
            .iter()
            .filter(|c| !inside_kept(c.start) && !documents_kept(c.end))
            .cloned(),
    );
    // Overlaps (a table inside a blanked item) are harmless to `blank`.
    blank.extend(scan.inert_tables.iter().cloned());
    blank.extend(scan.test_items.iter().cloned());
    blank.sort_by_key(|r| (r.start, r.end));
    FilePlan::Parse { blank }
}

/// `text` with every char in `ranges` but line breaks replaced by a space:
/// what syn parses from a planned file. Lines and char columns (what
/// proc-macro2 reports) are those of the original, so every position the
/// analysis reports holds for the file on disk.
pub fn blank(text: &str, ranges: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for range in ranges {
        let start = range.start.max(at);
        let (Some(keep), Some(gone)) = (text.get(at..start), text.get(start..range.end)) else {
            continue;
        };
        out.push_str(keep);
        out.extend(
            gone.chars()
                .map(|c| if matches!(c, '\n' | '\r') { c } else { ' ' }),
        );
        at = range.end;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}
