//! Test attributes in a token scan: `#[test]`, `#[tokio::test]`,
//! `#[cfg(test)]`, `#[cfg(any(test, feature = "mocks"))]`. The items they
//! mark are test support, which the analysis never reads
//! (`analysis::test_support`), so the pre-filter neither keys nor selects
//! them and blanks them where their file is parsed.
//!
//! Only a subset of what `test_support::is_test` accepts is recognised
//! here (no nested `any(all(..))`): an attribute missed is an item kept,
//! which costs time but never a finding.

use crate::analysis::test_support::{is_test_feature, TEST_ATTRIBUTES};
use crate::lex::Token;

use super::triggers::is_path_sep;

/// What a `#` at `tokens[i]` starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attribute {
    /// Not a test attribute (or no attribute at all).
    Other,
    /// An outer test attribute (`#[test]`): it marks the next item.
    Outer,
    /// An inner one (`#![cfg(test)]`): it marks the module it is in.
    Inner,
}

/// Classifies the attribute whose `#` is `tokens[i]`.
pub fn at(tokens: &[Token<'_>], i: usize) -> Attribute {
    if tokens.get(i) != Some(&Token::Punct("#")) {
        return Attribute::Other;
    }
    let (inner, open) = match tokens.get(i + 1) {
        Some(Token::Punct("!")) => (true, i + 2),
        _ => (false, i + 1),
    };
    if tokens.get(open) != Some(&Token::Open(b'[')) {
        return Attribute::Other;
    }
    let body = &tokens[open + 1..];
    let test = match path(body) {
        Some((path, rest)) if path.last().is_some_and(|l| TEST_ATTRIBUTES.contains(l)) => {
            // `#[test]`, `#[tokio::test(flavor = "multi_thread")]`
            matches!(rest.first(), Some(Token::Close(b']') | Token::Open(b'(')))
        }
        Some((path, rest)) if path == ["cfg"] => cfg_holds_only_in_tests(rest),
        _ => false,
    };
    match (test, inner) {
        (false, _) => Attribute::Other,
        (true, false) => Attribute::Outer,
        (true, true) => Attribute::Inner,
    }
}

/// The modules `text` declares as files under a test `cfg` (`#[cfg(test)]
/// mod tests_parse;`): those files are test support, whatever they are
/// called. Only `cfg` attributes are read, each from a window of tokens.
pub fn test_gated_modules(text: &str) -> Vec<&str> {
    const WINDOW: usize = 48;
    let mut out = Vec::new();
    for (at, _) in text.match_indices("#[cfg") {
        // Most `cfg`s are no test's and gate no module file (windows-sys
        // has one per item): look before lexing.
        let rest = &text.as_bytes()[at..];
        let head = &rest[..rest.len().min(160)];
        let says_test = ["test", "mock", "fake"].iter().any(|w| {
            head.windows(w.len())
                .any(|x| x.eq_ignore_ascii_case(w.as_bytes()))
        });
        if !says_test || !head.windows(4).any(|x| x == b"mod ") {
            continue;
        }
        let tokens: Vec<Token<'_>> = crate::lex::tokens(&text[at..]).take(WINDOW).collect();
        let mut i = 0;
        let mut gated = false;
        // The attributes before the item, this one and any after it.
        while tokens.get(i) == Some(&Token::Punct("#")) {
            gated |= i == 0 && self::at(&tokens, 0) == Attribute::Outer;
            let Some(end) = attribute_end(&tokens, i + 1) else {
                break;
            };
            i = end + 1;
        }
        if !gated {
            continue;
        }
        if tokens.get(i) == Some(&Token::Ident("pub")) {
            i += 1;
            if tokens.get(i) == Some(&Token::Open(b'(')) {
                i += 3;
            }
        }
        if let (Some(Token::Ident("mod")), Some(Token::Ident(name)), Some(Token::Punct(";"))) =
            (tokens.get(i), tokens.get(i + 1), tokens.get(i + 2))
        {
            out.push(*name);
        }
    }
    out
}

/// The index of the `]` closing the attribute whose `[` is `tokens[open]`.
fn attribute_end(tokens: &[Token<'_>], open: usize) -> Option<usize> {
    if tokens.get(open) != Some(&Token::Open(b'[')) {
        return None;
    }
    super::holders::matching_close(tokens, open)
}

/// The `a::b::c` path at the start of `tokens`, and the tokens after it.
fn path<'a, 't>(tokens: &'a [Token<'t>]) -> Option<(Vec<&'t str>, &'a [Token<'t>])> {
    let mut segments = Vec::new();
    let mut at = 0;
    loop {
        let Some(Token::Ident(segment)) = tokens.get(at) else {
            return None;
        };
        segments.push(*segment);
        at += 1;
        if is_path_sep(tokens, at) {
            at += 2;
        } else {
            return Some((segments, &tokens[at..]));
        }
    }
}

/// `( test )`, `( feature = "test-support" )`, `( any ( test , .. ) )` or
/// `( all ( .. ) )` with such a part at its top level.
fn cfg_holds_only_in_tests(tokens: &[Token<'_>]) -> bool {
    if tokens.first() != Some(&Token::Open(b'(')) {
        return false;
    }
    let predicate = &tokens[1..];
    if one_test_predicate(predicate) {
        return true;
    }
    let (Some(Token::Ident("any" | "all")), Some(Token::Open(b'('))) =
        (predicate.first(), predicate.get(1))
    else {
        return false;
    };
    // The parts of `any(..)`: each starts after its `(` or a `,` at depth 0.
    let mut depth = 0usize;
    for (n, token) in predicate[2..].iter().enumerate() {
        match token {
            Token::Open(_) => depth += 1,
            Token::Close(_) if depth == 0 => return false,
            Token::Close(_) => depth -= 1,
            _ => {}
        }
        let part_start = n == 0 || (depth == 0 && predicate[2 + n - 1] == Token::Punct(","));
        if depth == 0 && part_start && one_test_predicate(&predicate[2 + n..]) {
            return true;
        }
    }
    false
}

/// `test` or `feature = "mocks"`, ended by `,` or `)`.
fn one_test_predicate(tokens: &[Token<'_>]) -> bool {
    let ends = |t: Option<&Token<'_>>| matches!(t, Some(Token::Punct(",") | Token::Close(b')')));
    match tokens {
        [Token::Ident("test"), rest @ ..] => ends(rest.first()),
        [Token::Ident("feature"), Token::Punct("="), Token::Str(name), rest @ ..] => {
            is_test_feature(name) && ends(rest.first())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lex;

    fn classify(text: &str) -> Attribute {
        let tokens: Vec<Token<'_>> = lex::tokens(text).collect();
        at(&tokens, 0)
    }

    #[test]
    fn recognises_the_test_attributes_the_analysis_skips() {
        for text in [
            "#[test]",
            "#[tokio::test]",
            "#[tokio::test(flavor = \"multi_thread\")]",
            "#[cfg(test)]",
            "#[cfg(any(test, feature = \"x\"))]",
            "#[cfg(all(feature = \"x\", test))]",
            "#[cfg(feature = \"test-support\")]",
            "#[cfg(any(feature = \"mocks\", debug_assertions))]",
            "#[rstest]",
        ] {
            assert_eq!(classify(text), Attribute::Outer, "{text}");
        }
        assert_eq!(classify("#![cfg(test)]"), Attribute::Inner);
    }

    #[test]
    fn leaves_production_attributes_alone() {
        for text in [
            "#[cfg(not(test))]",
            "#[cfg(feature = \"postgres\")]",
            "#[cfg(any(not(test), feature = \"x\"))]",
            "#[derive(Debug)]",
            "#[test_log]",
            "#[serde(rename = \"test\")]",
            "#[doc = \"test\"]",
        ] {
            assert_eq!(classify(text), Attribute::Other, "{text}");
        }
    }
}
