//! Unit tests of the evaluator core: tiny functions evaluated on their own
//! (one pass, no callee summaries) or through [`crate::analysis::analyze`]
//! when a call crosses functions, checked by the key events they produce.

use super::{Evaluator, KeyEvent, Summary};
use crate::analysis::index::{CrateIndex, ParsedFile};
use crate::analysis::value::{ConstructKind, KeySource};
use crate::analysis::vocab::Vocabulary;

fn parse(src: &str) -> Vec<ParsedFile> {
    let ast = syn::parse_file(src).expect("test source parses");
    vec![ParsedFile { id: 0, ast }]
}

/// The key events of every function of `src`, each evaluated once.
fn events(src: &str) -> Vec<KeyEvent> {
    let files = parse(src);
    let vocab = Vocabulary::default();
    let index = CrateIndex::build(&files);
    let summaries = vec![Summary::default(); index.fns.len()];
    let mut out = Vec::new();
    for def in &index.fns {
        let (_, events) = Evaluator::new(&index, &vocab, &summaries, def).run(def);
        out.extend(events);
    }
    out
}

fn only(events: &[KeyEvent]) -> &KeyEvent {
    assert_eq!(events.len(), 1, "{events:#?}");
    &events[0]
}

#[test]
fn formatted_header_key_reaches_a_store() {
    let events = events(
        r#"
        fn handler(headers: HeaderMap, cache: Cache) {
            let key = headers.get("Idempotency-Key").unwrap();
            let cache_key = format!("idem:{}", key);
            cache.set(cache_key, 1);
        }
        "#,
    );
    // The key-named binding is a position too, but not a storage call.
    assert_eq!(events.len(), 2, "{events:#?}");
    assert!(!events[0].raw_ok && events[0].store.is_none());
    let event = &events[1];
    assert!(event.raw_ok);
    assert_eq!(event.store.as_deref(), Some("cache"));
    let (origin, source) = event.client_key().expect("a client key");
    assert_eq!(source, KeySource::IdempotencyKey);
    assert_eq!(origin.text, "key");
    let construct = event.value.construct.expect("a constructed key");
    assert_eq!(construct.kind, ConstructKind::Concat);
    assert!(event.value.concat.is_some());
}

#[test]
fn push_str_builds_the_key_in_place() {
    let events = events(
        r#"
        fn handler(idempotency_key: String, store: Store) {
            let mut k = String::from("idem:");
            k.push_str(&idempotency_key);
            store.insert(&k, 1);
        }
        "#,
    );
    let event = only(&events);
    assert!(event.client_key().is_some());
    let construct = event.value.construct.expect("a constructed key");
    assert_eq!(construct.kind, ConstructKind::Concat);
}

#[test]
fn sql_binds_into_an_idempotency_table() {
    let events = events(
        r#"
        async fn handler(idempotency_key: String, pool: Pool) {
            sqlx::query("INSERT INTO idempotency_keys (key) VALUES ($1)")
                .bind(&idempotency_key)
                .execute(&pool)
                .await;
        }
        "#,
    );
    let event = only(&events);
    assert!(event.strong);
    assert_eq!(event.store.as_deref(), Some("sql:idempotency_keys"));
    assert!(event.client_key().is_some());
}

#[test]
fn redis_arg_is_a_key_position() {
    let events = events(
        r#"
        fn handler(idempotency_key: String, con: Conn) {
            redis::cmd("SET").arg(&idempotency_key).query(&mut con);
        }
        "#,
    );
    let event = only(&events);
    assert_eq!(event.store.as_deref(), Some("redis"));
    assert!(event.raw_ok);
}

#[test]
fn a_default_tenant_travels_into_the_key() {
    let events = events(
        r#"
        fn handler(idempotency_key: String, tenant_id: Option<String>, cache: Cache) {
            let tenant_id = tenant_id.unwrap_or("anon".to_string());
            let k = format!("{tenant_id}:{idempotency_key}");
            cache.set(k, 1);
        }
        "#,
    );
    let event = only(&events);
    assert!(event.value.tenant.is_some());
    assert_eq!(
        event.value.fallbacks.len(),
        1,
        "{:#?}",
        event.value.fallbacks
    );
}

