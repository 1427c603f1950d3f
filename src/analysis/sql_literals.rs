//! SQL DDL inside Rust string literals: `const SCHEMA: &str = r#"CREATE
//! TABLE .."#`, `sqlx::query!("ALTER TABLE ..")`, `client.batch_execute("..")`.
//!
//! Every string literal of the file is a candidate, in expressions, `const`
//! items and macro arguments alike, because DDL reaches the database through
//! too many APIs to list. Doc comments and test code are skipped. Each char
//! of the literal's value is mapped back to its place in the file, through
//! escapes, line continuations and raw-string delimiters.

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

use super::sql_source::SqlSource;
use super::syntax::span_of;
use super::test_support::{is_test, is_test_module};
use crate::diagnostic::Position;

/// A string literal whose value looks like DDL.
#[derive(Debug, Clone)]
pub struct DdlLiteral {
    /// The literal's value.
    pub value: String,
    /// Where each char of the value is in the file.
    pub source: SqlSource,
}

/// The DDL-looking string literals of a file, in source order.
pub fn ddl_literals(file: &syn::File) -> Vec<DdlLiteral> {
    let mut collector = Collector { out: Vec::new() };
    collector.visit_file(file);
    collector.out
}

struct Collector {
    out: Vec<DdlLiteral>,
}

impl Collector {
    fn literal(&mut self, lit: &syn::LitStr) {
        let value = lit.value();
        if !looks_like_ddl(&value) {
            return;
        }
        let source = map_literal(lit.span(), &value);
        self.out.push(DdlLiteral { value, source });
    }

    fn tokens(&mut self, tokens: TokenStream) {
        let mut after_pound = false;
        for tree in tokens {
            let pound = matches!(&tree, TokenTree::Punct(p) if p.as_char() == '#' || (after_pound && p.as_char() == '!'));
            match tree {
                // `#[doc = ".."]` inside a macro body: documentation again.
                TokenTree::Group(group)
                    if after_pound && group.delimiter() == proc_macro2::Delimiter::Bracket => {}
                TokenTree::Group(group) => self.tokens(group.stream()),
                TokenTree::Literal(literal) => {
                    let stream = TokenStream::from(TokenTree::Literal(literal));
                    if let Ok(lit) = syn::parse2::<syn::LitStr>(stream) {
                        self.literal(&lit);
                    }
                }
                _ => {}
            }
            after_pound = pound;
        }
    }
}

impl<'ast> Visit<'ast> for Collector {
    // Doc comments are attributes: their SQL is documentation, often of
    // exactly the design the rule warns about.
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
        self.literal(lit);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // `concat!("CREATE TABLE t (\n", "  key TEXT PRIMARY KEY\n", ")")`:
        // one statement, read whole.
        if mac
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "concat")
        {
            if let Some(joined) = concatenated(mac).filter(|d| looks_like_ddl(&d.value)) {
                self.out.push(joined);
                return;
            }
        }
        self.tokens(mac.tokens.clone());
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_test_module(item) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_impl(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_impl_item_fn(self, item);
        }
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_trait_item_fn(self, item);
        }
    }

    fn visit_item_const(&mut self, item: &'ast syn::ItemConst) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_const(self, item);
        }
    }

    fn visit_item_static(&mut self, item: &'ast syn::ItemStatic) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_static(self, item);
        }
    }
}

/// The text `concat!` makes of string literals only, each char mapped to
/// its place in its literal; `None` when another kind of argument is there.
fn concatenated(mac: &syn::Macro) -> Option<DdlLiteral> {
    use syn::punctuated::Punctuated;
    let parts = mac
        .parse_body_with(Punctuated::<syn::Lit, syn::Token![,]>::parse_terminated)
        .ok()?;
    let mut value = String::new();
    let (mut starts, mut ends) = (Vec::new(), Vec::new());
    let mut end = None;
    for part in &parts {
        let syn::Lit::Str(lit) = part else {
            return None;
        };
        let text = lit.value();
        let SqlSource::Literal {
            starts: mut s,
            ends: e,
        } = map_literal(lit.span(), &text)
        else {
            return None;
        };
        end = s.pop();
        starts.extend(s);
        ends.extend(e);
        value.push_str(&text);
    }
    starts.push(end?);
    Some(DdlLiteral {
        value,
        source: SqlSource::Literal { starts, ends },
    })
}

/// A statement that reads or writes rows: its first word is `SELECT`,
/// `INSERT`, `UPDATE`, `DELETE`, `UPSERT`, `REPLACE`, `MERGE` or `WITH`, and
/// it has more than one word. A text given to a method in that shape is a
/// statement run with its binds beside it, whatever the client library
/// calls the method (`exec_first(SQL, (a,))`, `query_row(SQL, [a], ..)`).
pub fn looks_like_dml(value: &str) -> bool {
    let mut words = value.split_whitespace();
    let first = words.next().unwrap_or_default().to_ascii_uppercase();
    matches!(
        first.as_str(),
        "SELECT" | "INSERT" | "UPDATE" | "DELETE" | "UPSERT" | "REPLACE" | "MERGE" | "WITH"
    ) && words.next().is_some()
}

