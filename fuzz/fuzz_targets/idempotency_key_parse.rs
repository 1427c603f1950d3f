//! `IdempotencyKey` parsing on arbitrary header bytes: no panic, results
//! within bounds, strict acceptance implies the same lenient result.
#![no_main]

use idem_scope::{IdempotencyKey, DEFAULT_MAX_KEY_LEN};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let strict = IdempotencyKey::parse(data);
    let lenient = IdempotencyKey::parse_lenient(data);
    if let Ok(key) = &strict {
        assert!(!key.as_str().is_empty());
        assert!(key.as_str().len() <= DEFAULT_MAX_KEY_LEN);
        assert_eq!(
            lenient.as_ref().ok(),
            Some(key),
            "strict accepted, lenient differs"
        );
    }
    if let Ok(key) = &lenient {
        assert!(!key.as_str().is_empty());
        assert!(key.as_str().len() <= DEFAULT_MAX_KEY_LEN);
    }
    let small = IdempotencyKey::parse_with_limit(data, 8);
    if let Ok(key) = small {
        assert!(key.as_str().len() <= 8);
    }
    let lines: Vec<&[u8]> = data.split(|b| *b == b'\n').collect();
    let _ = IdempotencyKey::parse_lines(lines.iter().copied());
});
