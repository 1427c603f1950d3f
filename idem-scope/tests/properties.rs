//! Property tests of the invariants the crate's docs promise.

use idem_scope::{
    scoped, scoped_server, Component, HeaderError, IdempotencyKey, Namespace, ScopeError,
    ScopedKey, DEFAULT_MAX_KEY_LEN,
};
use proptest::prelude::*;

/// Pieces chosen to collide under naive joining: other common separators,
/// the namespace and version spellings, and some non-ASCII.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(":".to_owned()),
        Just("|".to_owned()),
        Just("/".to_owned()),
        Just("\x1e".to_owned()),
        Just("u:".to_owned()),
        Just("s:".to_owned()),
        Just("v1".to_owned()),
        Just("a".to_owned()),
        Just("é".to_owned()),
        any::<char>()
            .prop_filter("no NUL", |c| *c != '\0')
            .prop_map(String::from),
    ]
}

/// A non-empty, NUL-free component short enough for every bound.
fn component() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 1..8).prop_map(|p| p.concat())
}

fn namespace() -> impl Strategy<Value = Namespace> {
    prop_oneof![Just(Namespace::Client), Just(Namespace::Server)]
}

type Tuple = (Namespace, String, String, String, String);

fn tuple() -> impl Strategy<Value = Tuple> {
    (
        namespace(),
        component(),
        component(),
        component(),
        component(),
    )
}

fn build(t: &Tuple) -> Result<ScopedKey, ScopeError> {
    ScopedKey::new(t.0, &t.1, &t.2, &t.3, &t.4)
}

/// One string cut into four non-empty components at three distinct points.
fn same_concatenation() -> impl Strategy<Value = (String, [usize; 3], [usize; 3])> {
    prop::collection::vec(piece(), 4..12).prop_flat_map(|pieces| {
        let n = pieces.len();
        let cuts = prop::sample::subsequence((1..n).collect::<Vec<_>>(), 3);
        (Just(pieces), cuts.clone(), cuts).prop_map(|(pieces, a, b)| {
            // Cut positions in bytes, always at piece (hence char) boundaries.
            let bytes = |cuts: Vec<usize>| {
                let mut out = [0; 3];
                for (slot, cut) in out.iter_mut().zip(cuts) {
                    *slot = pieces[..cut].iter().map(String::len).sum();
                }
                out
            };
            (pieces.concat(), bytes(a), bytes(b))
        })
    })
}

fn split4(s: &str, cuts: [usize; 3]) -> [&str; 4] {
    [
        &s[..cuts[0]],
        &s[cuts[0]..cuts[1]],
        &s[cuts[1]..cuts[2]],
        &s[cuts[2]..],
    ]
}

