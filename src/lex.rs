//! A tiny, allocation-free Rust tokenizer for cheap whole-file scans that
//! must run before (or instead of) parsing: the nesting pre-check and the
//! lexical pre-filter. It only needs to tell comments, string literals,
//! identifiers and brackets apart; it never fails, whatever the input.

use std::ops::Range;

/// One token, borrowing from the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'a> {
    /// An identifier or keyword (`r#` stripped from raw identifiers).
    Ident(&'a str),
    /// The contents of a string, byte-string, C-string or char literal.
    Str(&'a str),
    /// `(`, `[` or `{`.
    Open(u8),
    /// `)`, `]` or `}`.
    Close(u8),
    /// Any other punctuation byte (`||` is one token).
    Punct(&'a str),
}

/// Iterates over the tokens of `text`, skipping comments, whitespace and numbers.
pub fn tokens(text: &str) -> Tokens<'_> {
    Tokens {
        text,
        pos: 0,
        start: 0,
        comments: None,
    }
}

/// A file's tokens with their byte ranges, and its doc comments, from one pass.
#[derive(Debug, Default)]
pub struct Lexed<'a> {
    /// The tokens, as [`tokens`] gives them.
    pub tokens: Vec<Token<'a>>,
    /// Each token's byte range in the text, in `u32`: half the memory of
    /// `usize` ranges, which in a large file is a fifth of its scan's peak.
    /// Offsets past 4 GiB (a size limit far above any Rust file) saturate.
    pub spans: Vec<Range<u32>>,
    /// The byte ranges of the doc comments (`///`, `//!`, `/** */`,
    /// `/*! */`): the comments syn turns into `#[doc]` attributes.
    pub doc_comments: Vec<Range<usize>>,
}

/// Tokenizes `text` once for a scan that needs positions (see [`Lexed`]).
pub fn lex(text: &str) -> Lexed<'_> {
    let mut all = tokens(text);
    all.comments = Some(Vec::new());
    // About one token per four bytes of Rust: growing by doubling instead
    // copied the vectors of a large file several times over.
    let expected = text.len() / 4;
    let mut lexed = Lexed {
        tokens: Vec::with_capacity(expected),
        spans: Vec::with_capacity(expected),
        doc_comments: Vec::new(),
    };
    let offset = |at: usize| u32::try_from(at).unwrap_or(u32::MAX);
    while let Some(token) = all.next() {
        lexed.tokens.push(token);
        lexed.spans.push(offset(all.start)..offset(all.pos));
    }
    let mut comments = all.comments.unwrap_or_default();
    comments.retain(|range| {
        let comment = text.as_bytes().get(range.clone()).unwrap_or_default();
        let doc = |prefix: &[u8], not: &[&[u8]]| {
            comment.starts_with(prefix) && !not.iter().any(|n| comment.starts_with(n))
        };
        doc(b"///", &[b"////"])
            || doc(b"//!", &[])
            || doc(b"/**", &[b"/***", b"/**/"])
            || doc(b"/*!", &[])
    });
    lexed.doc_comments = comments;
    lexed
}

/// Where a text's comments and string literals are, for asking what a
/// byte offset is inside.
#[derive(Debug, Default)]
pub struct Regions {
    /// Every comment (doc comments too), in order.
    pub comments: Vec<Range<usize>>,
    /// Every string, byte-string, C-string or char literal, in order.
    pub strings: Vec<Range<usize>>,
}

/// The [`Regions`] of `text`, from one pass.
pub fn regions(text: &str) -> Regions {
    let mut all = tokens(text);
    all.comments = Some(Vec::new());
    let mut strings = Vec::new();
    while let Some(token) = all.next() {
        if let Token::Str(_) = token {
            strings.push(all.start..all.pos);
        }
    }
    Regions {
        comments: all.comments.unwrap_or_default(),
        strings,
    }
}

impl Regions {
    /// Whether byte `at` is inside a comment.
    pub fn in_comment(&self, at: usize) -> bool {
        holder(&self.comments, at).is_some()
    }

