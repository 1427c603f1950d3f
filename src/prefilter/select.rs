//! The selection: which items of a unit's scanned files to keep, closed
//! over the crate-local call graph the index will build.
//!
//! Items holding a fact an enabled rule needs are the seeds. A fact that
//! reaches callers (`triggers::Reach::Callers`: a key, a digest, a
//! namespace) makes their callers and the users of a constant holding it
//! keyed too; items that store where keyed items store join them; and
//! every function or constant a kept item may resolve to is kept, since
//! callee summaries shape values and every definition of a name decides
//! whether a method name is ambiguous. Calls link by the index's own rule
//! (`analysis::index::method_targets`), names stand in for paths.

use std::collections::HashSet as StdHashSet;

use aho_corasick::AhoCorasick;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::analysis::index::{
    declaring_traits, is_extractor_fn, method_targets, unions_impls, MethodTargets,
};
use crate::lex;

use super::demand::Follow;
use super::scan::{FileScan, Item, Mention, Owner};
use super::triggers::{reach, Fact, Reach, FACTS};
use super::{Demand, Prefilter};

/// What `Prefilter::choose` decided for the files scanned so far.
pub(super) struct Choice<'t> {
    /// Per item of the scanned files, in order: keep it.
    pub selected: Vec<bool>,
    /// Names whose definition in a cold file the choice would follow.
    pub defs: HashSet<&'t str>,
    /// Names whose mention in a cold file the choice would follow (keyed
    /// items and the stores they write to).
    pub mentions: Vec<&'t str>,
    /// Receivers and idempotency tables client keys may be written to (a
    /// cold file writing one shares the store).
    pub stores: Vec<String>,
}

/// Which facts count in one unit.
struct Held {
    /// Request ids count as key events (an idempotency store is named).
    names_store: bool,
    /// Some item claims: releasing `Drop` impls are guards.
    unit_claims: bool,
}

impl Prefilter {
    /// Whether `item` holds a fact an enabled rule needs that reaches `how`.
    fn holds(&self, item: &Item<'_>, held: &Held, how: Reach) -> bool {
        FACTS.iter().any(|&fact| {
            self.needs(fact)
                && reach(fact) == how
                && (item.holds(fact, held.names_store)
                    // A guard is a claim fact where the unit claims.
                    || (fact == Fact::Claims && held.unit_claims && item.releasing_drop()))
        })
    }

