//! Header-name holders in the token scan: the pre-filter's superset of
//! `analysis::header_holders`. A field or variant that is given the key
//! header's name (`header: "Idempotency-Key"`, `self.name = HDR.into()`,
//! `Source::Header(name.unwrap_or(DEFAULT_HEADER))`) makes every item that
//! mentions it relevant, as a constant holding the name does.

use crate::analysis::header_holders::{is_const_name, NAME_WRAPPERS};
use crate::lex::Token;

/// Bound on the tokens looked back over (a long receiver chain gives up).
const MAX_STEPS: usize = 64;

/// The field or variant that the expression starting at `tokens[i]` (a
/// key-header literal, or a constant's name) initialises, walking back over
/// the shapes `analysis::header_holders::leaves` follows: references,
/// parentheses, wrapper calls (`String::from(..)`), `recv.unwrap_or(..)`
/// and a path prefix. `None` when it initialises nothing such.
pub(super) fn holder_before<'t>(tokens: &[Token<'t>], i: usize) -> Option<&'t str> {
    let at = |j: usize, n: usize| j.checked_sub(n).and_then(|k| tokens.get(k)).copied();
    let mut j = skip_path_prefix(tokens, i);
    for _ in 0..MAX_STEPS {
        match at(j, 1)? {
            Token::Punct("&") => j -= 1,
            Token::Open(b'(') => match at(j, 2) {
                Some(Token::Ident(w)) if NAME_WRAPPERS.contains(&w) => {
                    j = skip_path_prefix(tokens, j - 2);
                }
                Some(Token::Ident("unwrap_or")) if at(j, 3) == Some(Token::Punct(".")) => {
                    j = skip_receiver(tokens, j - 3)?;
                }
                Some(Token::Ident(w)) if w.starts_with(|c: char| c.is_uppercase()) => {
                    return Some(w);
                }
                Some(Token::Ident(_)) => return None,
                // A parenthesised expression or a tuple.
                _ => j -= 1,
            },
            Token::Punct(":") => {
                return match (at(j, 2), at(j, 3)) {
                    (Some(Token::Ident(field)), t) if t != Some(Token::Punct(":")) => Some(field),
                    _ => None,
                };
            }
            Token::Punct("=") => {
                return match (at(j, 2), at(j, 3)) {
                    (Some(Token::Ident(field)), Some(Token::Punct("."))) => Some(field),
                    _ => None,
                };
            }
            // The tail of `fn default_header() -> String { "..".into() }`:
            // the function is the holder (a serde default names it).
            Token::Open(b'{') => return fn_before(tokens, j - 1),
            _ => return None,
        }
    }
    None
}

/// `#[serde(default = "Cfg::default_header")] pub header_name: String`:
/// at the string token `tokens[i]`, the default function's name and the
/// field after the attribute.
pub(super) fn serde_default_at<'t>(tokens: &[Token<'t>], i: usize) -> Option<(&'t str, &'t str)> {
    let Token::Str(path) = tokens[i] else {
        return None;
    };
    let at = |j: usize| tokens.get(j).copied();
    if i < 3 || at(i - 1) != Some(Token::Punct("=")) || at(i - 2) != Some(Token::Ident("default")) {
        return None;
    }
    let function = path
        .rsplit("::")
        .next()
        .filter(|f| crate::lex::is_ident(f))?;
    // Past the attribute's `)]`, other attributes and the visibility.
    let mut j = i + 1;
    let mut depth = 2usize;
    for _ in 0..MAX_STEPS {
        match at(j)? {
            Token::Open(_) => depth += 1,
            Token::Close(_) => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        j += 1;
    }
    j += 1;
    for _ in 0..MAX_STEPS {
        match (at(j)?, at(j + 1), at(j + 2)) {
            (Token::Punct("#"), Some(Token::Open(b'[')), _) => {
                j = matching_close(tokens, j + 1)? + 1
            }
            (Token::Ident("pub"), Some(Token::Open(b'(')), _) => {
                j = matching_close(tokens, j + 1)? + 1
            }
            (Token::Ident("pub"), _, _) => j += 1,
            (Token::Ident(field), Some(Token::Punct(":")), next)
                if next != Some(Token::Punct(":")) =>
            {
                return Some((function, field));
            }
            _ => return None,
        }
    }
    None
}

/// The index of the bracket closing the one opening at `tokens[open]`.
pub(super) fn matching_close(tokens: &[Token<'_>], open: usize) -> Option<usize> {
    matching(tokens, (open..tokens.len()).take(4096), true)
}

/// The name of the function whose body opens at `tokens[open]`:
/// `fn NAME ( .. ) -> T {` with no other body or statement in between.
fn fn_before<'t>(tokens: &[Token<'t>], open: usize) -> Option<&'t str> {
    let mut j = open;
    for _ in 0..MAX_STEPS {
        j = j.checked_sub(1)?;
        match tokens[j] {
            Token::Ident("fn") => {
                return match tokens.get(j + 1) {
                    Some(Token::Ident(name)) => Some(name),
                    _ => None,
                };
            }
            Token::Open(b'{') | Token::Close(b'}') | Token::Punct(";") => return None,
            _ => {}
        }
    }
    None
}

