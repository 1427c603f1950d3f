//! The header of an `impl` or `trait` block, read from its tokens: the
//! type its methods belong to and the trait they implement, as the crate
//! index names them (`analysis::index`).

use super::scan::Owner;
use crate::lex::Token;

/// The type an `impl` (or the name a `trait`) block at `tokens[0]` is for,
/// as `CrateIndex` names it: the last segment of a type path, through
/// references. Anything the scan cannot name is `Unknown`.
pub(super) fn block_owner<'t>(tokens: &[Token<'t>], is_trait: bool) -> Owner<'t> {
    if is_trait {
        return match tokens.get(1) {
            Some(Token::Ident(name)) => Owner::Type(name),
            _ => Owner::Unknown,
        };
    }
    let mut angle = 0usize;
    let mut last: Option<&'t str> = None;
    let mut done = false;
    for (k, token) in tokens.iter().enumerate().skip(1) {
        match *token {
            Token::Open(b'{') | Token::Punct(";") => break,
            Token::Ident("where") if angle == 0 => break,
            Token::Punct("<") => angle += 1,
            // `->` inside generics is not a closing angle.
            Token::Punct(">") if tokens.get(k - 1) != Some(&Token::Punct("-")) => {
                angle = angle.saturating_sub(1)
            }
            Token::Ident("for") if angle == 0 => {
                last = None;
                done = false;
            }
            Token::Ident("dyn" | "impl" | "fn") if angle == 0 => return Owner::Unknown,
            Token::Open(b'(' | b'[') if angle == 0 => return Owner::Unknown,
            Token::Ident(name) if angle == 0 && !done => {
                last = Some(name);
                // A lifetime's name (`&'a T`) is followed by the type.
                if tokens.get(k - 1) == Some(&Token::Punct("'")) {
                    last = None;
                }
            }
            _ => {}
        }
        if angle > 0 && last.is_some() {
            done = true;
        }
    }
    last.map_or(Owner::Unknown, Owner::Type)
}

/// The trait an `impl` block at `tokens[0]` implements (the last segment
/// of the path before `for`), or the name of a `trait` block.
pub(super) fn block_trait<'t>(tokens: &[Token<'t>], is_trait: bool) -> Option<&'t str> {
    if is_trait {
        return match tokens.get(1) {
            Some(Token::Ident(name)) => Some(name),
            _ => None,
        };
    }
    let mut angle = 0usize;
    let mut last: Option<&'t str> = None;
    for (k, token) in tokens.iter().enumerate().skip(1) {
        match *token {
            Token::Open(b'{') | Token::Punct(";") => return None,
            Token::Ident("where") if angle == 0 => return None,
            Token::Punct("<") => angle += 1,
            Token::Punct(">") if tokens.get(k - 1) != Some(&Token::Punct("-")) => {
                angle = angle.saturating_sub(1)
            }
            Token::Ident("for") if angle == 0 => return last,
            Token::Ident("dyn" | "impl") if angle == 0 => last = None,
            Token::Ident(name) if angle == 0 => last = Some(name),
            _ => {}
        }
    }
    None
}
