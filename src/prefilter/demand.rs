//! Demand: which keyed functions make their callers relevant, as an
//! earlier round of the unit's analysis found them.
//!
//! The selection keys the callers of a keyed function because a key or a
//! digest made there may flow back to them. Whether one does is what the
//! function's summary says (`analysis::eval::Summary::reaches_callers`), so
//! the unit is planned in rounds (`lint/unit.rs`): the first keys the
//! seeds alone; each later one also keys the callers of the keyed
//! functions the previous rounds analysed and found reaching their callers.
//! The rounds stop when a plan repeats, which is the selection in which
//! every keyed function that reaches its callers has them keyed: the
//! closure the analysis needs, instead of the closure over every name
//! (which in a large service is most of the crate).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::analysis::FnExports;

/// What the pre-filter knows of the functions' summaries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Demand {
    /// Nothing: every keyed item reaches its callers, and every store a
    /// keyed item writes may hold client keys (one plan, no rounds).
    #[default]
    Everything,
    /// What earlier rounds found.
    Learned(Learned),
}

/// What the analysis of earlier rounds found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Learned {
    /// Per (file of the unit, function name): whether some function of that
    /// name in that file was analysed and reaches its callers, and whether
    /// one writes client keys. A function not analysed yet does neither in
    /// this round; it is analysed in this round and the next one follows
    /// it if it must.
    functions: HashMap<(usize, String), FnExports>,
    /// The stores client keys were written to, as the analysis names them
    /// (a receiver lowercased, `sql:TABLE`): an item writing one may write
    /// a server-minted key beside them (IDEM007).
    client_stores: HashSet<String>,
    /// The fields and variants the analysis saw given the key header's
    /// name (the scan takes any field given a constant for one).
    header_holders: HashSet<String>,
    /// The records whose fields the analysis saw given a client key: an
    /// item naming one may read it.
    key_records: HashSet<String>,
    /// The calls the analysis could not resolve and needs (their result
    /// reaches a key position that may make a finding, or they are given a
    /// value that may carry a fact), by the unit's file and the name of the
    /// function making them: per callee name, how far it is followed from
    /// there (`analysis::UnitFacts::demanded_calls`).
    sites: HashMap<usize, HashMap<String, HashMap<String, Follow>>>,
    /// How many call sites are followed only toward stores.
    toward_stores: usize,
    /// Rounds that learned a call: a call chain the analysis uncovers one
    /// callee per round would take as many rounds as it is deep.
    call_rounds: usize,
    /// Past [`MAX_CALL_ROUNDS`], every call of a followed item is followed
    /// (as without rounds).
    all_calls: bool,
}

/// To which of the functions a call may resolve to the selection follows
/// it ([`Demand::follows_call`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    /// None: its callee cannot change a finding.
    None,
    /// Those from which an idempotency store may be reached by calls.
    TowardStores,
    /// Every one.
    All,
}

/// Rounds that may learn calls before every call is followed: each round
/// analyses the whole selection again, so a chain of demanded calls deeper
/// than this (one callee per round) costs more in rounds than following
/// every call costs at once.
pub const MAX_CALL_ROUNDS: usize = 4;

impl Demand {
    /// The demand of a first round: nothing analysed yet.
    pub fn first_round() -> Demand {
        Demand::Learned(Learned::default())
    }

    /// Records a store client keys were written to; returns whether that
    /// is new.
    pub fn learn_store(&mut self, store: &str) -> bool {
        match self {
            Demand::Everything => false,
            Demand::Learned(learned) => learned.client_stores.insert(store.to_string()),
        }
    }

    /// Records a field or variant given the key header's name; returns
    /// whether that is new.
    pub fn learn_holder(&mut self, holder: &str) -> bool {
        match self {
            Demand::Everything => false,
            Demand::Learned(learned) => learned.header_holders.insert(holder.to_string()),
        }
    }

    /// Records a record whose fields carry a client key; returns whether
    /// that is new.
    pub fn learn_key_record(&mut self, record: &str) -> bool {
        match self {
            Demand::Everything => false,
            Demand::Learned(learned) => learned.key_records.insert(record.to_string()),
        }
    }

