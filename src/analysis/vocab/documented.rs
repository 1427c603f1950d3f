//! Fields and parameters documented as the client's idempotency key
//! (rules.md, "Evidence and confidence": a source): a serde rename or alias
//! to the key header's name (`#[serde(rename = "Idempotency-Key")] token:
//! String`), or a description attribute that says so
//! (`#[graphql(desc = "The client's idempotency key")] token: String`).
//! What they are called then says nothing; what they are documented as does.

use crate::lex::{self, Token};

use super::Vocabulary;

/// Whether an attribute value documents the client's idempotency key: the
/// key header's name, or a description naming the idempotency key.
fn documents_client_key(vocab: &Vocabulary, key: &str, literal: &str) -> bool {
    match key {
        "rename" | "alias" | "name" => vocab.is_key_header(literal),
        "desc" | "description" | "doc" => names_idempotency_key(literal),
        _ => false,
    }
}

/// Whether `tokens` start with `key = "literal"` documenting the client's key.
fn documenting(tokens: &[Token<'_>], vocab: &Vocabulary) -> bool {
    matches!(
        tokens,
        [Token::Ident(key), Token::Punct("="), Token::Str(literal), ..]
            if documents_client_key(vocab, key, literal)
    )
}

/// Whether an attribute's text (`graphql(desc = "The client's idempotency
/// key")`) documents what it is on as the client's idempotency key.
pub fn attribute_documents_client_key(attribute: &str, vocab: &Vocabulary) -> bool {
    let tokens: Vec<Token<'_>> = lex::tokens(attribute).collect();
    (0..tokens.len()).any(|i| documenting(&tokens[i..], vocab))
}

/// Whether prose names the idempotency key (`"The client's idempotency key"`,
/// `"Idempotency-Key for retries"`).
fn names_idempotency_key(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    [
        "idempotency key",
        "idempotency-key",
        "idempotency_key",
        "idempotencykey",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

/// The names of the fields and parameters `text` documents as the client's
/// idempotency key: the identifier before the `:` that follows such an
/// attribute (past further attributes and `pub`/`mut`).
pub fn documented_key_names(text: &str, vocab: &Vocabulary) -> Vec<String> {
    // Only a text naming the key (its header, or "idempotency key" in prose)
    // can document it: one byte search instead of tokenizing every file
    // that says `desc` or `rename`.
    let has = |needle: &str| memchr::memmem::find(text.as_bytes(), needle.as_bytes()).is_some();
    let names_key = has("dempot")
        || has("DEMPOT")
        || (vocab.headers.iter())
            .filter(|h| !super::text::contains_ci(h, "dempot"))
            .any(|h| super::text::contains_ci(text, h));
    let hints = ["rename", "alias", "desc"];
    if !names_key || !hints.iter().any(|h| has(h)) {
        return Vec::new();
    }
    let tokens: Vec<Token<'_>> = lex::tokens(text).collect();
    let mut names = Vec::new();
    let mut i = 0;
    while i + 2 < tokens.len() {
        let documented = documenting(&tokens[i..], vocab);
        i += 1;
        if !documented {
            continue;
        }
        if let Some(name) = next_declared_name(&tokens[i..]) {
            if !names.iter().any(|n: &String| n == name) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// The name declared after the attribute that `tokens` starts inside:
/// `] pub token:` gives `token`; an attribute that closes onto anything but
/// a declaration gives nothing.
fn next_declared_name<'a>(tokens: &[Token<'a>]) -> Option<&'a str> {
    // Out of the attribute: its `]` closes the bracket depth it opened in.
    let mut depth = 0i32;
    let mut at = None;
    for (j, t) in tokens.iter().enumerate().take(64) {
        match t {
            Token::Open(_) => depth += 1,
            // The attribute's `]`: the first one at or below where the
            // value sat (inside `serde(..)` it is one level down).
            Token::Close(b']') if depth <= 0 => {
                at = Some(j + 1);
                break;
            }
            Token::Close(_) => depth -= 1,
            _ => {}
        }
    }
    let mut j = at?;
    loop {
        match tokens.get(j)? {
            // Another attribute: skip it whole.
            Token::Punct("#") => {
                let mut depth = 0;
                j += 1;
                loop {
                    match tokens.get(j)? {
                        Token::Open(_) => depth += 1,
                        Token::Close(_) => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                j += 1;
            }
            Token::Ident("pub" | "mut" | "ref") => {
                j += 1;
                if tokens.get(j) == Some(&Token::Open(b'(')) {
                    j += 3; // `pub(crate)`
                }
            }
            Token::Ident(name) if tokens.get(j + 1) == Some(&Token::Punct(":")) => {
                return Some(name);
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        documented_key_names(text, &Vocabulary::default())
    }

    #[test]
    fn serde_renames_and_descriptions_document_the_key() {
        let text = r#"
            struct CreateOrder {
                #[serde(rename = "Idempotency-Key")]
                #[validate(length(max = 64))]
                pub token: String,
                #[serde(rename = "X-Request-Id")]
                pub trace: String,
            }
            impl M {
                async fn pay(&self, #[graphql(desc = "The client's idempotency key")] nonce: String, amount: i64) {}
                async fn refund(&self, #[graphql(desc = "Amount to refund")] amount: i64) {}
            }
        "#;
        assert_eq!(names(text), ["token", "nonce"]);
    }

    #[test]
    fn an_attribute_on_anything_but_a_declaration_documents_nothing() {
        assert!(names(r#"#[serde(rename = "Idempotency-Key")] struct K;"#).is_empty());
        assert!(names(r#"let desc = "idempotency key"; let x: u8 = 1;"#).is_empty());
    }
}
