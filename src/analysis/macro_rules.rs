//! The unit's own `macro_rules!` helpers, expanded where they are called
//! (rules.md, "Steps": macro bodies that parse are walked). A key built in
//! a macro (`replay_key!(tenant, route, key)` → `format!("{}::{}::{}", ..)`)
//! is then built where the macro's body builds it, from the call's own
//! arguments: the body's tokens keep their place in the macro's text (a
//! finding points there), the arguments theirs at the call.
//!
//! Only the common shape is read: rules whose matcher is a sequence of
//! fragments (`$name:expr`) and literal tokens, without repetitions. A
//! macro defined in another file of the unit is not expanded (its tokens'
//! places belong to that file), and neither is one the unit defines twice.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use syn::Expr;

/// One rule of a macro: what it matches and what it expands to.
#[derive(Debug, Clone)]
struct Rule {
    matcher: Vec<Piece>,
    body: TokenStream,
}

/// A piece of a matcher.
#[derive(Debug, Clone)]
enum Piece {
    /// `$name:kind`.
    Fragment { name: String, single: bool },
    /// A literal token (`,`, `=>`, a keyword), compared by its text.
    Token(String),
}

/// A `macro_rules!` definition of the unit.
#[derive(Debug, Clone)]
pub struct MacroRules {
    /// The file it is defined in.
    pub file: u32,
    rules: Vec<Rule>,
}

/// The rules of `macro_rules! name { .. }`, when every rule has the shape
/// this module reads; `None` for any other item or shape.
pub fn parse(item: &syn::ItemMacro, file: u32) -> Option<(String, MacroRules)> {
    if !item.mac.path.is_ident("macro_rules") {
        return None;
    }
    let name = item.ident.as_ref()?.to_string();
    let tokens: Vec<TokenTree> = item.mac.tokens.clone().into_iter().collect();
    let mut rules = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let (
            TokenTree::Group(matcher),
            Some(TokenTree::Punct(eq)),
            Some(TokenTree::Punct(gt)),
            Some(TokenTree::Group(body)),
        ) = (
            &tokens[at],
            tokens.get(at + 1),
            tokens.get(at + 2),
            tokens.get(at + 3),
        )
        else {
            return None;
        };
        if eq.as_char() != '=' || gt.as_char() != '>' {
            return None;
        }
        // A macro that calls itself is not expanded (each expansion would
        // be a new call to expand).
        if calls_macro(&body.stream(), &name) {
            return None;
        }
        rules.push(Rule {
            matcher: pieces(matcher.stream())?,
            body: body.stream(),
        });
        at += 4;
        if let Some(TokenTree::Punct(semi)) = tokens.get(at) {
            if semi.as_char() == ';' {
                at += 1;
            }
        }
    }
    (!rules.is_empty()).then_some((name, MacroRules { file, rules }))
}