    /// The items of the scanned files to keep, numbered across files in
    /// order, and what cold files the choice depends on; `None` when no
    /// item holds a fact.
    pub(super) fn choose<'t>(
        &self,
        scans: &[Option<FileScan<'t>>],
        names_store: bool,
        demand: &Demand,
    ) -> Option<Choice<'t>> {
        // The unit's file of each scan, which is how `demand` names them.
        let files: Vec<usize> = (scans.iter().enumerate())
            .filter(|(_, s)| s.is_some())
            .map(|(f, _)| f)
            .collect();
        let scans: Vec<&FileScan<'t>> = scans.iter().flatten().collect();
        let items: Vec<(usize, &Item<'t>)> = scans
            .iter()
            .enumerate()
            .flat_map(|(f, s)| s.items.iter().map(move |item| (f, item)))
            .collect();
        let unit_claims = self.needs(Fact::Claims)
            && items
                .iter()
                .any(|(_, item)| item.holds(Fact::Claims, names_store));
        let held = Held {
            names_store,
            unit_claims,
        };
        let seeds: Vec<bool> = items
            .iter()
            .map(|(_, item)| self.holds(item, &held, Reach::Callers))
            .collect();
        let local = |item: &Item<'_>| self.holds(item, &held, Reach::Local);
        let ddl_outside = scans.iter().any(|s| s.ddl_outside_items);
        if !ddl_outside
            && !items
                .iter()
                .zip(&seeds)
                .any(|((_, item), seed)| *seed || local(item))
        {
            return None;
        }
        // A constant holding a key is read by its users, always; a function
        // gives its callers something only where its summary says so.
        let exports: Vec<_> = (items.iter())
            .map(|(f, item)| demand.exports(files[*f], item.name))
            .collect();
        let to_users: Vec<bool> = (items.iter().zip(&exports))
            .map(|((_, item), exports)| !item.is_fn || exports.callers)
            .collect();
        let to_payload_users = exports.iter().map(|e| e.payload_callers).collect();
        let unions = |name: &str| unions_impls(name, &self.vocab);
        let mut graph = Graph::new(scans, files, items, to_users, demand, &unions);
        graph.to_payload_users = to_payload_users;
        let mut keyed = seeds.clone();
        for record in demand.key_records() {
            for &n in graph.users_of.get(record).map_or(NONE, Vec::as_slice) {
                keyed[n] = true;
            }
        }
        graph.finish_hashers(&mut keyed);
        graph.close_over_users(&mut keyed);
        let keyed_at_first = keyed.clone();
        let stores = match demand.client_stores() {
            Some(learned) => {
                let writers: Vec<bool> = exports.iter().map(|e| e.writes_client_keys).collect();
                Stores::learned(learned, &graph, &writers)
            }
            None => Stores::of(&graph, &keyed),
        };
        let mut selected = keyed;
        let mut followed = vec![false; graph.items.len()];
        let mut work: Vec<usize> = (0..graph.items.len()).filter(|&n| selected[n]).collect();
        // An item storing where client keys are stored is followed to its
        // callers as far as its summary reaches them: the server-minted key
        // may come from there.
        let mut sharing: Vec<bool> = (graph.items.iter())
            .map(|(_, item)| self.holds_shared(item, &stores))
            .collect();
        graph.close_over_users(&mut sharing);
        let starts = work.len();
        for n in (0..graph.items.len()).filter(|&n| sharing[n]) {
            selected[n] = true;
            work.push(n);
        }
        for &n in &work {
            followed[n] = true;
        }
        // Only where some call is followed toward stores alone.
        let toward_stores = match demand.follows_toward_stores() {
            true => graph.reaching_stores(),
            false => Vec::new(),
        };
        graph.close_over_callees(&mut selected, &mut followed, work, demand, &toward_stores);
        // Items with a local fact (a claim, a guard, DDL) need no client
        // key; of their callees, the claim walk reads only the helpers that
        // release (by name, `claims::guards::releasing_helpers`).
        let mut reached = followed.clone();
        let mut locals = 0;
        for (n, (_, item)) in graph.items.iter().enumerate() {
            if !local(item) {
                continue;
            }
            locals += 1;
            selected[n] = true;
            reached[n] = true;
            for call in graph.calls(n) {
                for &d in graph.fns_named.get(call.name()).map_or(NONE, Vec::as_slice) {
                    selected[d] |= graph.items[d].1.releases();
                }
            }
        }
        let mut choice = graph.cold_dependencies(&reached, &keyed_at_first, &stores, demand);
        if unit_claims {
            // A guard in a cold file is found by its name.
            choice.defs.insert("drop");
        }
        if std::env::var_os("IDEM_LINT_UNIT_STATS").is_some() {
            graph.report(&seeds, &keyed_at_first, &selected);
            let shared = sharing.iter().filter(|s| **s).count();
            eprintln!(
                "[idem-lint prefilter] callees followed from {starts} keyed, {locals} local and {shared} sharing items"
            );
        }
        graph.keep_trait_declarations(&mut selected);
        choice.selected = selected;
        Some(choice)
    }

    /// Whether `item` stores where keyed items store, for a rule that
    /// needs such stores (a server-minted key beside client keys).
    fn holds_shared(&self, item: &Item<'_>, stores: &Stores) -> bool {
        FACTS
            .iter()
            .any(|&fact| self.needs(fact) && reach(fact) == Reach::SharedStores)
            && stores.shares(item)
    }
}

/// The stores client keys may be written to: the receivers and idempotency
/// tables keyed items store into, or those the analysis of an earlier round
/// saw client keys written to ([`Demand`]).
struct Stores {
    /// Receivers, lowercased.
    receivers: StdHashSet<String>,
    tables: StdHashSet<String>,
}

impl Stores {
    /// The stores of keyed items.
    fn of(graph: &Graph<'_, '_>, keyed: &[bool]) -> Stores {
        let keyed_items = || {
            (0..graph.items.len())
                .filter(|&n| keyed[n])
                .map(|n| graph.items[n].1)
        };
        Stores {
            receivers: keyed_items()
                .flat_map(|item| item.stores.iter().map(|s| s.to_ascii_lowercase()))
                .collect(),
            tables: keyed_items()
                .flat_map(|item| item.tables.iter().cloned())
                .collect(),
        }
    }

    /// The stores the analysis saw client keys written to, as it names
    /// them (a receiver lowercased, or `sql:TABLE`), and those the items
    /// that write them name (`writers`).
    fn learned(
        stores: &rustc_hash::FxHashSet<String>,
        graph: &Graph<'_, '_>,
        writers: &[bool],
    ) -> Stores {
        let (tables, receivers): (StdHashSet<&String>, StdHashSet<&String>) =
            stores.iter().partition(|s| s.starts_with("sql:"));
        let mut learned = Stores {
            receivers: receivers.into_iter().cloned().collect(),
            tables: (tables.into_iter())
                .map(|t| t.trim_start_matches("sql:").to_string())
                .collect(),
        };
        let of_writers = Stores::of(graph, writers);
        learned.receivers.extend(of_writers.receivers);
        learned.tables.extend(of_writers.tables);
        learned
    }

