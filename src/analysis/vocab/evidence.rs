//! Idempotency evidence in a unit's texts: the one reading both the
//! analysis (IDEM003 and IDEM004's idempotency context) and the
//! pre-filter's unit gate use, so that the gate can never skip a unit the
//! analysis would report in.
//!
//! Evidence is in code and string literals; Rust comments hold none (a
//! comment calling a future "non-idempotent" is no idempotency code, and
//! nothing the analysis reads is in a comment: SQL in doc comments is
//! documentation, `analysis::sql_literals`). SQL files count whole.
//!
//! A word counts where a word starts (`idem_key`, `IdemStore`, `"Idempotency-Key"`,
//! `request_dedup`), never inside another word (`InvalidEmptyPayload`,
//! `DecideMultiByte`): every name the analysis reads is matched by its
//! words (`text::words`), which start at those same places. A key
//! constructor counts only where it is called (`scoped(`), which is the
//! only place the analysis reads it: `scoped` in a comment or `mod scoped`
//! is no evidence.

use aho_corasick::AhoCorasick;

use super::vocabulary::Vocabulary;

/// Compiled evidence words; see the module docs.
#[derive(Debug, Clone)]
pub struct Evidence {
    /// Words that count wherever a word starts. `None` when the automaton
    /// could not be built (absurd configured lists): then every text holds
    /// evidence, the safe answer.
    words: Option<AhoCorasick>,
    /// The last segments of key constructors, which count where called.
    calls: Option<AhoCorasick>,
    /// Whether there are constructors to look for at all.
    any_calls: bool,
    /// The tenant's and the principal's names ([`Evidence::scope_in_rust`]).
    tenant: Option<AhoCorasick>,
    principal: Option<AhoCorasick>,
    vocab: Vocabulary,
}

impl Evidence {
    /// The evidence of `vocab`: [`Vocabulary::evidence_words`] and its key
    /// constructors.
    pub fn new(vocab: &Vocabulary) -> Evidence {
        let (words, calls) = vocab.evidence_words();
        Evidence {
            words: compile_words(words),
            any_calls: !calls.is_empty(),
            calls: compile_words(calls),
            tenant: compile_identifiers(scope_words(&vocab.tenant)),
            principal: compile_identifiers(scope_words(&vocab.principal)),
            vocab: vocab.clone(),
        }
    }

    /// Whether Rust `text` holds evidence in its code or string literals.
    pub fn in_rust(&self, text: &str) -> bool {
        let mut regions = None;
        self.find(text, |at| {
            if foreign_api_name(text, at) {
                return false;
            }
            let regions = regions.get_or_insert_with(|| crate::lex::regions(text));
            !regions.in_comment(at) && !in_doc_attribute(text, regions, at)
        }) || self.scoping_chain(text)
            || dedups_request_id(text)
    }

    /// Which of the tenant and the principal `text` names
    /// (`(tenant, principal)`) by a whole snake-case identifier (`org_id`,
    /// `member.user_id`; not a word inside one, `user_agent`, nor a type,
    /// `Principal`): where both
    /// are named, a payload hash in a key beside both and an operation is a
    /// hand-made scoped key with the hash in the client key's place, which
    /// is idempotency code whatever the store is called (IDEM003,
    /// `UnitFacts::scope_files`). Comments count too: this gates where the
    /// analysis looks, and lexing every keyless file of a library for its
    /// comments cost the bench half its memory again. An absurd configured
    /// list (no automaton) names both.
    pub fn scope_in_rust(&self, text: &str) -> (bool, bool) {
        let (Some(tenant), Some(principal)) = (&self.tenant, &self.principal) else {
            return (true, true);
        };
        let bytes = text.as_bytes();
        // Leftmost-longest: a match inside a longer identifier never hides
        // a whole one, since no name spans two identifiers.
        let named = |matcher: &AhoCorasick| {
            (matcher.find_iter(text)).any(|hit| ident_span(bytes, hit.start()) == hit.range())
        };
        let tenant = named(tenant);
        (tenant, tenant && named(principal))
    }