    /// The records whose fields carry a client key (none known without
    /// rounds: every item is selected then).
    pub fn key_records(&self) -> impl Iterator<Item = &str> {
        let learned = match self {
            Demand::Everything => None,
            Demand::Learned(learned) => Some(&learned.key_records),
        };
        learned.into_iter().flatten().map(String::as_str)
    }

    /// Records a call of `callee` made in the function `caller` of the
    /// unit's file `file` that the analysis needs resolved: followed from
    /// there to every function it may resolve to. Returns whether that is
    /// new.
    pub fn learn_call(&mut self, file: usize, caller: &str, callee: &str) -> bool {
        self.learn_site(file, caller, callee, Follow::All)
    }

    /// Records a call of `callee` made in `caller` of `file` that needs
    /// resolving only where it may reach an idempotency store (it is given
    /// only what counts there); returns whether that is new.
    pub fn learn_call_toward_stores(&mut self, file: usize, caller: &str, callee: &str) -> bool {
        self.learn_site(file, caller, callee, Follow::TowardStores)
    }

    fn learn_site(&mut self, file: usize, caller: &str, callee: &str, how: Follow) -> bool {
        let Demand::Learned(learned) = self else {
            return false;
        };
        let callees = (learned.sites.entry(file).or_default())
            .entry(caller.to_string())
            .or_default();
        match callees.get_mut(callee) {
            Some(known) if *known == Follow::TowardStores && how == Follow::All => {
                *known = Follow::All;
                learned.toward_stores -= 1;
                true
            }
            Some(_) => false,
            None => {
                callees.insert(callee.to_string(), how);
                learned.toward_stores += usize::from(how == Follow::TowardStores);
                true
            }
        }
    }

    /// Ends a round's learning: `learned_calls` says whether it learned a
    /// call.
    pub fn end_round(&mut self, learned_calls: bool) {
        if let Demand::Learned(learned) = self {
            if learned_calls {
                learned.call_rounds += 1;
                learned.all_calls |= learned.call_rounds > MAX_CALL_ROUNDS;
            }
        }
    }

    /// To which functions a call of `callee` made in the function `caller`
    /// of the unit's file `file` may resolve to it is followed: all where
    /// its result reaches a key position or it is given a value that may
    /// carry a fact (always, without rounds); those that may reach an
    /// idempotency store where it is given only what counts there.
    pub fn follows_call(&self, file: usize, caller: &str, callee: &str) -> Follow {
        match self {
            Demand::Everything => Follow::All,
            Demand::Learned(learned) if learned.all_calls => Follow::All,
            Demand::Learned(learned) => (learned.sites.get(&file))
                .and_then(|callers| callers.get(caller))
                .and_then(|callees| callees.get(callee))
                .copied()
                .unwrap_or(Follow::None),
        }
    }

    /// Whether some call is followed only toward idempotency stores.
    pub fn follows_toward_stores(&self) -> bool {
        matches!(self, Demand::Learned(l) if !l.all_calls && l.toward_stores > 0)
    }

    /// Whether a field or variant may hold the key header's name.
    pub fn may_hold_header(&self, holder: &str) -> bool {
        match self {
            Demand::Everything => true,
            Demand::Learned(learned) => learned.header_holders.contains(holder),
        }
    }

    /// The stores client keys are written to; `None`: any store a keyed
    /// item writes ([`Demand::Everything`]).
    pub fn client_stores(&self) -> Option<&HashSet<String>> {
        match self {
            Demand::Everything => None,
            Demand::Learned(learned) => Some(&learned.client_stores),
        }
    }

    /// Records that a function `name` of file `file` was analysed and what
    /// it exports; returns whether that is new. Once a name of a file
    /// reaches callers or writes client keys it keeps doing so, so rounds
    /// only grow and end. The stores a function writing client keys names
    /// (as the scan reads them: `conn` of `conn.set_nx(..)`, where the
    /// analysis names the `redis` field `conn` was cloned from) hold them.
    pub fn learn(&mut self, file: usize, name: &str, exports: FnExports) -> bool {
        let Demand::Learned(learned) = self else {
            return false;
        };
        match learned.functions.get_mut(&(file, name.to_string())) {
            Some(known) => {
                let merged = known.union(exports);
                let changed = merged != *known;
                *known = merged;
                changed
            }
            None => {
                learned.functions.insert((file, name.to_string()), exports);
                true
            }
        }
    }