/// `CREATE [TEMP] TABLE`, `ALTER TABLE` or `CREATE UNIQUE INDEX` somewhere in
/// the text: a cheap filter before the SQL tokenizer sees it.
pub fn looks_like_ddl(value: &str) -> bool {
    let words: Vec<String> = value
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .take(10_000)
        .map(|w| w.to_ascii_uppercase())
        .collect();
    words.iter().enumerate().any(|(i, w)| match w.as_str() {
        "CREATE" => words[i + 1..]
            .iter()
            .find(|next| {
                !matches!(
                    next.as_str(),
                    "OR" | "REPLACE" | "TEMP" | "TEMPORARY" | "UNLOGGED" | "GLOBAL" | "LOCAL"
                )
            })
            .is_some_and(|next| next == "TABLE" || next == "UNIQUE"),
        "ALTER" => words.get(i + 1).is_some_and(|next| next == "TABLE"),
        _ => false,
    })
}

/// Maps each char of `value` to its position in the file. When the source
/// text is unavailable or does not decode to `value` (a literal produced by
/// a macro), every char maps to the literal's start.
fn map_literal(span: proc_macro2::Span, value: &str) -> SqlSource {
    let origin = span_of(span).start;
    let decoded = span
        .source_text()
        .and_then(|text| decode(&text, origin))
        .filter(|(text, _, _)| text == value);
    match decoded {
        Some((_, starts, ends)) => SqlSource::Literal { starts, ends },
        None => {
            let n = value.chars().count();
            SqlSource::Literal {
                starts: vec![origin; n + 1],
                ends: vec![origin; n],
            }
        }
    }
}

/// A cursor over a literal's source text that knows the file position.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Position,
}

impl Cursor<'_> {
    fn next(&mut self) -> Option<char> {
        let ch = self.chars.next()?;
        if ch == '\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else {
            self.pos.column += 1;
        }
        Some(ch)
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }
}

type Decoded = (String, Vec<Position>, Vec<Position>);

/// Decodes a string literal's source text (`"a\nb"`, `r#"..."#`), returning
/// the value with the file position where each char starts and ends.
fn decode(source: &str, origin: Position) -> Option<Decoded> {
    let mut cur = Cursor {
        chars: source.chars().peekable(),
        pos: origin,
    };
    let mut value = String::new();
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    if cur.peek() == Some('r') {
        cur.next();
        let mut hashes = 0;
        while cur.peek() == Some('#') {
            cur.next();
            hashes += 1;
        }
        if cur.next() != Some('"') {
            return None;
        }
        let closing: String = std::iter::once('"')
            .chain(std::iter::repeat_n('#', hashes))
            .collect();
        let body = source.get(2 + hashes..source.rfind(&closing)?)?;
        for _ in body.chars() {
            let at = cur.pos;
            let ch = cur.next()?;
            starts.push(at);
            ends.push(cur.pos);
            value.push(ch);
        }
        starts.push(cur.pos);
        return Some((value, starts, ends));
    }
    if cur.next() != Some('"') {
        return None;
    }
    loop {
        let at = cur.pos;
        let ch = cur.next()?;
        match ch {
            '"' => {
                starts.push(at);
                return Some((value, starts, ends));
            }
            '\\' => {
                let escape = cur.next()?;
                let decoded = match escape {
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    '0' => '\0',
                    '\\' | '\'' | '"' => escape,
                    'x' => {
                        let hex: String = [cur.next()?, cur.next()?].iter().collect();
                        char::from(u8::from_str_radix(&hex, 16).ok()?)
                    }
                    'u' => {
                        if cur.next()? != '{' {
                            return None;
                        }
                        let mut hex = String::new();
                        loop {
                            match cur.next()? {
                                '}' => break,
                                '_' => {}
                                c => hex.push(c),
                            }
                        }
                        char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?
                    }
                    '\n' | '\r' => {
                        // A line continuation: the newline and the next
                        // line's leading whitespace are not part of the value.
                        while cur.peek().is_some_and(|c| c.is_whitespace()) {
                            cur.next();
                        }
                        continue;
                    }
                    _ => return None,
                };
                starts.push(at);
                ends.push(cur.pos);
                value.push(decoded);
            }
            _ => {
                starts.push(at);
                ends.push(cur.pos);
                value.push(ch);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: usize, column: usize) -> Position {
        Position { line, column }
    }

    #[test]
    fn escapes_map_to_their_source() {
        let (value, starts, ends) = decode(
            r#""a\nb\u{e9}c\
            d""#,
            pos(3, 10),
        )
        .expect("decodes");
        assert_eq!(value, "a\nbécd");
        assert_eq!(starts[0], pos(3, 11));
        assert_eq!(starts[1], pos(3, 12));
        assert_eq!(ends[1], pos(3, 14));
        assert_eq!(starts[3], pos(3, 15));
        assert_eq!(ends[3], pos(3, 21));
        assert_eq!(starts[5], pos(4, 13));
    }

    #[test]
    fn raw_strings_skip_their_delimiters() {
        let (value, starts, _) = decode("r##\"x\"#\ny\"##", pos(1, 5)).expect("decodes");
        assert_eq!(value, "x\"#\ny");
        assert_eq!(starts[0], pos(1, 9));
        assert_eq!(starts[4], pos(2, 1));
        assert_eq!(starts[5], pos(2, 2));
    }

    #[test]
    fn ddl_filter() {
        assert!(looks_like_ddl("create temporary table t (x int)"));
        assert!(looks_like_ddl("CREATE UNIQUE INDEX i ON t (x)"));
        assert!(looks_like_ddl("\n  ALTER TABLE t ADD PRIMARY KEY (x)"));
        assert!(!looks_like_ddl(
            "SELECT * FROM idempotency_keys WHERE key = $1"
        ));
        assert!(!looks_like_ddl("create the table later"));
    }
}
