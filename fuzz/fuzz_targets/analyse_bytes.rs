//! The whole single-file pipeline on arbitrary bytes, with and without the
//! pre-filter: no panic, no stack overflow, and the filter never loses a
//! finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/mod.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    common::check(data, &String::from_utf8_lossy(data));
    // The tokenizer must accept anything the decoder accepts.
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = idem_lint::lex::tokens(text).count();
    }
});