    /// Whether `item` stores into one of them.
    fn shares(&self, item: &Item<'_>) -> bool {
        item.stores
            .iter()
            .any(|s| self.receivers.contains(&s.to_ascii_lowercase()))
            || item.tables.iter().any(|t| self.tables.contains(t))
    }
}

/// The items of the scanned files, numbered across files, and the names
/// that link them.
struct Graph<'s, 't> {
    scans: Vec<&'s FileScan<'t>>,
    /// Per scan, the unit's file it is (how [`Demand`] names files).
    files: Vec<usize>,
    /// (file among `scans`, item).
    items: Vec<(usize, &'s Item<'t>)>,
    fns_named: HashMap<&'t str, Vec<usize>>,
    consts_named: HashMap<&'t str, Vec<usize>>,
    /// Per type, its extractor constructors (`from_request_parts` of
    /// `impl FromRequestParts for AuthCtx`): a handler naming the type runs
    /// them, and what they write into its fields (a defaulted tenant) is
    /// what the handler reads.
    extractors_of: HashMap<&'t str, Vec<usize>>,
    /// Per name called: (item, index among its calls) of each call of it,
    /// so that who calls a function is checked call by call, not by
    /// scanning every call of every item calling some function so named.
    callers_of: HashMap<&'t str, Vec<(u32, u32)>>,
    /// The functions a `use`-renamed name stands for (alias → originals).
    aliases: HashMap<&'t str, Vec<&'t str>>,
    /// Items using a constant's name (each once), or a header holder's.
    users_of: HashMap<&'t str, Vec<usize>>,
    /// Per item, the fields and variants it gives the key header's name
    /// (a literal, or any constant of the unit): their users are keyed
    /// when it is.
    holders: Vec<Vec<&'t str>>,
    methods: Methods<'t>,
    /// Per item: keyed, it keys its callers or users (see [`Demand`]).
    to_users: Vec<bool>,
    /// Per item: keyed, it keys the callers that name the request payload
    /// (it digests a parameter: `FnExports::payload_callers`).
    to_payload_users: Vec<bool>,
}

const NONE: &[usize] = &[];

/// The type an extractor constructor (`impl FromRequestParts for Dedupe`'s
/// `from_request_parts`) builds: when the constructor is keyed, every
/// handler naming the type receives the key (`Dedupe(tag): Dedupe`).
fn extractor_of<'t>(item: &Item<'t>) -> Option<&'t str> {
    match item.owner {
        Owner::Type(ty)
            if item.is_fn && is_extractor_fn(item.name, item.trait_of.is_some(), item.receiver) =>
        {
            Some(ty)
        }
        _ => None,
    }
}