    /// The string or char literal byte `at` is inside, quotes included.
    pub fn string_at(&self, at: usize) -> Option<Range<usize>> {
        holder(&self.strings, at).cloned()
    }
}

/// The range of sorted, disjoint `ranges` holding `at`.
fn holder(ranges: &[Range<usize>], at: usize) -> Option<&Range<usize>> {
    let i = ranges.partition_point(|r| r.start <= at);
    ranges[..i].last().filter(|r| r.contains(&at))
}

/// See [`tokens`].
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    text: &'a str,
    pos: usize,
    /// Where the token last returned starts.
    start: usize,
    /// Comment ranges, when asked for (see [`lex`]).
    comments: Option<Vec<Range<usize>>>,
}

/// Whether an identifier can start with byte `b` (any non-ASCII byte can:
/// the scan over-approximates Unicode identifiers).
pub fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

/// Whether byte `b` can continue an identifier.
pub fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Whether all of `name` is one identifier, as the lexer would read it.
pub fn is_ident(name: &str) -> bool {
    name.bytes().next().is_some_and(is_ident_start) && name.bytes().all(is_ident_continue)
}

impl<'a> Tokens<'a> {
    /// Advances to the next char boundary at or after `pos`, so slicing
    /// never panics on multi-byte characters.
    fn boundary(&self, mut pos: usize) -> usize {
        while pos < self.text.len() && !self.text.is_char_boundary(pos) {
            pos += 1;
        }
        pos.min(self.text.len())
    }

    fn skip_block_comment(&mut self) {
        let bytes = self.text.as_bytes();
        let mut depth = 0usize;
        while self.pos < bytes.len() {
            if bytes[self.pos..].starts_with(b"/*") {
                depth += 1;
                self.pos += 2;
            } else if bytes[self.pos..].starts_with(b"*/") {
                depth = depth.saturating_sub(1);
                self.pos += 2;
                if depth == 0 {
                    return;
                }
            } else {
                self.pos += 1;
            }
        }
    }

    /// A quoted literal starting at `self.pos` (the opening quote).
    fn quoted(&mut self, quote: u8) -> Token<'a> {
        let bytes = self.text.as_bytes();
        let start = self.pos + 1;
        let mut i = start;
        while i < bytes.len() && bytes[i] != quote {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        let end = self.boundary(i.min(bytes.len()));
        self.pos = self.boundary(end + 1);
        Token::Str(&self.text[start..end])
    }

