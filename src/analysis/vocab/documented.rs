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
    mentions_any(
        text,
        &[
            "idempotency key",
            "idempotency-key",
            "idempotency_key",
            "idempotencykey",
        ],
    )
}

/// Whether prose says who chose the key: the client or caller.
fn names_the_client(doc: &str) -> bool {
    mentions_any(
        doc,
        &[
            "client",
            "caller",
            "sender",
            "user-supplied",
            "user supplied",
        ],
    )
}

/// Whether `text` contains one of the lower-case `phrases`, in any case.
fn mentions_any(text: &str, phrases: &[&str]) -> bool {
    let lower = text.to_ascii_lowercase();
    phrases.iter().any(|p| lower.contains(p))
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
    if !names_key {
        return Vec::new();
    }
    // A doc comment must name who chose the key; an attribute must be one
    // that documents (`rename`, `alias`, `desc`).
    // (Without their first letter: `Client`, `client`.)
    let by_doc = ["lient", "aller", "ender", "upplied"]
        .iter()
        .any(|h| has(h));
    let by_attribute = ["rename", "alias", "desc"].iter().any(|h| has(h));
    if !by_doc && !by_attribute {
        return Vec::new();
    }
    // One pass of the lexer for both readings.
    let lexed = lex::lex(text);
    let mut names = if by_doc {
        doc_commented_key_names(text, &lexed)
    } else {
        Vec::new()
    };
    if !by_attribute {
        return names;
    }
    let tokens = &lexed.tokens;
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

/// The fields whose doc comment (`/// The client's idempotency key; retries
/// reuse it.`) says they are the idempotency key: the declaration after the
/// comment block, past attributes (`declaration_at`). Only the block's first
/// line says what the field is; a later line naming the key (`Paired with
/// Idempotency-Key, ..` on an `id`) tells how it is used beside it. It must
/// be the *client's* key ("The idempotency key this result is associated
/// with" may be one the server derives), and a field documented as
/// something of the key (its hash, its expiry) or an entity's id is not it.
fn doc_commented_key_names(text: &str, lexed: &lex::Lexed<'_>) -> Vec<String> {
    let comment = |r: &std::ops::Range<usize>| text.get(r.clone()).unwrap_or_default();
    let mut names: Vec<String> = Vec::new();
    let docs = &lexed.doc_comments;
    let mut i = 0;
    while i < docs.len() {
        // The block: doc comments with only whitespace between them.
        let mut end = i;
        while end + 1 < docs.len()
            && (text.get(docs[end].end..docs[end + 1].start))
                .is_some_and(|gap| gap.trim().is_empty())
        {
            end += 1;
        }
        let first = comment(&docs[i]);
        let after = docs[end].end;
        // A parameter a function's doc describes: the unit mentions the
        // key there (the evaluator reads it for that function only).
        for line in &docs[i..=end] {
            if let Some(name) = documented_parameter(comment(line)) {
                if !names.iter().any(|n| n == name) {
                    names.push(name.to_string());
                }
            }
        }
        i = end + 1;
        if !names_idempotency_key(first) || !names_the_client(first) {
            continue;
        }
        let next = lexed
            .spans
            .partition_point(|span| (span.start as usize) < after);
        let Some(name) = declaration_at(&lexed.tokens, next) else {
            continue;
        };
        let of_the_key = super::words(name).iter().any(|w| {
            matches!(
                w.as_str(),
                "hash"
                    | "digest"
                    | "fingerprint"
                    | "ttl"
                    | "expiry"
                    | "expires"
                    | "len"
                    | "length"
                    | "count"
                    | "status"
                    | "state"
                    | "header"
                    | "at"
                    | "id"
                    | "uuid"
            )
        });
        if !of_the_key && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

/// The parameter a line of a function's doc describes as the client's
/// idempotency key (rustdoc's `` * `key` - the client's idempotency key ``,
/// `` `key`: .. ``). It names a parameter of that function only.
pub fn documented_parameter(line: &str) -> Option<&str> {
    let text = line
        .trim_start()
        .trim_start_matches(['/', '!', '*'])
        .trim_start();
    let text = text.strip_prefix(['*', '-']).unwrap_or(text).trim_start();
    let rest = text.strip_prefix('`')?;
    let (name, description) = rest.split_once('`')?;
    let description = description.trim_start();
    let described = description.starts_with([':', '-']) || description.starts_with('\u{2014}');
    let ident = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (ident && described && names_idempotency_key(description) && names_the_client(description))
        .then_some(name)
}

impl Vocabulary {
    /// This vocabulary, knowing `names` as documented client keys.
    pub fn with_documented_keys(mut self, names: &[String]) -> Vocabulary {
        for name in names {
            if !self.documented_keys.contains(name) {
                self.documented_keys.push(name.clone());
            }
        }
        self.with_id()
    }

    /// Whether the unit documents `name` as the client's idempotency key.
    pub fn is_documented_key(&self, name: &str) -> bool {
        self.documented_keys.iter().any(|n| n == name)
    }
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
    declaration_at(tokens, at?)
}

/// The name declared at `tokens[j..]`, past attributes and `pub`/`mut`/
/// `ref` (`#[serde(default)] pub(crate) nonce:` gives `nonce`); anything
/// but a declaration gives nothing.
fn declaration_at<'a>(tokens: &[Token<'a>], mut j: usize) -> Option<&'a str> {
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
    fn doc_comments_document_the_key_but_not_what_belongs_to_it() {
        let text = r#"
            pub struct Command {
                /// Idempotency key chosen by the client; retries reuse it.
                #[serde(default)]
                pub(crate) nonce: String,
                /// Hash of the client's idempotency key, for the audit log.
                key_hash: String,
                /// The idempotency key's expiry.
                expires_at: u64,
                /// The action to run.
                action: String,
                /// The folder's id, minted by the client. Paired with
                /// `Idempotency-Key`, a replayed create is deduplicated.
                pub id: Option<Uuid>,
                /// Client idempotency key of the order this line belongs to.
                pub order_id: Uuid,
                /// The idempotency key this result is associated with.
                pub idem_key: String,
            }
            /// Builds the idempotency key.
            fn build_key() {}
        "#;
        assert_eq!(names(text), ["nonce"]);
    }

    #[test]
    fn an_attribute_on_anything_but_a_declaration_documents_nothing() {
        assert!(names(r#"#[serde(rename = "Idempotency-Key")] struct K;"#).is_empty());
        assert!(names(r#"let desc = "idempotency key"; let x: u8 = 1;"#).is_empty());
    }
}
