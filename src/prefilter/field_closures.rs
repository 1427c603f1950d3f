//! Closures written into struct fields, read from tokens as
//! `analysis::field_closures` reads them from the tree: a closure written
//! in place (`derive: Box::new(|..| ..)`), or first bound to a local
//! (`let derive: KeyFn = Box::new(|..| ..);`, `let d = move |..| ..;`) and
//! then written into a field by that local's name (`Self { derive }`,
//! `derive: d`). The evaluator runs such a closure where the file calls
//! the field (`(self.derive)(..)`), so the scan keeps the item writing it.

use crate::lex::Token;

use super::triggers::is_path_sep;

/// Whether a closure starts at `tokens[at]`, through the handles the
/// analysis sees through (`Box::new(..)`, `Arc::new(..)`, `Rc::new(..)`),
/// parentheses and `move`.
pub(super) fn closure_at(tokens: &[Token<'_>], mut at: usize) -> bool {
    if matches!(tokens.get(at), Some(Token::Ident("Box" | "Arc" | "Rc")))
        && is_path_sep(tokens, at + 1)
        && tokens.get(at + 3) == Some(&Token::Ident("new"))
        && tokens.get(at + 4) == Some(&Token::Open(b'('))
    {
        at += 5;
    }
    while tokens.get(at) == Some(&Token::Open(b'(')) {
        at += 1;
    }
    if tokens.get(at) == Some(&Token::Ident("move")) {
        at += 1;
    }
    matches!(tokens.get(at), Some(Token::Punct("|" | "||")))
}

/// At a `let` (`tokens[i]`): the local it binds to a closure,
/// `let [mut] name [: Type] = closure`.
pub(super) fn bound_closure<'t>(tokens: &[Token<'t>], i: usize) -> Option<&'t str> {
    let mut at = i + 1;
    if tokens.get(at) == Some(&Token::Ident("mut")) {
        at += 1;
    }
    let Some(Token::Ident(name)) = tokens.get(at).copied() else {
        return None;
    };
    at += 1;
    if tokens.get(at) == Some(&Token::Punct(":")) && !is_path_sep(tokens, at) {
        at = past_type(tokens, at + 1)?;
    }
    let assigns = tokens.get(at) == Some(&Token::Punct("="))
        && !matches!(tokens.get(at + 1), Some(Token::Punct("=" | ">")));
    (assigns && closure_at(tokens, at + 1)).then_some(name)
}

/// The `=` after a binding's type starting at `tokens[at]`: brackets and
/// generic arguments (`Box<dyn Fn(&A) -> B>`, `Iterator<Item = u8>`)
/// skipped; `None` where a statement or block ends first, or far away.
fn past_type(tokens: &[Token<'_>], at: usize) -> Option<usize> {
    let (mut brackets, mut angles) = (0usize, 0usize);
    for k in at..tokens.len().min(at + 128) {
        match tokens[k] {
            Token::Punct("=") if brackets == 0 && angles == 0 => return Some(k),
            Token::Punct(";") if brackets == 0 => return None,
            Token::Open(_) => brackets += 1,
            Token::Close(_) if brackets == 0 => return None,
            Token::Close(_) => brackets -= 1,
            Token::Punct("<") => angles += 1,
            // `->` inside generics is not a closing angle.
            Token::Punct(">") if tokens.get(k - 1) != Some(&Token::Punct("-")) => {
                angles = angles.checked_sub(1)?
            }
            _ => {}
        }
    }
    None
}

/// At a local's name (`tokens[i]`) written as a struct field's value: the
/// field, `field: local` or the shorthand `local` (then the field is the
/// local's name), where the value ends at a `,` or `}`.
pub(super) fn written_field<'t>(tokens: &[Token<'t>], i: usize) -> Option<&'t str> {
    if !matches!(
        tokens.get(i + 1),
        Some(Token::Punct(",") | Token::Close(b'}'))
    ) {
        return None;
    }
    let before = |n: usize| i.checked_sub(n).and_then(|j| tokens.get(j)).copied();
    match (before(1)?, before(2), before(3)) {
        (
            Token::Punct(":"),
            Some(Token::Ident(field)),
            Some(Token::Punct(",") | Token::Open(b'{')),
        ) => Some(field),
        (Token::Punct(",") | Token::Open(b'{'), _, _) => match tokens.get(i) {
            Some(Token::Ident(local)) => Some(local),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lex;

    fn bound(text: &str) -> Option<String> {
        let tokens = lex::lex(text).tokens;
        bound_closure(&tokens, 0).map(str::to_string)
    }

    #[test]
    fn locals_bound_to_closures() {
        assert_eq!(bound("let f = |a| a;").as_deref(), Some("f"));
        assert_eq!(bound("let mut f = move || 1;").as_deref(), Some("f"));
        let typed = "let f: Box<dyn Fn(&A, &str) -> String + Send> = Box::new(|a, k| k);";
        assert_eq!(bound(typed).as_deref(), Some("f"));
        let assoc = "let f: Box<dyn Iterator<Item = u8>> = Arc::new(move |x| x);";
        assert_eq!(bound(assoc).as_deref(), Some("f"));
        assert_eq!(bound("let f = g(|a| a);"), None);
        assert_eq!(bound("let f: u8; let g = |a| a;"), None);
        assert_eq!(bound("let Some(f) = x else { return };"), None);
    }

    #[test]
    fn fields_written_from_locals() {
        let tokens = lex::lex("Self { a, f, b: g }").tokens;
        let at = |name: &str| {
            tokens
                .iter()
                .position(|t| *t == Token::Ident(name))
                .unwrap()
        };
        assert_eq!(written_field(&tokens, at("f")), Some("f"));
        assert_eq!(written_field(&tokens, at("g")), Some("b"));
        assert_eq!(written_field(&tokens, at("Self")), None);
    }
}
