//! The binaries' allocator: mimalloc, purging freed memory within 2 ms.
//!
//! Included by both binaries (`#[path]`); the library forbids `unsafe`.
//!
//! Parsing allocates and frees millions of small syntax nodes on every
//! worker thread; mimalloc's thread-local heaps do that faster than the
//! system allocator (13.2 s → 12.0 s on the bench corpus when it came in).
//! By default (v3) it keeps freed pages for a second before giving them back; with
//! the syntax trees of whole crates freed and rebuilt many times a second,
//! that kept about 90 MB more resident than the live heap on the corpus
//! (peak RSS 248 → 158 MB). Purging at once, though, gave pages back only to
//! fault them in again moments later when one unit frees and allocates
//! without pause (a file with 20k findings: 0.95 → 0.86 s with 2 ms); a
//! delay of 2 ms keeps the corpus' peak where purging at once had it
//! (about 92 MB), 50 ms already costs 25 MB more.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc.h's `mi_option_e`;
/// `libmimalloc-sys` names no constant for it.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How long mimalloc keeps freed memory before returning it, in ms.
const PURGE_DELAY_MS: std::ffi::c_long = 2;

/// Makes mimalloc return freed memory to the system promptly.
pub fn purge_promptly() {
    // SAFETY: sets a plain integer option, which mimalloc reads atomically.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_is_the_purge_delay() {
        // The documented default of `mi_option_purge_delay`: 10 ms in
        // mimalloc v2, 1000 ms in v3 (which this crate builds), unless the
        // environment sets it.
        let configured: Option<i64> = std::env::var("MIMALLOC_PURGE_DELAY")
            .ok()
            .and_then(|v| v.parse().ok());
        // SAFETY: reads a plain integer option.
        let delay = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) } as i64;
        match configured {
            Some(value) => assert_eq!(delay, value),
            None => assert!(delay == 10 || delay == 1000, "{delay}"),
        }
        purge_promptly();
        // SAFETY: as above.
        assert_eq!(
            unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) },
            PURGE_DELAY_MS
        );
    }
}