    /// Whether Rust `text` names both a tenant and a principal
    /// ([`Evidence::scope_in_rust`]).
    pub fn names_scope_in(&self, text: &str) -> bool {
        self.scope_in_rust(text) == (true, true)
    }

    /// Whether `text` calls setters of all three scope components and a
    /// `.key(..)` (`KeyBuilder::new().tenant(t).principal(p).route(r)
    /// .key(k)`): a scoping constructor of the crate's own, which rules.md
    /// counts as one (it "combines tenant, principal, route and the key
    /// into one value"), called where no other word shows idempotency.
    fn scoping_chain(&self, text: &str) -> bool {
        if !text.contains(".key(") {
            return false;
        }
        // Comments are lexed only for a text that has all three calls.
        self.component_calls(text, |_| true)
            && self.component_calls(text, {
                let regions = crate::lex::regions(text);
                move |at| !regions.in_comment(at)
            })
    }

    /// Whether `text` calls a method named for each scope component at
    /// offsets `counts`.
    fn component_calls(&self, text: &str, counts: impl Fn(usize) -> bool) -> bool {
        let bytes = text.as_bytes();
        let mut seen = [false; 3];
        for dot in memchr::memchr_iter(b'.', bytes) {
            let span = ident_span(bytes, dot + 1);
            if span.start != dot + 1 || span.is_empty() || bytes.get(span.end) != Some(&b'(') {
                continue;
            }
            let component = text.get(span).and_then(|m| self.vocab.component_of_name(m));
            if let Some(component) = component.filter(|_| counts(dot)) {
                seen[component as usize] = true;
                if seen.iter().all(|s| *s) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether SQL `text` holds evidence anywhere.
    pub fn in_sql(&self, text: &str) -> bool {
        self.find(text, |_| true)
    }

    /// Whether a word of evidence starts in `text` at an offset `counts`.
    fn find(&self, text: &str, mut counts: impl FnMut(usize) -> bool) -> bool {
        let (Some(words), Some(calls)) = (&self.words, &self.calls) else {
            return true;
        };
        word_hits(words, text).any(&mut counts)
            || (self.any_calls
                && hits(calls, text).any(|at| self.is_constructor_call(text, at) && counts(at)))
    }

    /// Whether the identifier around `at` is a key constructor followed by
    /// a call (or a turbofish, or a comment that may precede one).
    fn is_constructor_call(&self, text: &str, at: usize) -> bool {
        let span = ident_span(text.as_bytes(), at);
        let follow = text.as_bytes()[span.end..].trim_ascii_start();
        let turbofish = follow
            .strip_prefix(b"::")
            .is_some_and(|rest| rest.trim_ascii_start().first() == Some(&b'<'));
        let called = turbofish || matches!(follow.first(), Some(b'(' | b'/'));
        called
            && text
                .get(span)
                .is_some_and(|word| self.vocab.is_key_constructor(word))
    }
}

/// The words that make a name a tenant's or a principal's besides the
/// configured names (`Vocabulary::component_of_name`'s qualified forms).
/// Snake-case identifiers matched as written (a field or binding, `org_id`;
/// not a type, `Principal`), leftmost-longest; `None` as [`compile_words`].
/// Whether the word at `at` is in a constant that is a number (`pub const
/// ASC_REQ_REPLAY_DETECT: ASC_REQ_FLAGS = 4u32;`, `eapPropReplayProtection`),
/// a name declared a number or a bool, a function declared without a
/// body, or in a name written in capitals in a type position (`pub struct
/// REFS_SET_VOLUME_DEDUP_INFO_INPUT_BUFFER`, `impl Copy for ..`, `p: *const
/// super::..`): a C API's flags and types as its bindings spell them
/// (windows-sys). A number names no store and holds no key; the code's
/// stores in capitals are values (`REPLAY_CACHE.insert(k)`, `&IDEM_HEADER`),
/// and still count.
fn foreign_api_name(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let span = ident_span(bytes, at);
    let keyword = |before: &[u8], k: &[u8]| {
        before.ends_with(k)
            && !before[..before.len() - k.len()]
                .last()
                .is_some_and(|b| is_ident_byte(*b))
    };
    let before = bytes[..span.start].trim_ascii_end();
    if keyword(before, b"const") && defines_number(&bytes[span.end..])
        || typed_as_number(&bytes[span.end..])
    {
        return true;
    }
    // A function declared without a body: a foreign one (`extern "C" {
    // fn .. ; }`, windows-sys' `link!(".." fn ApplyPendingSavedStateFileReplayLog(..));`),
    // or a trait's, whose implementations name it again with their bodies.
    if keyword(before, b"fn") {
        let after = &bytes[span.end..];
        let end = after
            .iter()
            .take(4096)
            .position(|b| matches!(b, b';' | b'{'));
        return end.is_some_and(|i| after[i] == b';');
    }
    // A type's name as Rust writes it (`DedupStore`) is the code's own; one
    // in capitals or in snake case (`file_dedupe_range_info`) is C's.
    let name = &bytes[span.clone()];
    let camel =
        name.first().is_some_and(u8::is_ascii_uppercase) && name.iter().any(u8::is_ascii_lowercase);
    if camel || !name.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    // Past a path's leading segments (`super::super::Foundation::`).
    let mut before = before;
    while let Some(rest) = before.strip_suffix(b"::") {
        let rest = rest.trim_ascii_end();
        let start = rest.len() - rest.iter().rev().take_while(|b| is_ident_byte(**b)).count();
        before = rest[..start].trim_ascii_end();
    }
    let annotation = before.ends_with(b":") && !before.ends_with(b"::");
    annotation
        || before.ends_with(b"<")
        || before.ends_with(b"->")
        || ["struct", "enum", "union", "type", "for"]
            .iter()
            .any(|k| keyword(before, k.as_bytes()))
        || before.ends_with(b"*const")
        || before.ends_with(b"*mut")
}

/// Whether byte `at` is in the string of a `#[doc = ".."]` or `#[cfg(..)]`
/// attribute: a comment in substance, or a feature's name (windows-sys'
/// `#[doc = "*Required features: `Win32_Storage_DataDeduplication`*"]`,
/// `#[cfg(feature = "Win32_Storage_DataDeduplication")]`).
fn in_doc_attribute(text: &str, regions: &crate::lex::Regions, at: usize) -> bool {
    let Some(string) = regions.string_at(at) else {
        return false;
    };
    let line_start = text.as_bytes()[..string.start]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let line = text.as_bytes()[line_start..string.start].trim_ascii_start();
    let attribute = line
        .strip_prefix(b"#[")
        .or_else(|| line.strip_prefix(b"#!["))
        .map(|a| a.trim_ascii_start());
    attribute.is_some_and(|a| a.starts_with(b"doc") || a.starts_with(b"cfg"))
}

/// Whether what follows a name declares it a number or a bool (`pub
/// uNumOfReplayWindows: u32,`, `replay_count: u64`): a name is never
/// enough for such a value (rules.md, *Client key value*).
fn typed_as_number(after: &[u8]) -> bool {
    let after = after.trim_ascii_start();
    // An enum's variant given its number (`IFLA_MACSEC_REPLAY_PROTECT = 12,`).
    if let Some(value) = after.strip_prefix(b"=").filter(|v| !v.starts_with(b"=")) {
        let value = value.trim_ascii_start();
        let len = value.iter().take_while(|b| is_ident_byte(**b)).count();
        let next = value[len..].trim_ascii_start().first();
        return value.first().is_some_and(u8::is_ascii_digit) && matches!(next, Some(b',' | b'}'));
    }
    let Some(typed) = after.strip_prefix(b":").filter(|t| !t.starts_with(b":")) else {
        return false;
    };
    let typed = typed.trim_ascii_start();
    let len = typed.iter().take_while(|b| is_ident_byte(**b)).count();
    let ty = &typed[..len];
    // Rust's and C's (`__u64`, `c_int`) numbers.
    let c_number = (ty.strip_prefix(b"__").is_some_and(|t| {
        matches!(t.first(), Some(b'u' | b's')) && t[1..].iter().all(u8::is_ascii_digit)
    })) || matches!(
        ty,
        b"c_int"
            | b"c_uint"
            | b"c_long"
            | b"c_ulong"
            | b"c_short"
            | b"c_ushort"
            | b"c_longlong"
            | b"c_ulonglong"
            | b"c_char"
            | b"c_uchar"
            | b"size_t"
    );
    let primitive = c_number
        || matches!(
            ty,
            b"u8"
                | b"u16"
                | b"u32"
                | b"u64"
                | b"u128"
                | b"usize"
                | b"i8"
                | b"i16"
                | b"i32"
                | b"i64"
                | b"i128"
                | b"isize"
                | b"f32"
                | b"f64"
                | b"bool"
        );
    let next = typed[len..].trim_ascii_start().first();
    primitive && matches!(next, Some(b',' | b';' | b')' | b'=' | b'}'))
}

/// Whether what follows a constant's name gives it a number: `: T = 4u32;`,
/// `: i32 = -1;`, `: GUID = GUID::from_u128(0x..);`.
fn defines_number(after: &[u8]) -> bool {
    let Some(typed) = after.trim_ascii_start().strip_prefix(b":") else {
        return false;
    };
    let Some(eq) = typed.iter().take(120).position(|b| *b == b'=') else {
        return false;
    };
    let value = typed[eq + 1..].trim_ascii_start();
    // A number made by a constructor of one literal (`GUID::from_u128(0x..)`).
    let path = value
        .iter()
        .take_while(|b| is_ident_byte(**b) || **b == b':')
        .count();
    let value = match value[path..].trim_ascii_start().strip_prefix(b"(") {
        Some(args) if path > 0 => args.trim_ascii_start(),
        _ => value,
    };
    let value = value.strip_prefix(b"-").unwrap_or(value).trim_ascii_start();
    value.first().is_some_and(u8::is_ascii_digit)
}

/// A request id given to a conditional insert (`drift.put_if_absent(
/// &request_id, ..)`): the request id is a dedup key by that use (rules.md,
/// *Client key value*), whatever the store is called. The request id is
/// looked for first: a `q` is rare in code, `_nx` and `_if_` are not.
fn dedups_request_id(text: &str) -> bool {
    static REQUEST_ID: std::sync::OnceLock<Option<AhoCorasick>> = std::sync::OnceLock::new();
    let matcher = REQUEST_ID.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(["request_id", "request-id", "requestid"])
            .ok()
    });
    matcher.as_ref().is_none_or(|m| m.is_match(text)) && calls_conditional_insert(text)
}

/// Whether Rust `text` calls a conditional insert (`.put_if_absent(`,
/// `.set_nx(`) outside comments: a write that succeeds once per key is a
/// dedup store by use, as the evaluator's sinks read it
/// ([`super::is_conditional_insert`]).
pub fn calls_conditional_insert(text: &str) -> bool {
    static TAILS: std::sync::OnceLock<Option<AhoCorasick>> = std::sync::OnceLock::new();
    let Some(tails) = TAILS.get_or_init(|| {
        AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .build(["nx", "_absent", "_exists", "_exist", "_present", "_missing"])
            .ok()
    }) else {
        return true;
    };
    let bytes = text.as_bytes();
    let mut regions = None;
    tails.find_iter(text).any(|hit| {
        if bytes[hit.end()..].trim_ascii_start().first() != Some(&b'(') {
            return false;
        }
        let span = ident_span(bytes, hit.start());
        let method_call = bytes[..span.start].trim_ascii_end().ends_with(b".");
        method_call
            && span.end == hit.end()
            && text
                .get(span.clone())
                .is_some_and(super::is_conditional_insert)
            && !(regions.get_or_insert_with(|| crate::lex::regions(text))).in_comment(span.start)
    })
}

fn compile_identifiers(mut words: Vec<String>) -> Option<AhoCorasick> {
    words.retain(|w| !w.is_empty());
    words.sort();
    words.dedup();
    AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::LeftmostLongest)
        .build(&words)
        .ok()
}