    /// A raw string whose `r` is at `self.pos`, or `None` when it is not one.
    fn raw_string(&mut self, r_at: usize) -> Option<Token<'a>> {
        let bytes = self.text.as_bytes();
        let mut i = r_at + 1;
        let mut hashes = 0;
        while i < bytes.len() && bytes[i] == b'#' {
            hashes += 1;
            i += 1;
        }
        if i >= bytes.len() || bytes[i] != b'"' {
            return None;
        }
        let start = i + 1;
        let mut j = start;
        while j < bytes.len() {
            if bytes[j] == b'"'
                && bytes.len() - (j + 1) >= hashes
                && bytes[j + 1..j + 1 + hashes].iter().all(|&b| b == b'#')
            {
                let end = j;
                self.pos = self.boundary(j + 1 + hashes);
                return Some(Token::Str(&self.text[start..end]));
            }
            j += 1;
        }
        self.pos = bytes.len();
        Some(Token::Str(&self.text[start..]))
    }

    /// After `'`: a char literal or a lifetime/label.
    fn quote(&mut self) -> Token<'a> {
        let bytes = self.text.as_bytes();
        let after = self.pos + 1;
        if bytes.get(after) == Some(&b'\\') {
            return self.quoted(b'\'');
        }
        // `'x'` is a char literal (x may be multi-byte); `'a` a lifetime.
        let next = self.boundary(after + 1);
        if bytes.get(next) == Some(&b'\'') {
            self.pos = next + 1;
            return Token::Str(&self.text[after..next]);
        }
        self.pos = after;
        Token::Punct("'")
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let bytes = self.text.as_bytes();
        loop {
            let b = *bytes.get(self.pos)?;
            self.start = self.pos;
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' if bytes.get(self.pos + 1) == Some(&b'/') => {
                    self.pos = memchr::memchr(b'\n', &bytes[self.pos..])
                        .map_or(bytes.len(), |i| self.pos + i);
                    if let Some(comments) = &mut self.comments {
                        comments.push(self.start..self.pos);
                    }
                }
                b'/' if bytes.get(self.pos + 1) == Some(&b'*') => {
                    self.skip_block_comment();
                    self.pos = self.boundary(self.pos);
                    if let Some(comments) = &mut self.comments {
                        comments.push(self.start..self.pos);
                    }
                }
                b'"' => return Some(self.quoted(b'"')),
                b'\'' => return Some(self.quote()),
                b'(' | b'[' | b'{' => {
                    self.pos += 1;
                    return Some(Token::Open(b));
                }
                b')' | b']' | b'}' => {
                    self.pos += 1;
                    return Some(Token::Close(b));
                }
                b'0'..=b'9' => {
                    while self.pos < bytes.len()
                        && (is_ident_continue(bytes[self.pos])
                            || (bytes[self.pos] == b'.'
                                && bytes.get(self.pos + 1).is_some_and(u8::is_ascii_digit)))
                    {
                        self.pos += 1;
                    }
                    self.pos = self.boundary(self.pos);
                }
                _ if is_ident_start(b) => {
                    let start = self.pos;
                    // Literal prefixes: b"", br"", r"", r#""#, c"", cr"".
                    let prefix_end = (start..bytes.len().min(start + 3))
                        .find(|&i| !matches!(bytes[i], b'b' | b'r' | b'c'))
                        .unwrap_or(bytes.len().min(start + 3));
                    if prefix_end > start {
                        let prefix = &bytes[start..prefix_end];
                        let r_at = prefix.iter().position(|&c| c == b'r').map(|i| start + i);
                        if let Some(r_at) = r_at {
                            if matches!(bytes.get(r_at + 1), Some(b'"') | Some(b'#'))
                                && r_at + 1 == prefix_end
                            {
                                if let Some(token) = self.raw_string(r_at) {
                                    return Some(token);
                                }
                                // `r#ident`: a raw identifier.
                                if bytes.get(r_at + 1) == Some(&b'#') && r_at == start {
                                    self.pos = start + 2;
                                    continue;
                                }
                            }
                        } else if prefix_end == start + 1 && bytes.get(prefix_end) == Some(&b'"') {
                            self.pos = prefix_end;
                            return Some(self.quoted(b'"'));
                        } else if prefix_end == start + 1
                            && prefix[0] == b'b'
                            && bytes.get(prefix_end) == Some(&b'\'')
                        {
                            self.pos = prefix_end;
                            return Some(self.quote());
                        }
                    }
                    let mut end = start;
                    while end < bytes.len() && is_ident_continue(bytes[end]) {
                        end += 1;
                    }
                    let end = self.boundary(end);
                    self.pos = end;
                    return Some(Token::Ident(&self.text[start..end]));
                }
                b'|' if bytes.get(self.pos + 1) == Some(&b'|') => {
                    self.pos += 2;
                    return Some(Token::Punct("||"));
                }
                _ => {
                    let end = self.boundary(self.pos + 1);
                    let token = Token::Punct(&self.text[self.pos..end]);
                    self.pos = end;
                    return Some(token);
                }
            }
        }
    }
}

