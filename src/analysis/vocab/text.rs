//! Text helpers for names: identifiers split into words, and ASCII
//! case-insensitive matching that does not allocate (the vocabulary and
//! the hash recognisers both ask these of every identifier).

/// Splits `CamelCase`, `snake_case` and `kebab-case` into lower-case words.
pub fn words(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for ch in ident.chars() {
        if ch == '_' || ch == '-' || ch == '.' || ch == ':' || ch == ' ' || ch == '/' {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase() && prev_lower && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
        // Identifiers are nearly always ASCII: `char::to_lowercase`'s
        // table lookup was most of this function's time.
        if ch.is_ascii() {
            current.push(ch.to_ascii_lowercase());
        } else {
            current.extend(ch.to_lowercase());
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// `snake_case` form of an identifier (`IdempotencyKey` → `idempotency_key`).
pub fn snake(ident: &str) -> String {
    words(ident).join("_")
}

/// Whether `hay` contains `needle` (ASCII, any case), without allocating:
/// these checks run on every identifier the evaluator sees.
pub fn contains_ci(hay: &str, needle: &str) -> bool {
    hay.len() >= needle.len()
        && hay
            .as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Whether `hay` ends with `suffix` (ASCII, any case), without allocating.
pub fn ends_with_ci(hay: &str, suffix: &str) -> bool {
    hay.len() >= suffix.len()
        && hay.as_bytes()[hay.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

/// The last segment of a `::` path (`scoped` of `idem_scope::scoped`), by
/// bytes: the pre-filter asks it of every identifier it scans.
pub(super) fn last_segment(path: &str) -> &str {
    let bytes = path.as_bytes();
    (bytes.windows(2).rposition(|w| w == b"::")).map_or(path, |at| &path[at + 2..])
}