#[test]
fn a_callee_storing_its_parameter_reports_at_the_caller() {
    let files = parse(
        r#"
        fn save(store: &Store, k: &str) {
            store.insert(k, 1);
        }
        fn handler(idempotency_key: String, store: Store) {
            save(&store, &idempotency_key);
        }
        "#,
    );
    let facts = crate::analysis::analyze(&files, &[], &Vocabulary::default());
    let keyed: Vec<&KeyEvent> = facts.client_key_events().map(|(e, _, _)| e).collect();
    assert_eq!(keyed.len(), 1, "{:#?}", facts.key_events);
    // The callee's pending position, substituted with the caller's
    // argument, is reported at that argument (line 6).
    assert_eq!(keyed[0].store.as_deref(), Some("store"));
    assert_eq!(keyed[0].site.span.start.line, 6);
}

/// What a unit's analysis asks the pre-filter's next round for: the calls
/// it could not resolve (their functions are not in `src`).
fn demanded(src: &str) -> Vec<String> {
    callees(&demanded_by_tier(src).possible.calls)
}

/// The names called at `sites`.
fn callees(sites: &[crate::analysis::value::CallSite]) -> Vec<String> {
    sites.iter().map(|site| site.callee.to_string()).collect()
}

/// The calls demanded for each tier of findings shown.
fn demanded_by_tier(src: &str) -> crate::analysis::DemandedCalls {
    let files = parse(src);
    crate::analysis::analyze(&files, &[], &Vocabulary::default()).demanded_calls
}

#[test]
fn calls_are_demanded_where_a_key_flows_into_or_out_of_them() {
    let calls = demanded(
        r#"
        fn handler(headers: HeaderMap, cache: Cache, user: User) {
            let key = headers.get("Idempotency-Key").unwrap();
            // Given the key: the callee may store it.
            remember(&key);
            // Its result meets the key at a store: it may be the tenant.
            let tenant = tenant_of(&user);
            cache.insert(format!("{tenant}:{key}"), 1);
            // Neither: nothing it does can change a finding.
            let limit = page_limit(&user);
            log_limit(limit);
        }
        "#,
    );
    assert!(calls.contains(&"remember".to_string()), "{calls:?}");
    assert!(calls.contains(&"tenant_of".to_string()), "{calls:?}");
    assert!(!calls.contains(&"page_limit".to_string()), "{calls:?}");
    assert!(!calls.contains(&"log_limit".to_string()), "{calls:?}");
}

#[test]
fn names_and_request_ids_demand_less() {
    let demanded = demanded_by_tier(
        r#"
        fn handler(req: CreateOrder, headers: HeaderMap) {
            // Known by its name only: every finding on it is `possible`.
            remember(&req.idempotency_key);
            // A request id counts only in an idempotency store.
            let rid = headers.get("x-request-id").unwrap();
            trace_request(&rid);
            let key = headers.get("Idempotency-Key").unwrap();
            save(&key);
        }
        "#,
    );
    let names =
        |tier: &crate::analysis::TierCalls| (callees(&tier.calls), callees(&tier.toward_stores));
    let (possible, certain) = (names(&demanded.possible), names(&demanded.certain));
    for (calls, toward_stores) in [&possible, &certain] {
        assert!(calls.contains(&"save".to_string()), "{calls:?}");
        assert!(!calls.contains(&"trace_request".to_string()), "{calls:?}");
        assert!(
            toward_stores.contains(&"trace_request".to_string()),
            "{toward_stores:?}"
        );
    }
    assert!(possible.0.contains(&"remember".to_string()), "{possible:?}");
    assert!(!certain.0.contains(&"remember".to_string()), "{certain:?}");
    assert!(!certain.1.contains(&"remember".to_string()), "{certain:?}");
}