impl<'s, 't> Graph<'s, 't> {
    fn new(
        scans: Vec<&'s FileScan<'t>>,
        files: Vec<usize>,
        items: Vec<(usize, &'s Item<'t>)>,
        to_users: Vec<bool>,
        demand: &Demand,
        unions: &dyn Fn(&str) -> bool,
    ) -> Graph<'s, 't> {
        let mut graph = Graph {
            to_payload_users: vec![false; to_users.len()],
            to_users,
            methods: Methods::new(items.iter().map(|(_, item)| *item), unions),
            scans,
            files,
            items,
            fns_named: HashMap::default(),
            consts_named: HashMap::default(),
            extractors_of: HashMap::default(),
            callers_of: HashMap::default(),
            aliases: HashMap::default(),
            users_of: HashMap::default(),
            holders: Vec::new(),
        };
        // Each list gets an item once, however often it names the key.
        let add = |list: &mut Vec<usize>, n: usize| {
            if list.last() != Some(&n) {
                list.push(n);
            }
        };
        for (n, (_, item)) in graph.items.iter().enumerate() {
            let named = if item.is_fn {
                &mut graph.fns_named
            } else {
                &mut graph.consts_named
            };
            named.entry(item.name).or_default().push(n);
            if let Some(ty) = extractor_of(item) {
                graph.extractors_of.entry(ty).or_default().push(n);
            }
            let (f, item) = graph.items[n];
            for (k, call) in graph.scans[f].calls_of(item).iter().enumerate() {
                (graph.callers_of.entry(call.name()).or_default()).push((n as u32, k as u32));
            }
        }
        // A free function is also named by its `use` renames, as the index
        // names it, and whoever calls the alias calls it.
        for scan in &graph.scans {
            for &(original, alias) in &scan.renames {
                let free: Vec<usize> = (graph.fns_named.get(original).map_or(NONE, Vec::as_slice))
                    .iter()
                    .copied()
                    .filter(|&d| {
                        graph.items[d].1.owner == Owner::Free && !graph.items[d].1.receiver
                    })
                    .collect();
                if free.is_empty() {
                    continue;
                }
                let originals = graph.aliases.entry(alias).or_default();
                if originals.contains(&original) {
                    continue;
                }
                originals.push(original);
                graph.fns_named.entry(alias).or_default().extend(free);
                // Each (alias, original) pair is merged once (above).
                let callers = graph.callers_of.get(alias).cloned().unwrap_or_default();
                (graph.callers_of.entry(original).or_default()).extend(callers);
            }
        }
        // A field whose serde default is a holder function holds the name too.
        let serde_defaults: Vec<(&str, &str)> = graph
            .scans
            .iter()
            .flat_map(|scan| scan.serde_defaults.iter().copied())
            .collect();
        graph.holders = graph
            .items
            .iter()
            .map(|(_, item)| {
                let mut holders: Vec<&str> = item
                    .header_holders
                    .iter()
                    // A field given a constant holds the header's name only
                    // if the constant does, which the analysis tells.
                    .filter(|(holder, leaf)| {
                        leaf.is_none_or(|c| {
                            graph.consts_named.contains_key(c) && demand.may_hold_header(holder)
                        })
                    })
                    .map(|(holder, _)| *holder)
                    .collect();
                let fields: Vec<&str> = serde_defaults
                    .iter()
                    .filter(|(function, _)| holders.contains(function))
                    .map(|(_, field)| *field)
                    .collect();
                holders.extend(fields);
                holders
            })
            .collect();
        let mut holder_names: HashSet<&str> = graph.holders.iter().flatten().copied().collect();
        holder_names.extend(
            graph
                .items
                .iter()
                .filter_map(|(_, item)| extractor_of(item)),
        );
        // A record whose fields carry a client key is read by its users.
        holder_names.extend(demand.key_records());
        for n in 0..graph.items.len() {
            let (f, item) = graph.items[n];
            for ident in graph.scans[f].idents_of(item) {
                if graph.consts_named.contains_key(ident) || holder_names.contains(ident) {
                    add(graph.users_of.entry(ident).or_default(), n);
                }
            }
            // A method reads its own record's fields through `self`.
            if let Owner::Type(owner) = item.owner {
                if demand.key_records().any(|record| record == owner) {
                    add(graph.users_of.entry(owner).or_default(), n);
                }
            }
        }
        graph
    }