/// The names of a component that count for [`Evidence::scope_in_rust`]:
/// the configured ones that are an id (`org_id`, `user_id`) or one of
/// the words that name nothing else; short or common words (`org`,
/// `user`, `sub`, `uid`, `subject`, `login`) are everywhere in libraries.
fn scope_words(names: &[String]) -> Vec<String> {
    const PLAIN: &[&str] = &[
        "tenant",
        "organization",
        "organisation",
        "workspace",
        "merchant",
        "principal",
    ];
    (names.iter().map(|n| n.to_ascii_lowercase()))
        .filter(|n| n.ends_with("_id") || PLAIN.contains(&n.as_str()))
        .collect()
}

/// Start offsets of every match of `matcher` in `text`, overlapping ones
/// included (a rejected hit must not hide a later one starting inside it).
fn hits<'t>(matcher: &'t AhoCorasick, text: &'t str) -> impl Iterator<Item = usize> + 't {
    let mut at = 0;
    std::iter::from_fn(move || {
        let input = aho_corasick::Input::new(text).span(at..text.len());
        let hit = matcher.try_find(input).ok().flatten()?;
        at = hit.start() + 1;
        Some(hit.start())
    })
}

/// Start offsets of the matches of `matcher` in `text` where a word starts
/// ([`starts_word`]).
pub fn word_hits<'t>(matcher: &'t AhoCorasick, text: &'t str) -> impl Iterator<Item = usize> + 't {
    hits(matcher, text).filter(|&at| starts_word(text.as_bytes(), at))
}