#[test]
fn parameters_demand_calls_only_where_callers_pass_a_fact() {
    let calls = demanded(
        r#"
        fn handler(headers: HeaderMap) {
            let key = headers.get("Idempotency-Key").unwrap();
            save(&key, 7);
        }
        fn save(value: &str, attempt: u32) {
            persist(value);
            backoff(attempt);
        }
        "#,
    );
    // `save` is analysed: its first parameter carries the key, its second
    // a number.
    assert!(calls.contains(&"persist".to_string()), "{calls:?}");
    assert!(!calls.contains(&"backoff".to_string()), "{calls:?}");
}

#[test]
fn calls_are_demanded_where_they_are_made() {
    let demanded = demanded_by_tier(
        r#"
        fn handler(headers: HeaderMap) {
            let key = headers.get("Idempotency-Key").unwrap();
            save(&key);
            let stamp = clock();
            log(stamp);
        }
        fn save(value: &str) {
            persist(value);
        }
        fn audit(n: u32) {
            persist(n);
        }
        "#,
    );
    let sites: Vec<(String, String)> = (demanded.certain.calls.iter())
        .map(|site| (site.caller.to_string(), site.callee.to_string()))
        .collect();
    let site = |caller: &str, callee: &str| (caller.to_string(), callee.to_string());
    // `persist` is demanded from `save`, given the key there, and not from
    // `audit`, which calls it with a number.
    assert!(sites.contains(&site("save", "persist")), "{sites:?}");
    assert!(!sites.contains(&site("audit", "persist")), "{sites:?}");
    assert!(!sites.contains(&site("handler", "log")), "{sites:?}");
}

#[test]
fn a_struct_built_from_its_own_result_stays_bounded() {
    // `lookup` resolves by name to itself: each fixpoint round nests the
    // struct one level deeper, every field holding the whole value.
    let files = parse(
        r#"
        fn lookup(id: &str) -> Option<Info> {
            let body = remote::lookup(id).ok()?;
            Some(Info {
                a: body.get("a"), b: body.get("b"), c: body.get("c"),
                d: body.get("d"), e: body.get("e"), f: body.get("f"),
                g: body.get("g"), h: body.get("h"), i: body.get("i"),
            })
        }
        "#,
    );
    let index = crate::analysis::index::CrateIndex::build(&files);
    let order = crate::analysis::order::callee_first(&index);
    let (summaries, _) =
        crate::analysis::fixpoint(&index, &Vocabulary::default(), &order, (&[0], &[0]), None);
    let debug = format!("{:?}", summaries[0].ret);
    // Without the bound, 9 fields nested once per round: 9^8 parts.
    assert!(debug.len() < 200_000, "{} bytes", debug.len());
    assert!(debug.matches("Value {").count() <= 1 + 64, "{debug}");
}

#[test]
fn a_method_of_another_crates_type_is_not_a_crate_method_of_its_name() {
    let files = parse(
        r#"
        use http::HeaderMap;
        struct Slots;
        impl Slots {
            fn team_of(&self, name: &str) -> String { Uuid::new_v4().to_string() }
        }
        fn handler(headers: &HeaderMap, slots: &Slots, idempotency_key: String, store: Store) {
            let team = headers.team_of("x-team-id");
            let own = slots.team_of("x");
            store.insert((team, own, idempotency_key), 1);
        }
        "#,
    );
    let facts = crate::analysis::analyze(&files, &[], &Vocabulary::default());
    let keyed: Vec<&KeyEvent> = facts.client_key_events().map(|(e, _, _)| e).collect();
    assert_eq!(keyed.len(), 1, "{:#?}", facts.key_events);
    let elems = keyed[0].value.elems.as_ref().expect("a tuple key");
    // `headers.team_of` is the map's own: `Slots::team_of`'s minted id is
    // not in it.
    assert!(elems[0].server_id.is_none(), "{:#?}", elems[0]);
    // `slots.team_of` is the crate's method, whose minted id it gives back.
    assert!(elems[1].server_id.is_some(), "{:#?}", elems[1]);
}