    fn idents(&self, n: usize) -> &'s [&'t str] {
        let (f, item) = self.items[n];
        self.scans[f].idents_of(item)
    }

    fn calls(&self, n: usize) -> &'s [Mention<'t>] {
        let (f, item) = self.items[n];
        self.scans[f].calls_of(item)
    }

    /// The items whose calls may resolve to fn item `n` (an item calling it
    /// twice comes once).
    fn callers(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let def = self.items[n].1;
        let mut last = None;
        (self.callers_of.get(def.name).map_or(&[][..], Vec::as_slice))
            .iter()
            .filter(move |&&(c, k)| {
                let call = self.calls(c as usize).get(k as usize);
                call.is_some_and(|m| self.methods.links(*m, def))
            })
            .map(|&(c, _)| c as usize)
            .filter(move |&c| last.replace(c) != Some(c))
    }

    /// A function finishing a hasher that a callee (or its callee …) makes
    /// and returns holds a hash fact: it becomes keyed.
    fn finish_hashers(&self, keyed: &mut [bool]) {
        let mut makers: Vec<bool> = self.items.iter().map(|(_, i)| i.makes_hasher()).collect();
        let mut work: Vec<usize> = (0..self.items.len()).filter(|&n| makers[n]).collect();
        while let Some(n) = work.pop() {
            for c in self.callers(n) {
                if !makers[c] {
                    makers[c] = true;
                    if self.items[c].1.finalizes() {
                        keyed[c] = true;
                    }
                    work.push(c);
                }
            }
        }
    }

    /// Makes keyed, transitively, the callers of keyed functions and the
    /// users of keyed constants (a key returned by a helper or held in a
    /// constant).
    fn close_over_users(&self, keyed: &mut [bool]) {
        let mut work: Vec<usize> = (0..self.items.len()).filter(|&n| keyed[n]).collect();
        while let Some(n) = work.pop() {
            let item = self.items[n].1;
            let mut users: Vec<usize> = if self.to_users[n] && item.is_fn {
                self.callers(n).collect()
            } else if self.to_payload_users[n] && item.is_fn {
                (self.callers(n))
                    .filter(|&c| self.items[c].1.names_payload())
                    .collect()
            } else if !self.to_users[n] {
                Vec::new()
            } else {
                self.users_of
                    .get(item.name)
                    .map_or(NONE, Vec::as_slice)
                    .to_vec()
            };
            for holder in self.holders[n].iter().copied().chain(extractor_of(item)) {
                users.extend(self.users_of.get(holder).map_or(NONE, Vec::as_slice));
            }
            for m in users {
                if !keyed[m] {
                    keyed[m] = true;
                    work.push(m);
                }
            }
        }
    }

    /// Per item, whether an idempotency store may be reached from it by
    /// calls: it names one ([`Item::names_store`]) or calls an item that
    /// does. A request id counts only there (`KeyEvent::strong`).
    fn reaching_stores(&self) -> Vec<bool> {
        let mut reach: Vec<bool> = self
            .items
            .iter()
            .map(|(_, item)| item.names_store)
            .collect();
        let mut work: Vec<usize> = (0..self.items.len()).filter(|&n| reach[n]).collect();
        while let Some(n) = work.pop() {
            for caller in self.callers(n) {
                if !reach[caller] {
                    reach[caller] = true;
                    work.push(caller);
                }
            }
        }
        reach
    }

    /// Selects, transitively from `work`, every function and constant a
    /// selected item may resolve to, and for a call the index finds
    /// ambiguous, two definitions of different types so that it still
    /// does. Those are analysed like any kept item, so what they call is
    /// followed too: a definition kept without its callees has an inexact
    /// summary, and its own findings differ from `--no-prefilter`'s.
    /// `followed`: the items whose callees are (being) followed.
    fn close_over_callees(
        &self,
        selected: &mut [bool],
        followed: &mut [bool],
        mut work: Vec<usize>,
        demand: &Demand,
        toward_stores: &[bool],
    ) {
        while let Some(n) = work.pop() {
            let mut next: Vec<usize> = Vec::new();
            let (file, caller) = (self.files[self.items[n].0], self.items[n].1.name);
            for call in self.calls(n) {
                let follow = demand.follows_call(file, caller, call.name());
                if follow == Follow::None {
                    continue;
                }
                let defs = self.fns_named.get(call.name()).map_or(NONE, Vec::as_slice);
                // Whether this call may resolve to `d`, as `callers` asks it.
                let linked = |&d: &usize| self.methods.links(*call, self.items[d].1);
                let wanted = |&d: &usize| follow == Follow::All || toward_stores[d];
                next.extend(defs.iter().copied().filter(linked).filter(wanted));
                next.extend(self.methods.witnesses(*call, defs, &self.items));
            }
            // A kept method of a name other types define too: the index
            // must see them as the whole crate does (every implementation
            // of one trait, which a call reaches alike, or a second owner,
            // which keeps the name ambiguous).
            let item = self.items[n].1;
            if item.is_fn && item.receiver {
                let defs = self.fns_named.get(item.name).map_or(NONE, Vec::as_slice);
                next.extend(self.methods.siblings(item, defs, &self.items));
            }
            for ident in self.idents(n) {
                next.extend(self.consts_named.get(ident).map_or(NONE, Vec::as_slice));
                next.extend(self.extractors_of.get(ident).map_or(NONE, Vec::as_slice));
            }
            for m in next {
                selected[m] = true;
                if !followed[m] {
                    followed[m] = true;
                    work.push(m);
                }
            }
        }
    }

    /// What cold files the choice depends on: definitions of the names
    /// items followed to their callees use, mentions of keyed items and
    /// their stores.
    fn cold_dependencies(
        &self,
        followed: &[bool],
        keyed: &[bool],
        stores: &Stores,
        demand: &Demand,
    ) -> Choice<'t> {
        let mut defs: HashSet<&'t str> = HashSet::default();
        let mut mentions: Vec<&'t str> = Vec::new();
        for n in (0..self.items.len()).filter(|&n| followed[n]) {
            // A call the analysis does not need leaves its callee's file cold.
            let (file, caller) = (self.files[self.items[n].0], self.items[n].1.name);
            let unneeded: HashSet<&'t str> = (self.calls(n).iter())
                .map(|call| call.name())
                .filter(|name| demand.follows_call(file, caller, name) == Follow::None)
                .collect();
            defs.extend(
                (self.idents(n).iter())
                    .copied()
                    .filter(|ident| !unneeded.contains(ident)),
            );
        }
        for n in (0..self.items.len()).filter(|&n| keyed[n]) {
            // Callers in a cold file matter only for an item that keys them.
            if self.to_users[n] {
                mentions.push(self.items[n].1.name);
            }
            mentions.extend(self.holders[n].iter().copied());
            mentions.extend(extractor_of(self.items[n].1));
        }
        Choice {
            selected: Vec::new(),
            defs,
            mentions,
            stores: (stores.receivers.iter())
                .chain(&stores.tables)
                .cloned()
                .collect(),
        }
    }

    /// `IDEM_LINT_SEED_STATS`: per seed, the facts it holds and how many
    /// items its callers' closure alone makes keyed, largest last: which
    /// seeds make a unit's selection grow with the crate (issue 27).
    fn report_seeds(&self, seeds: &[bool]) {
        let mut rows: Vec<(usize, String)> = (0..self.items.len())
            .filter(|&n| seeds[n])
            .map(|n| {
                let item = self.items[n].1;
                let facts: Vec<String> = (FACTS.iter())
                    .filter(|f| item.holds(**f, true))
                    .map(|f| format!("{f:?}"))
                    .collect();
                let mut alone = vec![false; self.items.len()];
                alone[n] = true;
                self.close_over_users(&mut alone);
                let closure = alone.iter().filter(|k| **k).count();
                (closure, format!("`{}` {facts:?}", item.name))
            })
            .collect();
        rows.sort();
        for (closure, seed) in rows {
            eprintln!("[idem-lint prefilter] seed {seed}: callers' closure {closure} items");
        }
    }

    /// Keeps the unit's trait declaration of each selected impl method
    /// (`fn dedupe_tag(&self) -> String;` of `trait DedupeTag`): the index
    /// resolves a call that several impls of one trait answer only when it
    /// has read the trait declaring the method (`CrateIndex::one_trait`),
    /// as it does without the pre-filter. So is the declaration a macro
    /// generates a server trait from (`trait Orders` of jsonrpsee's `impl
    /// OrdersServer`), whose attributes make the method an entry point
    /// (`CrateIndex::implements_entry_point`).
    fn keep_trait_declarations(&self, selected: &mut [bool]) {
        let wanted: StdHashSet<(&str, &str)> = (self.items.iter().enumerate())
            .filter(|(n, (_, item))| selected[*n] && item.is_fn)
            .filter_map(|(_, (_, item))| item.trait_of.map(|t| (t, item.name)))
            .flat_map(|(t, name)| declaring_traits(t).map(move |t| (t, name)))
            .collect();
        for (n, (_, item)) in self.items.iter().enumerate() {
            let declares =
                matches!((item.owner, item.trait_of), (Owner::Type(o), Some(t)) if o == t);
            if declares
                && item
                    .trait_of
                    .is_some_and(|t| wanted.contains(&(t, item.name)))
            {
                selected[n] = true;
            }
        }
    }

    /// The `IDEM_LINT_UNIT_STATS` lines of one choice.
    fn report(&self, seeds: &[bool], keyed: &[bool], selected: &[bool]) {
        let triggered = (0..self.items.len()).filter(|&n| seeds[n]);
        for n in triggered.take(3) {
            eprintln!(
                "[idem-lint prefilter] triggered item `{}`",
                self.items[n].1.name
            );
        }
        if std::env::var_os("IDEM_LINT_SEED_STATS").is_some() {
            self.report_seeds(seeds);
        }
        let chosen: Vec<&str> = (0..self.items.len())
            .filter(|&n| selected[n])
            .map(|n| self.items[n].1.name)
            .take(20)
            .collect();
        eprintln!(
            "[idem-lint prefilter] {} keyed, {} selected of {} items in {} scanned files: {chosen:?}",
            keyed.iter().filter(|k| **k).count(),
            selected.iter().filter(|s| **s).count(),
            self.items.len(),
            self.scans.len()
        );
    }
}