/// The byte range of the identifier around byte `at` (empty outside one).
pub fn ident_span(bytes: &[u8], at: usize) -> std::ops::Range<usize> {
    let mut start = at.min(bytes.len());
    while start > 0 && is_ident_byte(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = start;
    while end < bytes.len() && is_ident_byte(bytes[end]) {
        end += 1;
    }
    start..end
}

/// Whether a word starts at byte `at`, as `text::words` splits identifiers:
/// after a byte that is no ASCII letter or digit (`_`, `-`, `.`, a quote,
/// space, the text's start; non-ASCII too, which only admits more), or at
/// an upper-case letter after a lower-case letter or digit (`getIdemKey`).
pub fn starts_word(bytes: &[u8], at: usize) -> bool {
    let Some(&prev) = at.checked_sub(1).and_then(|p| bytes.get(p)) else {
        return true;
    };
    let cur = bytes.get(at).copied().unwrap_or(b' ');
    !prev.is_ascii_alphanumeric()
        || ((prev.is_ascii_lowercase() || prev.is_ascii_digit()) && cur.is_ascii_uppercase())
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Compiles words matched in any case, in snake_case and joined
/// (`request_id` is `RequestId` in CamelCase); `None` when the automaton's
/// limits are exceeded (only absurd configured word lists can), and then
/// the caller matches everything: the safe fallback.
pub fn compile_words(mut words: Vec<String>) -> Option<AhoCorasick> {
    let joined: Vec<String> = words.iter().map(|w| w.replace(['_', '-'], "")).collect();
    words.extend(joined);
    words.retain(|w| !w.is_empty());
    words.sort();
    words.dedup();
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(&words)
        .ok()
}

impl Vocabulary {
    /// Whether a unit's Rust and SQL texts show any idempotency context
    /// ([`Evidence`]): a client-key name or header, an idempotency, dedup
    /// or replay store or table (`idem`, `dedup`, `replay`), or a key
    /// constructor's call. A payload hash in a unit without any is content
    /// hashing (a cache, a blob store), not an idempotency key (IDEM003).
    /// Read from the raw texts, so the pre-filter cannot change the answer.
    /// The texts are read on up to `threads` threads ([`crate::spread`]).
    pub fn has_idempotency_context(&self, rust: &[&str], sql: &[&str], threads: usize) -> bool {
        let evidence = Evidence::new(self);
        let weights: Vec<usize> = rust.iter().map(|t| t.len()).collect();
        crate::spread::any(&weights, threads, |f| evidence.in_rust(rust[f]))
            || sql.iter().any(|text| evidence.in_sql(text))
    }

    /// Which of a unit's Rust texts name both a tenant and a principal in
    /// their code ([`Evidence::scope_in_rust`]): the only files of a unit
    /// without idempotency context where a payload hash can still be an
    /// idempotency key (IDEM003). Read from the raw texts, as
    /// [`Vocabulary::has_idempotency_context`].
    pub fn names_scope(&self, rust: &[&str]) -> Vec<bool> {
        let evidence = Evidence::new(self);
        rust.iter().map(|t| evidence.names_scope_in(t)).collect()
    }

    /// The words of [`Evidence`]: those that count where a word starts
    /// (the client-key names and headers, the store and table words), and
    /// the key constructors' last segments, which count where called.
    /// Request ids are everywhere (tracing): they are no evidence, and
    /// count as client keys only beside a store word (unless configured
    /// as client-key names).
    pub fn evidence_words(&self) -> (Vec<String>, Vec<String>) {
        let mut words: Vec<String> = super::STRONG_STORE_WORDS
            .iter()
            .map(|w| w.to_string())
            .collect();
        words.extend(self.idempotency_table_words());
        let names = self.client_key.iter().chain(&self.headers);
        words.extend(names.map(|w| w.to_ascii_lowercase()));
        let calls = (self.key_constructors.iter())
            .map(|c| super::text::last_segment(c).to_ascii_lowercase())
            .collect();
        (words, calls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holds(text: &str) -> bool {
        Evidence::new(&Vocabulary::default()).in_rust(text)
    }

    #[test]
    fn words_count_where_a_word_starts() {
        for text in [
            "let idem_key = 1;",
            "fn getIdempotencyKey() {}",
            "h.get(\"Idempotency-Key\")",
            "struct IdemStore;",
            "INSERT INTO request_dedup",
            "let c = \"the replay cache\";",
            "IDEMPOTENT_REQS",
            "v2Idem",
        ] {
            assert!(holds(text), "{text}");
        }
        for text in [
            "InvalidEmptyPayload",
            "fn decidemultibytestatslevel() {}",
            "epidemic",
            "let request_id = 1;",
            "HTTPIDEMPOTENCY",
        ] {
            assert!(!holds(text), "{text}");
        }
        // A rejected hit does not hide a later one.
        assert!(holds("invalidempty idem"));
    }

    #[test]
    fn foreign_bindings_names_are_no_evidence() {
        for text in [
            "pub const ASC_REQ_REPLAY_DETECT: ASC_REQ_FLAGS = 4u32;",
            "pub const eapPropReplayProtection: u32 = 8u32;",
            "pub const DedupDataPort: ::windows_sys::core::GUID = ::windows_sys::core::GUID::from_u128(0x8f10_7207);",
            "pub struct REFS_SET_VOLUME_DEDUP_INFO_INPUT_BUFFER { pub Version: u32 }",
            "impl ::core::marker::Copy for REFS_SET_VOLUME_DEDUP_INFO_INPUT_BUFFER {}",
            "pub fn f(p: *const super::REFS_QUERY_VOLUME_DEDUP_INFO_OUTPUT_BUFFER) {}",
            "link!(\"x.dll\" \"system\" fn ApplyPendingSavedStateFileReplayLog(f: PCWSTR) -> HRESULT);",
            "extern \"C\" { fn zstd_dedup_window(level: i32) -> i32; }",
            "pub struct W { pub uNumOfReplayWindows: u32, }",
            "pub struct file_dedupe_range { pub bytes_deduped: __u64, }",
            "pub info: __IncompleteArrayField<file_dedupe_range_info>,",
            "pub enum IFLA { IFLA_MACSEC_REPLAY_PROTECT = 12, }",
            "#[doc = \"*Required features: `Win32_Storage_DataDeduplication`*\"]\npub struct A;",
            "#[cfg(feature = \"Win32_Storage_DataDeduplication\")]\npub mod a;",
        ] {
            assert!(!holds(text), "{text}");
        }
        // The code's own stores and keys in capitals, or typed, still count.
        for text in [
            "static REPLAY_CACHE: Lazy<DashMap<String, Vec<u8>>> = Lazy::new(DashMap::new);",
            "fn f(k: &str) { REPLAY_CACHE.insert(k); }",
            "const IDEM_HEADER: &str = \"x-request-key\";",
            "fn f(h: &HeaderMap) { h.get(&IDEM_HEADER); }",
            "struct S { dedup: Arc<DedupStore> }",
            "fn replay(&self, key: &str) -> Option<Vec<u8>> { None }",
            "struct Cfg { idempotency_key: String }",
        ] {
            assert!(holds(text), "{text}");
        }
    }

    #[test]
    fn rust_comments_hold_none() {
        assert!(!holds("// makes the future non-idempotent\nfn f() {}"));
        assert!(!holds("/* outer /* the dedup table */ still */ fn f() {}"));
        assert!(!holds("/// `scoped(t, p, r, k)`\nfn f() {}"));
        assert!(holds("// dedup\nfn f() { s.get(\"// idem\") }"));
        assert!(holds("let u = \"http://x\"; let dedup = 1;"));
        let evidence = Evidence::new(&Vocabulary::default());
        assert!(evidence.in_sql("-- the dedup table\nSELECT 1"));
    }

    #[test]
    fn constructors_count_where_called() {
        assert!(holds("let k = idem_scope::scoped(t, p, r, k);"));
        assert!(holds("let k = scoped ::<A>(t);"));
        assert!(holds("let k = scoped /* why */ (t);"));
        assert!(!holds(
            "mod scoped; use scoped::Scoped; scoped::Scoped::new();"
        ));
        assert!(!holds("/// session-scoped advisory locks"));
        assert!(!holds("let h: ScopedJoinHandle = s.spawn(f);"));
        assert!(!holds("fn my_scoped(x: u8) {} my_scoped(1);"));
    }

    #[test]
    fn scope_is_named_by_whole_snake_case_identifiers() {
        let e = Evidence::new(&Vocabulary::default());
        assert_eq!(
            e.scope_in_rust("let k = (m.org_id, m.user_id, d);"),
            (true, true)
        );
        assert_eq!(e.scope_in_rust("f(w.tenant, w.principal)"), (true, true));
        assert_eq!(e.scope_in_rust("f(w.tenant, w.user_agent)"), (true, false));
        // A type, a word inside an identifier, a bare common word.
        for text in [
            "struct Principal; let organization_name = 1;",
            "let my_org_idx = user;",
        ] {
            assert_eq!(e.scope_in_rust(text), (false, false), "{text}");
        }
    }

    #[test]
    fn a_scoping_chain_counts() {
        assert!(holds(
            "KeyBuilder::new().tenant(&c.org).principal(&c.user_id).route(\"r\").key(&k).build()"
        ));
        // Not without a principal, nor in a comment.
        assert!(!holds("PathBuilder::new().tenant(&t).route(\"r\").key(&k)"));
        assert!(!holds(
            "// b.tenant(t).principal(p).route(r).key(k)\nfn f() { x.key(1); }"
        ));
    }
}