/// Whether an identifier token could be a constant holding the header name
/// (the analysis follows only such paths).
pub(super) fn may_name_header_const(ident: &str) -> bool {
    is_const_name(ident)
}

/// From `tokens[i]`, back over `a::b::` so that the result is the index of
/// the path's first segment.
fn skip_path_prefix(tokens: &[Token<'_>], mut i: usize) -> usize {
    while i >= 3
        && tokens[i - 1] == Token::Punct(":")
        && tokens[i - 2] == Token::Punct(":")
        && matches!(tokens[i - 3], Token::Ident(_) | Token::Punct(">"))
    {
        if tokens[i - 3] == Token::Punct(">") {
            // `<T as Trait>::X` or `Type::<T>::X`: give up the prefix here.
            return i - 2;
        }
        i -= 3;
    }
    i
}

/// From the `.` at `tokens[dot]` (before a method name), back over the
/// receiver expression (`a.b`, `self.cfg.name`, `f(x).y`, `x?`); the index
/// of its first token.
fn skip_receiver(tokens: &[Token<'_>], dot: usize) -> Option<usize> {
    let mut j = dot;
    for _ in 0..MAX_STEPS {
        let prev = j.checked_sub(1).and_then(|k| tokens.get(k)).copied()?;
        match prev {
            Token::Ident(_) => j -= 1,
            Token::Punct("?") => {
                j -= 1;
                continue;
            }
            Token::Close(_) => {
                // A call's arguments or an index: the callee comes next.
                j = matching_open(tokens, j - 1)?;
                continue;
            }
            _ => return Some(j),
        }
        match (
            j.checked_sub(1).map(|k| tokens[k]),
            j.checked_sub(2).map(|k| tokens[k]),
        ) {
            (Some(Token::Punct(".")), _) => j -= 1,
            (Some(Token::Punct(":")), Some(Token::Punct(":"))) => j -= 2,
            _ => return Some(j),
        }
    }
    None
}

/// The index of the bracket opening the one closing at `tokens[close]`.
pub(super) fn matching_open(tokens: &[Token<'_>], close: usize) -> Option<usize> {
    matching(tokens, (0..=close).rev().take(4096), false)
}

/// The bracket matching the first of `order` (indices walked forward from
/// an opening bracket, or backward from a closing one).
fn matching(
    tokens: &[Token<'_>],
    order: impl Iterator<Item = usize>,
    forward: bool,
) -> Option<usize> {
    let mut depth = 0usize;
    for k in order {
        let (deeper, shallower) = match tokens.get(k)? {
            Token::Open(_) => (forward, !forward),
            Token::Close(_) => (!forward, forward),
            _ => (false, false),
        };
        if deeper {
            depth += 1;
        } else if shallower {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holder(text: &str, leaf: &str) -> Option<String> {
        let tokens: Vec<Token<'_>> = crate::lex::tokens(text).collect();
        let i = tokens
            .iter()
            .position(|t| matches!(t, Token::Str(s) | Token::Ident(s) if *s == leaf))
            .expect("leaf");
        holder_before(&tokens, i).map(str::to_string)
    }

    #[test]
    fn serde_default_functions_and_their_fields() {
        let text = "struct C {\n    #[serde(default = \"C::default_header\")]\n    pub header_name: String,\n}\nimpl C { fn default_header() -> String { \"Idempotency-Key\".to_string() } }";
        let tokens: Vec<Token<'_>> = crate::lex::tokens(text).collect();
        let pairs: Vec<(&str, &str)> = (0..tokens.len())
            .filter_map(|i| serde_default_at(&tokens, i))
            .collect();
        assert_eq!(pairs, [("default_header", "header_name")]);
        assert_eq!(
            holder(text, "Idempotency-Key").as_deref(),
            Some("default_header")
        );
    }

    #[test]
    fn finds_the_initialised_field_or_variant() {
        let hdr = "Idempotency-Key";
        for (text, leaf, want) in [
            ("Self { header: \"Idempotency-Key\" }", hdr, Some("header")),
            (
                "Cfg { name: \"Idempotency-Key\".to_string() }",
                hdr,
                Some("name"),
            ),
            (
                "Cfg { name: HeaderName::from_static(\"Idempotency-Key\") }",
                hdr,
                Some("name"),
            ),
            (
                "self.header_name = String::from(HDR);",
                "HDR",
                Some("header_name"),
            ),
            (
                "Source::Header(name.unwrap_or(DEFAULT).to_string())",
                "DEFAULT",
                Some("Header"),
            ),
            (
                "Source::Header(self.cfg(x)?.name.unwrap_or(DEFAULT))",
                "DEFAULT",
                Some("Header"),
            ),
            ("Cfg { header: crate::consts::HDR }", "HDR", Some("header")),
            ("let h = HDR;", "HDR", None),
            ("if name == \"Idempotency-Key\" {}", hdr, None),
            ("const HDR: &str = \"Idempotency-Key\";", hdr, None),
            ("headers.get(\"Idempotency-Key\")", hdr, None),
        ] {
            assert_eq!(holder(text, leaf).as_deref(), want, "{text}");
        }
    }
}