    /// What is known of the functions `name` of file `file`: nothing
    /// before they are analysed, everything without rounds.
    pub fn exports(&self, file: usize, name: &str) -> FnExports {
        match self {
            Demand::Everything => FnExports {
                callers: true,
                writes_client_keys: true,
                payload_callers: true,
            },
            Demand::Learned(learned) => (learned.functions)
                .get(&(file, name.to_string()))
                .copied()
                .unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::vocab::Vocabulary;
    use crate::prefilter::{FilePlan, Prefilter};

    fn parsed(texts: &[&str], demand: &Demand) -> Vec<bool> {
        let prefilter = Prefilter::new(&Vocabulary::default());
        (prefilter.plan_on_demand(texts, &[], demand).iter())
            .map(|plan| matches!(plan, FilePlan::Parse { .. }))
            .collect()
    }

    fn analysed(functions: &[(usize, &str, FnExports)]) -> Demand {
        let mut demand = Demand::first_round();
        for (file, name, reach) in functions {
            demand.learn(*file, name, *reach);
        }
        demand
    }

    const REACHES: FnExports = FnExports {
        callers: true,
        writes_client_keys: false,
        payload_callers: false,
    };

    #[test]
    fn callers_are_keyed_only_behind_a_function_that_reaches_them() {
        let helper = "fn check(idem_key: &str) -> bool { log(idem_key); true }";
        let caller = "fn handle(r: &R) { if check(r.k()) { done(); } }";
        let texts = [helper, caller];
        // Without rounds, every caller of a keyed function is kept.
        assert_eq!(parsed(&texts, &Demand::Everything), [true, true]);
        // A first round analyses the seed alone.
        assert_eq!(parsed(&texts, &Demand::first_round()), [true, false]);
        // The analysis found that `check` gives its callers nothing.
        let silent = analysed(&[(0, "check", FnExports::default())]);
        assert_eq!(parsed(&texts, &silent), [true, false]);
        // Or that it does: the next round keys `handle`.
        let reaching = analysed(&[(0, "check", REACHES)]);
        assert_eq!(parsed(&texts, &reaching), [true, true]);
        // What is learned is by file: a `check` of another file is not it.
        let elsewhere = analysed(&[(1, "check", REACHES)]);
        assert_eq!(parsed(&texts, &elsewhere), [true, false]);
    }

    #[test]
    fn callees_are_followed_only_where_the_analysis_demands_them() {
        let handler = "fn handle(r: &R) { let k = r.idempotency_key(); save(k); audit(r); }";
        let save = "fn save(k: &str) { STORE.insert(k, 1); }";
        let audit = "fn audit(r: &R) { log(r); }";
        let texts = [handler, save, audit];
        // Without rounds, every callee of a keyed function is kept.
        assert_eq!(parsed(&texts, &Demand::Everything), [true, true, true]);
        // A first round analyses the seed alone.
        assert_eq!(parsed(&texts, &Demand::first_round()), [true, false, false]);
        // The analysis saw the key given to `save` in `handle`.
        let mut demand = Demand::first_round();
        assert!(demand.learn_call(0, "handle", "save"));
        assert!(!demand.learn_call(0, "handle", "save"));
        assert_eq!(parsed(&texts, &demand), [true, true, false]);
        // Past the rounds that may learn calls, every call is followed.
        let mut late = demand.clone();
        for _ in 0..=MAX_CALL_ROUNDS {
            late.end_round(true);
        }
        assert_eq!(parsed(&texts, &late), [true, true, true]);
    }

    #[test]
    fn callees_are_followed_only_from_the_function_that_demands_them() {
        let handler = "fn handle(r: &R) { let k = r.idempotency_key(); save(k); }";
        let other = "fn report(r: &R) { let k = r.idempotency_key(); audit(k); save(0); }";
        let save = "fn save(k: &str) { STORE.insert(k, 1); }";
        let audit = "fn audit(k: &str) { log(k); }";
        let texts = [handler, other, save, audit];
        let mut demand = Demand::first_round();
        // `save` given the key in `report` does not make `handle`'s call
        // of `save` demanded, nor the other way round: each is learned
        // where it is made.
        assert!(demand.learn_call(1, "report", "audit"));
        assert_eq!(parsed(&texts, &demand), [true, true, false, true]);
        // A function of the same name in another file is another caller.
        assert!(demand.learn_call(1, "handle", "save"));
        assert_eq!(parsed(&texts, &demand), [true, true, false, true]);
        assert!(demand.learn_call(0, "handle", "save"));
        assert_eq!(parsed(&texts, &demand), [true, true, true, true]);
    }

    #[test]
    fn request_ids_are_followed_only_toward_idempotency_stores() {
        let handler = "fn handle(r: &R) { let rid = r.request_id(); trace(&rid); persist(&rid); }";
        let trace = "fn trace(id: &str) { log(id); }";
        let persist = "fn persist(id: &str) { save_row(id); }";
        let save_row = "fn save_row(&self, id: &str) { self.dedup_cache.insert(id, 1); }";
        let texts = [handler, trace, persist, save_row];
        let mut demand = Demand::first_round();
        assert!(demand.learn_call_toward_stores(0, "handle", "trace"));
        assert!(demand.learn_call_toward_stores(0, "handle", "persist"));
        assert!(demand.follows_toward_stores());
        let toward = parsed(&texts, &demand);
        assert_eq!(toward[..3], [true, false, true], "{toward:?}");
        // Given a fact besides, a call is followed to every callee.
        assert!(demand.learn_call(0, "handle", "trace"));
        assert!(!demand.learn_call_toward_stores(0, "handle", "trace"));
        assert_eq!(parsed(&texts, &demand)[..3], [true, true, true]);
    }

    #[test]
    fn learning_only_grows() {
        let mut demand = Demand::first_round();
        assert!(demand.learn(0, "f", FnExports::default()));
        assert!(!demand.learn(0, "f", FnExports::default()));
        assert!(demand.learn(0, "f", REACHES));
        // Once reaching callers, a later round's silence does not undo it.
        assert!(!demand.learn(0, "f", FnExports::default()));
        assert!(demand.exports(0, "f").callers);
        assert!(demand.learn_store("idem"));
        assert!(!demand.learn_store("idem"));
        assert!(!Demand::Everything.learn(0, "f", REACHES));
    }

    #[test]
    fn server_keys_are_looked_for_only_where_client_keys_are_written() {
        let client = "fn c(&self, idem_key: &str) { self.replay_cache.insert(idem_key, 1); }";
        let server = "fn s(&self, e: &E) { self.replay_cache.insert(Uuid::new_v4(), 1); }";
        let texts = [client, server];
        assert_eq!(parsed(&texts, &Demand::Everything), [true, true]);
        let analysed_client = analysed(&[(0, "c", FnExports::default())]);
        assert_eq!(parsed(&texts, &analysed_client), [true, false]);
        // The analysis saw client keys written to another store, then to
        // the cache (named as the analysis names receivers).
        let mut wrote = analysed_client.clone();
        wrote.learn_store("response_cache");
        assert_eq!(parsed(&texts, &wrote), [true, false]);
        wrote.learn_store("replay_cache");
        assert_eq!(parsed(&texts, &wrote), [true, true]);
        // So does a function that writes client keys, by the names it uses.
        let writer = FnExports {
            callers: false,
            writes_client_keys: true,
            payload_callers: false,
        };
        assert_eq!(parsed(&texts, &analysed(&[(0, "c", writer)])), [true, true]);
    }

    #[test]
    fn fields_given_a_constant_hold_the_header_only_as_analysed() {
        let constant = "const TRACE: &str = \"x-trace-id\";";
        let config =
            "fn config(idem_key: &str) -> Cfg { Cfg { header: TRACE, k: idem_key.len() } }";
        let reader = "fn read(c: &Cfg, r: &R) { r.get(c.header); }";
        let texts = [constant, config, reader];
        let first = analysed(&[(1, "config", FnExports::default())]);
        assert_eq!(parsed(&texts, &first), [true, true, false]);
        let mut held = first.clone();
        held.learn_holder("header");
        assert_eq!(parsed(&texts, &held), [true, true, true]);
        // A field given the header's literal is a holder without analysis.
        let literal = "fn config(idem_key: &str) -> Cfg { Cfg { header: \"Idempotency-Key\", k: idem_key.len() } }";
        assert_eq!(
            parsed(&[constant, literal, reader], &first),
            [false, true, true]
        );
    }
}