fn escape_sf(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

proptest! {
    #[test]
    fn storage_key_is_injective(a in tuple(), b in tuple()) {
        let (ka, kb) = (build(&a).unwrap(), build(&b).unwrap());
        prop_assert_eq!(a == b, ka.storage_key() == kb.storage_key());
    }

    #[test]
    fn moving_a_boundary_changes_the_key((s, a, b) in same_concatenation(), ns in namespace()) {
        let (ta, tb) = (split4(&s, a), split4(&s, b));
        let ka = ScopedKey::new(ns, ta[0], ta[1], ta[2], ta[3]).unwrap();
        let kb = ScopedKey::new(ns, tb[0], tb[1], tb[2], tb[3]).unwrap();
        prop_assert_eq!(a == b, ka.storage_key() == kb.storage_key());
    }

    #[test]
    fn storage_key_decodes_back_to_the_tuple(t in tuple()) {
        let k = build(&t).unwrap();
        let fields: Vec<&str> = k.storage_key().split('\0').collect();
        prop_assert_eq!(fields, vec!["v1", &t.1, &t.2, &t.3, t.0.as_str(), &t.4]);
        prop_assert_eq!(k.columns().as_array(), ["v1", &t.1, &t.2, &t.3, t.0.as_str(), &t.4]);
        prop_assert_eq!(k.namespace(), t.0);
    }

    #[test]
    fn empty_or_separator_components_are_rejected(
        t in tuple(),
        which in 0usize..4,
        poison in prop_oneof![Just(None), (0usize..8).prop_map(Some)],
    ) {
        let mut parts = [t.1.clone(), t.2.clone(), t.3.clone(), t.4.clone()];
        let target = &mut parts[which];
        match poison {
            None => target.clear(),
            Some(at) => {
                let at = target.char_indices().map(|(i, _)| i).nth(at).unwrap_or(target.len());
                target.insert(at, '\0');
            }
        }
        let component = [Component::Tenant, Component::Principal, Component::Route, Component::Key][which];
        let want = match poison {
            None => ScopeError::Missing(component),
            Some(_) => ScopeError::ContainsSeparator(component),
        };
        prop_assert_eq!(ScopedKey::new(t.0, &parts[0], &parts[1], &parts[2], &parts[3]), Err(want.clone()));
        prop_assert!(want.to_string().contains(component.name()));
    }

    #[test]
    fn any_strings_never_panic_and_ok_means_clean(
        t in any::<String>(), p in any::<String>(), r in any::<String>(), k in any::<String>()
    ) {
        if let Ok(key) = scoped(&t, &p, &r, &k) {
            for c in [&t, &p, &r, &k] {
                prop_assert!(!c.is_empty() && !c.contains('\0'));
            }
            prop_assert_eq!(key.tenant(), t.as_str());
        }
    }

    #[test]
    fn client_and_server_never_collide(a in tuple(), b in tuple()) {
        let client = scoped(&a.1, &a.2, &a.3, &a.4).unwrap();
        let server = scoped_server(&b.1, &b.2, &b.3, &b.4).unwrap();
        prop_assert_ne!(client.storage_key(), server.storage_key());
        let same_server = scoped_server(&a.1, &a.2, &a.3, &a.4).unwrap();
        prop_assert_ne!(client, same_server);
    }

    #[test]
    fn shard_in_range_and_only_depends_on_tenant(a in tuple(), b in tuple(), n in 1u32..) {
        let ka = build(&a).unwrap();
        prop_assert!(ka.shard(n) < n);
        prop_assert_eq!(ka.shard(0), 0);
        let same_tenant = ScopedKey::new(b.0, &a.1, &b.2, &b.3, &b.4).unwrap();
        prop_assert_eq!(ka.shard(n), same_tenant.shard(n));
    }

    #[test]
    fn header_parsers_never_panic_on_bytes(v in prop::collection::vec(any::<u8>(), 0..400)) {
        let parsed = [IdempotencyKey::parse(&v), IdempotencyKey::parse_lenient(&v)];
        for k in parsed.into_iter().flatten() {
            let s = k.as_str();
            prop_assert!(!s.is_empty() && s.len() <= DEFAULT_MAX_KEY_LEN);
            prop_assert!(s.bytes().all(|b| (0x20..=0x7e).contains(&b)));
        }
        let _ = IdempotencyKey::parse_lines([&v[..], &v[..]]);
    }

    #[test]
    fn header_parsers_never_panic_on_near_valid_input(
        head in prop_oneof![Just(""), Just(" "), Just("\""), Just("("), Just("%\""), Just("\t")],
        body in prop::collection::vec(prop_oneof![
            Just('"'), Just('\\'), Just(';'), Just('='), Just(','), Just(' '), Just('a'), Just('1'),
            Just('*'), Just(':'), Just('?'), Just('%'), Just('('), Just(')'), Just('@'), Just('é'),
        ], 0..40),
        tail in prop_oneof![Just(""), Just("\""), Just("\";a=1"), Just(")"), Just("  ")],
    ) {
        let v = format!("{head}{}{tail}", body.into_iter().collect::<String>());
        let _ = IdempotencyKey::parse(v.as_bytes());
        let _ = IdempotencyKey::parse_lenient(v.as_bytes());
    }

    #[test]
    fn sf_string_round_trips(s in "[ -~]{1,255}") {
        let parsed = IdempotencyKey::parse(escape_sf(&s).as_bytes()).unwrap();
        prop_assert_eq!(parsed.as_str(), s.as_str());
    }

    #[test]
    fn lenient_bare_equals_quoted(s in "[!-~]{1,255}") {
        prop_assume!(!s.starts_with('"'));
        let bare = IdempotencyKey::parse_lenient(s.as_bytes()).unwrap();
        let quoted = IdempotencyKey::parse_lenient(escape_sf(&s).as_bytes()).unwrap();
        prop_assert_eq!(&bare, &quoted);
        prop_assert_eq!(bare.as_str(), s.as_str());
    }

    #[test]
    fn two_field_lines_never_parse_strictly(a in "[ -~]{1,50}", b in "[ -~]{1,50}") {
        let (a, b) = (escape_sf(&a), escape_sf(&b));
        let res = IdempotencyKey::parse_lines([a.as_bytes(), b.as_bytes()]);
        prop_assert!(matches!(res, Err(HeaderError::NotAString { .. })), "{:?}", res);
    }
}