/// Which method names the index resolves, by its rule
/// (`analysis::index::method_targets`) over the owners the scan knows.
/// Types the scan cannot name (`Owner::Unknown`) could be any type, so a
/// name with such a definition is never taken as ambiguous.
struct Methods<'t> {
    /// Per name: the known owners of its receiver methods (up to two) and
    /// whether an unnamed owner defines it.
    by_name: HashMap<&'t str, (Vec<Owner<'t>>, bool)>,
    /// Per name: the trait every receiver method of that name implements,
    /// if there is one (`Some(None)`: not all the same).
    traits: HashMap<&'t str, Option<&'t str>>,
}

impl<'t> Methods<'t> {
    /// `unions`: whether a name may reach every implementation of one
    /// trait (`analysis::index::unions_impls`).
    fn new<'a>(
        items: impl Iterator<Item = &'a Item<'t>>,
        unions: &dyn Fn(&str) -> bool,
    ) -> Methods<'t>
    where
        't: 'a,
    {
        let mut by_name: HashMap<&'t str, (Vec<Owner<'t>>, bool)> = HashMap::default();
        let mut traits: HashMap<&'t str, Option<&'t str>> = HashMap::default();
        let items: Vec<&'a Item<'t>> = items.collect();
        // The methods the scanned files' own traits declare (with a body or
        // not), as the index reads them (`CrateIndex::trait_methods`).
        let declared: StdHashSet<(&'t str, &'t str)> = (items.iter())
            .filter(|i| i.is_fn)
            .filter_map(|i| match (i.owner, i.trait_of) {
                (Owner::Type(owner), Some(t)) if owner == t => Some((t, i.name)),
                _ => None,
            })
            .collect();
        // Only functions with a body, as in the index: a bodiless trait
        // declaration taken as an owner would make `self.f()` in the
        // trait's default methods link to it alone, and drop the impls.
        for item in items.into_iter().filter(|i| i.is_fn && i.body) {
            if item.receiver && unions(item.name) {
                traits
                    .entry(item.name)
                    .and_modify(|t| *t = t.filter(|t| Some(*t) == item.trait_of))
                    .or_insert(item.trait_of);
            }
            let entry = by_name.entry(item.name).or_default();
            match item.owner {
                // A receiver method outside an `impl` is one in an `impl`
                // nested in a function body: the index may name its type.
                Owner::Unknown | Owner::Free if item.receiver => entry.1 = true,
                Owner::Unknown => entry.1 = true,
                // Two owners tell that a name is ambiguous. A third is not
                // kept, so `self.name()` in its block does not link to its
                // own method as it does in the index (the filter has always
                // done so; changing it changes which files are parsed).
                owner if item.receiver && entry.0.len() < 2 && !entry.0.contains(&owner) => {
                    entry.0.push(owner)
                }
                _ => {}
            }
        }
        // Only a trait of the scanned files that declares the name.
        traits.retain(|name, t| t.is_some_and(|t| declared.contains(&(t, *name))));
        Methods { by_name, traits }
    }

    /// What a method call may resolve to; `None` for a path call.
    fn targets(&self, mention: Mention<'t>) -> Option<MethodTargets<Owner<'t>>> {
        let (name, on_self) = match mention {
            Mention::Method(name) | Mention::Chained(_, name) => (name, None),
            Mention::SelfMethod(owner, name) => (name, Some(owner)),
            Mention::Call(_) | Mention::Assoc(..) => return None,
        };
        let Some((owners, unknown)) = self.by_name.get(name) else {
            return Some(MethodTargets::All);
        };
        // An unnamed owner, or an unnamed `Self`, may be any type.
        if *unknown || on_self == Some(Owner::Unknown) {
            return Some(MethodTargets::All);
        }
        // Every definition implements one trait: a call may reach any of
        // them, as the index resolves it (`CrateIndex::resolve_method`).
        match method_targets(owners, on_self) {
            MethodTargets::Ambiguous if self.traits.get(name).is_some_and(Option::is_some) => {
                Some(MethodTargets::All)
            }
            targets => Some(targets),
        }
    }

    /// Whether a call may resolve to `def` (a function of the same name).
    fn links(&self, mention: Mention<'t>, def: &Item<'t>) -> bool {
        match (self.targets(mention), mention) {
            (Some(MethodTargets::Own(ty)), _) => def.owner == ty,
            (Some(MethodTargets::All), _) => true,
            (Some(MethodTargets::Ambiguous), Mention::Chained(ty, _)) => {
                def.owner == Owner::Type(ty)
            }
            (Some(MethodTargets::Ambiguous), _) => false,
            _ if def.owner == Owner::Unknown => true,
            (None, Mention::Assoc(ty, _)) => def.owner == Owner::Type(ty),
            (None, _) => def.owner == Owner::Free,
        }
    }

    /// Of the receiver methods `defs` named like `item`, those the index
    /// needs beside it to resolve calls of the name as it would with the
    /// whole crate: all of them where they implement one trait, else one
    /// of another owner.
    fn siblings(
        &self,
        item: &Item<'t>,
        defs: &[usize],
        items: &[(usize, &Item<'t>)],
    ) -> Vec<usize> {
        // A trait's declaration: its implementations are what a call runs
        // (and, present, make it no store interface of another crate).
        if !item.body && item.trait_of.is_some() {
            return (defs.iter().copied())
                .filter(|&d| items[d].1.receiver && items[d].1.body)
                .filter(|&d| items[d].1.trait_of == item.trait_of)
                .collect();
        }
        let Some((owners, unknown)) = self.by_name.get(item.name) else {
            return Vec::new();
        };
        if *unknown || owners.len() < 2 {
            return Vec::new();
        }
        let methods = defs.iter().copied().filter(|&d| {
            let def = items[d].1;
            def.receiver && def.body && !std::ptr::eq(def, item)
        });
        if self.traits.get(item.name).is_some_and(Option::is_some) {
            return methods.collect();
        }
        let mut methods = methods;
        let other = methods.find(|&d| {
            let def = items[d].1;
            def.owner != item.owner && (item.trait_of.is_none() || def.trait_of != item.trait_of)
        });
        other.into_iter().collect()
    }

    /// For a call the index finds ambiguous, two receiver methods of
    /// different types among `defs`: kept, the index still finds it so.
    fn witnesses(
        &self,
        mention: Mention<'t>,
        defs: &[usize],
        items: &[(usize, &Item<'t>)],
    ) -> Vec<usize> {
        if self.targets(mention) != Some(MethodTargets::Ambiguous) {
            return Vec::new();
        }
        let receivers = || defs.iter().copied().filter(|&d| items[d].1.receiver);
        let Some(first) = receivers().next() else {
            return Vec::new();
        };
        let Some(second) = receivers().find(|&d| items[d].1.owner != items[first].1.owner) else {
            return Vec::new();
        };
        let mut kept = vec![first, second];
        // Two of one trait would make the index take every implementation
        // (`CrateIndex::resolve_method`): a third of another keeps it
        // ambiguous.
        let trait_of = |d: usize| items[d].1.trait_of;
        if trait_of(first).is_some() && trait_of(first) == trait_of(second) {
            kept.extend(receivers().find(|&d| items[d].1.body && trait_of(d) != trait_of(first)));
        }
        kept
    }
}

/// The names `fn`, `const` and `static` items of `text` may define: the
/// word after the keyword (after `mut`), when followed by `(` or `<` (a
/// function) or by a single `:` (a constant); and the aliases of `use ..
/// as alias` (the word after `as` before `,`, `}` or `;`).
/// Comments and strings count too; more names only make the filter scan
/// more. `*const T` and `&'static T` are types, not definitions.
pub(super) fn defined_names(text: &str) -> HashSet<&str> {
    let bytes = text.as_bytes();
    let mut out = HashSet::default();
    for at in memchr::memmem::find_iter(bytes, b" as ") {
        // In a `use` declaration: since the last `;` (a cast's statement
        // has none, and its type names would make every file that casts to
        // `u64` a definition of it).
        let start = memchr::memrchr(b';', &bytes[..at]).map_or(0, |i| i + 1);
        if !(text[start..at].split(|c: char| !lex::is_ident_continue(c as u8)))
            .any(|word| word == "use")
        {
            continue;
        }
        let rest = text[at + 4..].trim_start();
        let word_end = (rest.bytes())
            .position(|b| !lex::is_ident_continue(b))
            .unwrap_or(rest.len());
        let next = rest[word_end..].trim_start();
        if word_end > 0 && next.starts_with([',', '}', ';']) {
            out.insert(&rest[..word_end]);
        }
    }
    for keyword in ["fn", "const", "static"] {
        for at in memchr::memmem::find_iter(bytes, keyword.as_bytes()) {
            let end = at + keyword.len();
            let starts_word = at == 0 || !lex::is_ident_continue(bytes[at - 1]);
            let ends_word = bytes.get(end).is_some_and(|b| b.is_ascii_whitespace());
            if !starts_word || !ends_word {
                continue;
            }
            let before = text[..at].trim_end().as_bytes().last().copied();
            if keyword != "fn" && matches!(before, Some(b'*' | b'\'')) {
                continue;
            }
            let mut rest = text[end..].trim_start();
            if keyword == "static" {
                if let Some(after) = rest.strip_prefix("mut") {
                    if after.starts_with(|c: char| c.is_ascii_whitespace()) {
                        rest = after.trim_start();
                    }
                }
            }
            let word_end = rest
                .bytes()
                .position(|b| !lex::is_ident_continue(b))
                .unwrap_or(rest.len());
            let word = &rest[..word_end];
            let next = rest[word_end..].trim_start();
            let defines = if keyword == "fn" {
                next.starts_with('(') || next.starts_with('<')
            } else {
                next.starts_with(':') && !next.starts_with("::")
            };
            if !word.is_empty() && defines {
                out.insert(word.strip_prefix("r#").unwrap_or(word));
            }
        }
    }
    out
}

/// Whole-word search (ASCII case ignored) for any of a set of identifiers.
pub(super) struct WordMatcher {
    automaton: Option<AhoCorasick>,
    /// The words could not be compiled: everything matches.
    all: bool,
}

impl WordMatcher {
    /// A matcher for `words`.
    pub(super) fn new(words: &[&str]) -> WordMatcher {
        if words.is_empty() {
            return WordMatcher {
                automaton: None,
                all: false,
            };
        }
        // Any case: SQL names its tables as it likes.
        let automaton = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(words)
            .ok();
        WordMatcher {
            all: automaton.is_none(),
            automaton,
        }
    }

    /// Whether one of the words occurs in `text` as a whole word.
    pub(super) fn is_match(&self, text: &str) -> bool {
        let Some(automaton) = &self.automaton else {
            return self.all;
        };
        let bytes = text.as_bytes();
        let Ok(mut hits) = automaton.try_find_overlapping_iter(text) else {
            return true;
        };
        hits.any(|hit| {
            let before = hit.start() == 0 || !lex::is_ident_continue(bytes[hit.start() - 1]);
            let after = bytes
                .get(hit.end())
                .is_none_or(|b| !lex::is_ident_continue(*b));
            before && after
        })
    }
}