/// A cheap upper-bound proxy for how deeply syn will recurse on `text`:
/// bracket depth plus, per bracket level, the chain of right-nesting
/// operators (`<`, `=`, `|`, `||`, `return`, `break`) since the last `;`, `,`
/// or closed block. syn's parser (and dropping its tree) recurses on each.
pub fn nesting_score(text: &str) -> usize {
    let mut chains: Vec<usize> = vec![0];
    let mut sum = 0usize;
    let mut best = 0usize;
    let mut previous: Option<Token<'_>> = None;
    let mut tokens = tokens(text).peekable();
    while let Some(token) = tokens.next() {
        let prev = previous.replace(token);
        let chained = match token {
            Token::Open(_) => {
                chains.push(0);
                false
            }
            Token::Close(close) => {
                if chains.len() > 1 {
                    sum -= chains.pop().unwrap_or(0);
                }
                if close == b'}' {
                    if let Some(top) = chains.last_mut() {
                        sum -= *top;
                        *top = 0;
                    }
                }
                false
            }
            Token::Punct(";") | Token::Punct(",") => {
                if let Some(top) = chains.last_mut() {
                    sum -= *top;
                    *top = 0;
                }
                false
            }
            // A plain `=` (not `==`, `=>`, `<=`, `..=`, `+=`): assignment
            // chains nest to the right.
            Token::Punct("=") => {
                let joined = matches!(
                    prev,
                    Some(Token::Punct(
                        "=" | "<" | ">" | "!" | "." | "+" | "-" | "*" | "/" | "%" | "^" | "&" | "|"
                    ))
                );
                let next_joins = matches!(tokens.peek(), Some(Token::Punct("=" | ">")));
                !joined && !next_joins
            }
            // `|a| |b| ..`: a closure whose body is a closure. A single `|`
            // also separates or-patterns, which syn keeps flat.
            Token::Punct("|") => matches!(prev, Some(Token::Punct("|" | "||"))),
            Token::Punct("<")
            | Token::Punct("||")
            | Token::Ident("return")
            | Token::Ident("break") => true,
            _ => continue,
        };
        if chained {
            if let Some(top) = chains.last_mut() {
                *top += 1;
                sum += 1;
            }
        }
        best = best.max(chains.len() - 1 + sum);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(text: &str) -> Vec<&str> {
        tokens(text)
            .filter_map(|t| match t {
                Token::Ident(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn comments_and_strings_are_not_identifiers() {
        let text = "fn a() { // idem\n /* x /* nested */ y */ let s = \"(idem\"; r#\"q\"# }";
        assert_eq!(idents(text), ["fn", "a", "let", "s"]);
        let strs: Vec<&str> = tokens(text)
            .filter_map(|t| match t {
                Token::Str(s) => Some(s),
                _ => None,
            })
            .collect();
        assert_eq!(strs, ["(idem", "q"]);
    }

    #[test]
    fn lifetimes_chars_and_raw_identifiers() {
        let text = "fn f<'a>(x: &'a str) -> char { let c = '{'; let r#match = b'\"'; 'é' }";
        assert_eq!(
            idents(text),
            ["fn", "f", "a", "x", "a", "str", "char", "let", "c", "let", "match"]
        );
        // `{` in a char literal does not open: the body brace, `<` and `=` only.
        assert_eq!(nesting_score(text), 3);
    }

    #[test]
    fn nesting_counts_brackets_and_chains() {
        // Two brackets plus the pending `<`; the closed `{}` ends the chain.
        assert_eq!(nesting_score("fn f() { if a < b {} if a < b {} }"), 3);
        assert!(nesting_score(&format!("fn f() {{ {} }}", "((".repeat(600))) >= 1200);
        assert!(nesting_score(&format!("type T = {}u8;", "Vec<".repeat(700))) >= 700);
        assert!(nesting_score(&format!("fn f() {{ x = {}1; }}", "|a| ".repeat(400))) >= 400);
        assert!(nesting_score(&"a = ".repeat(900)) >= 900);
        let table = format!("static T: &[(u8, u8)] = &[{}];", "(1, 2), ".repeat(5000));
        assert!(nesting_score(&table) < 10);
        // Or-patterns of ranges (unicode tables) and comparisons are flat.
        let arms = format!(
            "fn f(c: char) -> bool {{ match c {{ 'a' {} => true, _ => a == b && c <= d }} }}",
            "| 'b'..='c' ".repeat(5000)
        );
        assert!(nesting_score(&arms) < 10, "{}", nesting_score(&arms));
    }

    #[test]
    fn never_panics_on_truncated_input() {
        for text in [
            "\"abc", "r#\"abc", "'", "b'", "/* x", "br##\"", "'é", "r#", "1..",
        ] {
            let _ = tokens(text).count();
            let _ = nesting_score(text);
        }
    }
}