/// Whether `tokens` call the macro `name` (`name!`), nested groups included.
fn calls_macro(tokens: &TokenStream, name: &str) -> bool {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    tokens.iter().enumerate().any(|(n, t)| match t {
        TokenTree::Ident(i) => {
            i == name
                && matches!(tokens.get(n + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
        }
        TokenTree::Group(g) => calls_macro(&g.stream(), name),
        _ => false,
    })
}

/// The pieces of a matcher; `None` for repetitions and nested groups.
fn pieces(matcher: TokenStream) -> Option<Vec<Piece>> {
    let tokens: Vec<TokenTree> = matcher.into_iter().collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        match &tokens[at] {
            TokenTree::Punct(p) if p.as_char() == '$' => {
                let (
                    Some(TokenTree::Ident(name)),
                    Some(TokenTree::Punct(colon)),
                    Some(TokenTree::Ident(kind)),
                ) = (tokens.get(at + 1), tokens.get(at + 2), tokens.get(at + 3))
                else {
                    return None;
                };
                if colon.as_char() != ':' {
                    return None;
                }
                let single = matches!(
                    kind.to_string().as_str(),
                    "ident" | "tt" | "literal" | "lifetime"
                );
                out.push(Piece::Fragment {
                    name: name.to_string(),
                    single,
                });
                at += 4;
            }
            TokenTree::Group(_) => return None,
            other => {
                out.push(Piece::Token(other.to_string()));
                at += 1;
            }
        }
    }
    Some(out)
}

impl MacroRules {
    /// The expression a call with `input` expands to: the first rule that
    /// matches, its body with the call's tokens in place of its fragments.
    pub fn expand(&self, input: &TokenStream) -> Option<Expr> {
        let tokens: Vec<TokenTree> = input.clone().into_iter().collect();
        self.rules.iter().find_map(|rule| {
            let bound = bind(&rule.matcher, &tokens)?;
            let expanded = transcribe(rule.body.clone(), &bound);
            syn::parse2::<Expr>(expanded.clone()).ok().or_else(|| {
                // A body of statements (`let k = ..; k`) is a block.
                let block = TokenTree::Group(Group::new(Delimiter::Brace, expanded));
                syn::parse2::<Expr>(block.into()).ok()
            })
        })
    }
}

/// The call's tokens bound to the matcher's fragments, if they match.
fn bind(matcher: &[Piece], tokens: &[TokenTree]) -> Option<Vec<(String, Vec<TokenTree>)>> {
    let mut bound = Vec::new();
    let mut at = 0;
    for (n, piece) in matcher.iter().enumerate() {
        match piece {
            Piece::Token(text) => {
                if tokens.get(at)?.to_string() != *text {
                    return None;
                }
                at += 1;
            }
            Piece::Fragment { name, single: true } => {
                bound.push((name.clone(), vec![tokens.get(at)?.clone()]));
                at += 1;
            }
            Piece::Fragment {
                name,
                single: false,
            } => {
                // Up to the next literal token of the matcher (or the end).
                let stop = matcher[n + 1..].iter().find_map(|p| match p {
                    Piece::Token(t) => Some(t.as_str()),
                    Piece::Fragment { .. } => None,
                });
                let start = at;
                while at < tokens.len() && stop.is_none_or(|s| tokens[at].to_string() != s) {
                    at += 1;
                }
                if at == start {
                    return None;
                }
                bound.push((name.clone(), tokens[start..at].to_vec()));
            }
        }
    }
    // A trailing comma after the last fragment is allowed by most macros.
    let rest = &tokens[at..];
    let trailing_comma = matches!(rest, [TokenTree::Punct(p)] if p.as_char() == ',');
    (rest.is_empty() || trailing_comma).then_some(bound)
}

/// `body` with each `$name` replaced by its bound tokens, as one invisible
/// group (so `$a * 2` of `1 + 1` stays `(1 + 1) * 2`, as rustc expands it).
fn transcribe(body: TokenStream, bound: &[(String, Vec<TokenTree>)]) -> TokenStream {
    let tokens: Vec<TokenTree> = body.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut at = 0;
    while at < tokens.len() {
        match (&tokens[at], tokens.get(at + 1)) {
            (TokenTree::Punct(p), Some(TokenTree::Ident(name))) if p.as_char() == '$' => {
                let name = name.to_string();
                match bound.iter().find(|(n, _)| *n == name) {
                    Some((_, value)) => {
                        let stream: TokenStream = value.iter().cloned().collect();
                        out.push(TokenTree::Group(Group::new(Delimiter::None, stream)));
                    }
                    // `$crate` and unknown names stay words.
                    None => out.push(tokens[at + 1].clone()),
                }
                at += 2;
            }
            (TokenTree::Group(g), _) => {
                let mut inner = Group::new(g.delimiter(), transcribe(g.stream(), bound));
                inner.set_span(g.span());
                out.push(TokenTree::Group(inner));
                at += 1;
            }
            (other, _) => {
                out.push(other.clone());
                at += 1;
            }
        }
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn rules(src: &str) -> MacroRules {
        let item: syn::ItemMacro = syn::parse_str(src).expect("macro item");
        parse(&item, 0).expect("rules").1
    }

    fn expand(rules: &MacroRules, call: &str) -> Option<String> {
        let input: TokenStream = call.parse().expect("tokens");
        rules
            .expand(&input)
            .map(|e| e.to_token_stream().to_string())
    }

    #[test]
    fn fragments_are_replaced_by_the_calls_arguments() {
        let m = rules("macro_rules! key { ($t:expr, $k:expr) => { format!(\"{}:{}\", $t, $k) }; }");
        let out = expand(&m, "ctx.tenant, raw.as_str()").expect("expands");
        assert!(out.contains("format !"), "{out}");
        assert!(
            out.contains("ctx . tenant") && out.contains("raw . as_str ()"),
            "{out}"
        );
        // Too few arguments match no rule.
        assert_eq!(expand(&m, "ctx.tenant"), None);
    }

    #[test]
    fn the_first_matching_rule_wins_and_statements_make_a_block() {
        let m = rules(
            "macro_rules! k {
                ($k:ident) => { $k.to_string() };
                ($t:expr => $k:expr) => { let s = $t; format!(\"{s}/{}\", $k) };
            }",
        );
        assert_eq!(expand(&m, "raw").as_deref(), Some("raw . to_string ()"));
        let block = expand(&m, "a + b => key").expect("expands");
        assert!(block.starts_with('{') && block.contains("let s"), "{block}");
    }

    #[test]
    fn repetitions_and_other_macros_are_not_read() {
        let item: syn::ItemMacro =
            syn::parse_str("macro_rules! v { ($($x:expr),*) => { vec![$($x),*] }; }")
                .expect("item");
        assert!(parse(&item, 0).is_none());
        let item: syn::ItemMacro =
            syn::parse_str("lazy_static! { static ref X: u8 = 1; }").expect("item");
        assert!(parse(&item, 0).is_none());
        let item: syn::ItemMacro =
            syn::parse_str("macro_rules! r { ($x:expr) => { r!($x) }; }").expect("item");
        assert!(parse(&item, 0).is_none());
    }
}
