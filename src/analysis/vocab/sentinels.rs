//! Names and literals meaning "nobody in particular" (`anonymous`,
//! `global`, `""`): the sentinel defaults of IDEM005 and the placeholder
//! components of IDEM002.

use super::text::{snake, words};
use super::vocabulary::Vocabulary;

pub(super) const SENTINELS: &[&str] = &[
    "",
    "global",
    "default",
    "anonymous",
    "anon",
    "public",
    "unknown",
    "none",
    "guest",
    "shared",
    "system",
    "nobody",
    "not_found",
    "*",
];

const PLACEHOLDERS: &[&str] = &[
    "",
    "default",
    "global",
    "any",
    "all",
    "*",
    "none",
    "null",
    "unknown",
    "anonymous",
    "anon",
    "public",
    "shared",
    "nobody",
    "guest",
    "system",
    "-",
    "_",
    "todo",
    "tbd",
    "placeholder",
];

/// Words that say "nobody in particular" when they name a default tenant
/// or principal (`"ANON"`, `Principal::Anonymous`, `DEFAULT_TENANT`).
pub(super) const SENTINEL_WORDS: &[&str] = &[
    "global",
    "default",
    "defaults",
    "anonymous",
    "anon",
    "public",
    "unknown",
    "none",
    "guest",
    "shared",
    "system",
    "nobody",
    "nil",
    "null",
    "any",
    "everyone",
    "unauthenticated",
];

/// Whether an identifier (a constant, enum variant, field or function name)
/// says "nobody in particular": `GLOBAL`, `Principal::Anonymous`,
/// `MERCHANT_ID_NOT_FOUND`, `default_tenant`. A bare `None` is absence, not
/// a default, and is not a sentinel.
pub fn is_sentinel_name(ident: &str) -> bool {
    if ident == "None" {
        return false;
    }
    let w = words(ident.trim_start_matches("r#"));
    w.iter().any(|x| SENTINEL_WORDS.contains(&x.as_str()))
        || w.windows(2).any(|p| p[0] == "not" && p[1] == "found")
}

/// Whether a literal default is a sentinel: empty, `"*"`, `"-"`, `"n/a"`, or
/// text whose words say "nobody in particular" (`"ANON"`, `"public"`).
pub fn is_sentinel_literal(text: &str) -> bool {
    let t = text.trim();
    matches!(t, "" | "*" | "-" | "_" | "?" | "0" | "n/a" | "N/A") || is_sentinel_name(t)
}

impl Vocabulary {
    /// Whether a literal, constant or variant name means "nobody in particular"
    /// (`""`, `"ANON"`, `Principal::Anonymous`, `MERCHANT_ID_NOT_FOUND`,
    /// `DEFAULT_TENANT`): a sentinel, or a name that starts or ends with one.
    pub fn is_sentinel(&self, text: &str) -> bool {
        let last = text.rsplit("::").next().unwrap_or(text).trim();
        let lower = last.to_lowercase();
        if self.sentinels.contains(&lower) {
            return true;
        }
        let name = snake(last);
        self.sentinels.iter().any(|s| {
            !s.is_empty()
                && s.chars().all(|c| c.is_alphanumeric() || c == '_')
                && (name == *s
                    || name
                        .strip_suffix(s.as_str())
                        .is_some_and(|head| head.ends_with('_'))
                    || name
                        .strip_prefix(s.as_str())
                        .is_some_and(|tail| tail.starts_with('_')))
        })
    }

    /// Whether a literal component is a placeholder (`""`, `"default"`, `"global"`).
    pub fn is_placeholder(&self, literal: &str) -> bool {
        PLACEHOLDERS.contains(&literal.trim().to_ascii_lowercase().as_str())
    }
}
