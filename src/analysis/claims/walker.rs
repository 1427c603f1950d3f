//! The path-sensitive walker's state: the claims found so far, which of
//! them are open on the current path, and how an exit, a close or a guard
//! changes that. The walk itself is spread by concern over `walk`
//! (statements and expressions), `branches` (`if`/`match`), `ops`
//! (recognising claims and their keys) and `guards` (values that release
//! on drop); each adds methods to [`Walker`].

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use syn::spanned::Spanned;
use syn::Pat;

use super::findings::{ClaimExit, ClaimFinding, ExitKind};
use crate::analysis::index::FnDef;
use crate::analysis::syntax::span_of;
use crate::analysis::value::Site;
use crate::analysis::vocab::Vocabulary;

/// A claim made in the function, and what became of it on the paths walked.
pub(super) struct Claim {
    pub(super) site: Site,
    pub(super) verb: String,
    pub(super) key_text: String,
    pub(super) roots: BTreeSet<String>,
    pub(super) loop_depth: usize,
    /// Made inside this (uncommitted) database transaction.
    pub(super) tx: Option<String>,
    pub(super) guarded: bool,
    /// Made by a SQL statement on an idempotency table (`Op::idempotency_table`).
    pub(super) idempotency_table: bool,
    /// Its result is the previous value ([`super::ops::Op::returns_previous`]).
    pub(super) returns_previous: bool,
    /// A lock-style claim whose result is bound: an RAII guard unless the
    /// binding is tested like a flag (`if !acquired { .. }`).
    pub(super) raii: bool,
    pub(super) tested: bool,
    pub(super) exits: Vec<ClaimExit>,
    pub(super) completion: Option<Site>,
    /// The body the claim was made in (see [`Walker::frame`]).
    pub(super) frame: usize,
}

/// What [`Walker::enter_frame`] saves of the enclosing body.
pub(super) struct Frame {
    frame: usize,
    closure: usize,
    catch: usize,
    handed: BTreeSet<usize>,
}

/// What holds on the current path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct State {
    pub(super) open: BTreeSet<usize>,
    pub(super) committed: BTreeSet<String>,
}

/// The state where paths join: a claim open on any arriving path stays
/// open; a diverged path (`None`) arrives nowhere.
pub(super) fn merge(states: Vec<Option<State>>) -> Option<State> {
    let mut out: Option<State> = None;
    for state in states.into_iter().flatten() {
        out = Some(match out {
            None => state,
            Some(mut acc) => {
                acc.open.extend(state.open);
                acc.committed.extend(state.committed);
                acc
            }
        });
    }
    out
}

/// What is computed once per unit and shared by the functions' walks.
pub(super) struct Unit {
    /// Types whose `Drop` releases.
    pub(super) drop_guards: HashSet<String>,
    /// Crate-local helpers that release.
    pub(super) releasers: HashSet<String>,
    /// Memo for [`Walker::is_key_name`].
    pub(super) key_names: RefCell<HashMap<String, bool>>,
    /// Constants holding the text of a SQL statement that claims, completes
    /// or releases an idempotency record (`const CLAIM_SQL: &str = "INSERT
    /// … 'in_progress'"`), by name.
    pub(super) sql_consts: HashMap<String, String>,
    /// Crate functions returning a scoped key or the client's key by flow
    /// (`analysis::UnitFacts::key_makers`).
    pub(super) key_makers: HashSet<String>,
    /// Fields records are given a scoped key in (`key_fields::scoped_fields`).
    pub(super) key_fields: HashSet<String>,
}

/// Walks one function body path by path (see the `claims` module docs).
pub(super) struct Walker<'a> {
    pub(super) vocab: &'a Vocabulary,
    pub(super) file: u32,
    pub(super) unit: &'a Unit,
    pub(super) claims: Vec<Claim>,
    /// `None`: the current path has diverged.
    pub(super) state: Option<State>,
    /// Key-ish bindings and the roots they derive from (themselves included).
    pub(super) keys: HashMap<String, BTreeSet<String>>,
    /// Bindings holding a claim call's result.
    pub(super) claim_results: HashMap<String, usize>,
    /// Bindings holding write options that set only if absent (`NX`).
    pub(super) nx_options: HashSet<String>,
    /// Bindings holding an open database transaction.
    pub(super) tx_bindings: HashSet<String>,
    /// Bindings holding a prepared statement, with its SQL text
    /// (`let complete = session.prepare(COMPLETE_SQL).await?`).
    pub(super) statements: HashMap<String, String>,
    /// Bindings whose error path releases these claims (`if r.is_err() { release }`).
    pub(super) err_released: HashMap<String, BTreeSet<usize>>,
    /// Roots of guards made so far: later claims on those keys are guarded too.
    pub(super) guard_roots: Vec<BTreeSet<String>>,
    /// Claim calls by span, to recognise `claim(..)?` and `if !claim(..)`.
    pub(super) claim_at: HashMap<Site, usize>,
    /// Enclosing loops and labelled blocks, innermost last, by label.
    pub(super) loops: Vec<Option<String>>,
    /// Per enclosing `loop` (with the depth of `loops` inside it): the
    /// claims open where it was entered, and those released on every
    /// `break Err(..)` so far (`None`: no such break yet).
    pub(super) loop_err_breaks: Vec<LoopErrBreaks>,
    /// Inside a closure or async block that runs right here but whose
    /// error is not propagated at once: `?`/`return` leave it, not the body.
    pub(super) closure: usize,
    /// The body being walked: 0 is the function; each closure or async
    /// block that runs elsewhere or later (`Box::pin(async move { .. })`,
    /// `tokio::spawn`, a combinator's closure) is a body of its own, whose
    /// exits leave the claims made in it and no others.
    pub(super) frame: usize,
    /// Bodies entered so far (the next frame's id).
    pub(super) frames: usize,
    /// Claims made by a body's value (`|| store.try_claim(&key)`): the
    /// caller receives them, so they belong to the enclosing body.
    pub(super) handed: BTreeSet<usize>,
    /// Inside `catch_unwind`: panics are caught.
    pub(super) catch: usize,
    /// Inside a closure passed to `.transaction(..)`.
    pub(super) tx_closure: usize,
    /// Awaited `async` blocks being walked, innermost last: the `closure`
    /// depth inside each, and the claims open where a `?` or `return` left it.
    pub(super) async_jumps: Vec<(usize, BTreeSet<usize>)>,
    /// Closures held in bindings (`let render = |ls| ..`), by name.
    pub(super) local_closures: HashMap<String, std::rc::Rc<syn::ExprClosure>>,
    /// `async` blocks bound to a name (`let op = async { .. };`), walked
    /// where they are awaited (`op.await`), or at the end if never.
    pub(super) local_blocks: HashMap<String, std::rc::Rc<syn::ExprAsync>>,
    /// Calls of those being walked, one inside another.
    pub(super) closure_calls: usize,
    /// The expression being walked is the function's value (tail position).
    pub(super) tail: bool,
    /// The expression being walked is the operand of a `?`.
    pub(super) propagated: bool,
    pub(super) depth: usize,
}

impl<'a> Walker<'a> {
    pub(super) fn new(vocab: &'a Vocabulary, file: u32, unit: &'a Unit) -> Self {
        Walker {
            vocab,
            file,
            unit,
            claims: Vec::new(),
            state: Some(State::default()),
            keys: HashMap::new(),
            claim_results: HashMap::new(),
            nx_options: HashSet::new(),
            tx_bindings: HashSet::new(),
            statements: HashMap::new(),
            err_released: HashMap::new(),
            guard_roots: Vec::new(),
            claim_at: HashMap::new(),
            loops: Vec::new(),
            loop_err_breaks: Vec::new(),
            closure: 0,
            frame: 0,
            frames: 0,
            handed: BTreeSet::new(),
            catch: 0,
            tx_closure: 0,
            async_jumps: Vec::new(),
            local_closures: HashMap::new(),
            local_blocks: HashMap::new(),
            closure_calls: 0,
            tail: false,
            propagated: false,
            depth: 0,
        }
    }

    pub(super) fn run(&mut self, def: &FnDef<'_>) {
        for input in &def.sig.inputs {
            if let syn::FnArg::Typed(pt) = input {
                if let Pat::Ident(pi) = &*pt.pat {
                    let name = pi.ident.to_string();
                    // A parameter is a key by its name or by its type
                    // (`scoped: &ScopedKey`, `k: IdempotencyKey`).
                    let ty = type_name(&pt.ty);
                    let typed_key = ty.as_deref().is_some_and(|t| self.is_key_name(t));
                    if ty.as_deref() == Some("ScopedKey") {
                        // idem_scope's `ScopedKey` is made only by its key
                        // constructors: a scoped key by flow, as `scoped(..)` is.
                        let root = format!("{}{name}", super::findings::SCOPED_ROOT);
                        self.keys.insert(name.clone(), BTreeSet::from([name, root]));
                    } else if self.is_key_name(&name) || typed_key {
                        self.keys.insert(name.clone(), BTreeSet::from([name]));
                    }
                }
            }
        }
        self.tail = true;
        self.block(def.block);
        // A bound block never awaited here (spawned, joined, returned)
        // runs on its own.
        let mut unawaited: Vec<_> = std::mem::take(&mut self.local_blocks).into_iter().collect();
        unawaited.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, block) in unawaited {
            self.detached(|w| {
                w.tail = true;
                w.block(&block.block);
            });
        }
    }

    pub(super) fn findings(self) -> Vec<ClaimFinding> {
        self.claims
            .into_iter()
            .filter(|c| {
                let held_by_guard = c.guarded || (c.raii && !c.tested);
                !held_by_guard && !c.exits.is_empty()
            })
            .filter_map(|c| {
                let completion = c.completion?;
                let mut exits = c.exits;
                exits.sort_by_key(|e| e.site);
                // A key built by a key constructor (`scoped(..)`) or read
                // from the key header is known by flow, as is a row of an
                // idempotency table; otherwise the key events decide
                // (`analysis::analyze`).
                let by_flow =
                    c.idempotency_table || c.roots.iter().any(|r| super::findings::root_by_flow(r));
                Some(ClaimFinding {
                    claim: c.site,
                    verb: c.verb,
                    key_text: c.key_text,
                    exits,
                    completion,
                    by_flow,
                })
            })
            .collect()
    }

    pub(super) fn site(&self, node: &impl Spanned) -> Site {
        Site {
            file: self.file,
            span: span_of(node.span()),
        }
    }

    pub(super) fn is_key_name(&self, name: &str) -> bool {
        // Asked for every identifier of every `let`: the vocabulary splits
        // names into words, so remember the answers.
        if let Some(&known) = self.unit.key_names.borrow().get(name) {
            return known;
        }
        let answer = self.vocab.is_client_key_name(name) || self.vocab.is_key_position_name(name);
        self.unit
            .key_names
            .borrow_mut()
            .insert(name.to_string(), answer);
        answer
    }

    /// An exit of kind `kind` at `node` from the path being walked: every
    /// open claim of this frame (but `exclude`) leaves by it.
    pub(super) fn exit(&mut self, kind: ExitKind, node: &impl Spanned, exclude: &BTreeSet<usize>) {
        let Some(state) = &self.state else {
            return;
        };
        let is_panic = matches!(kind, ExitKind::Panic(_) | ExitKind::Unwrap(_));
        if is_panic && self.catch > 0 {
            return;
        }
        if !is_panic && self.closure > 0 && matches!(kind, ExitKind::Question | ExitKind::Return) {
            // Out of an awaited `async` block: to the code after it.
            if let Some((level, jumped)) = self.async_jumps.last_mut() {
                if *level == self.closure {
                    let frame = self.frame;
                    let open = (state.open.iter())
                        .filter(|&&id| self.claims[id].frame == frame && !exclude.contains(&id));
                    jumped.extend(open);
                }
            }
            return;
        }
        // Only now: a node's span prints it to tokens, and most exits
        // (every `unwrap` of every function) leave no claim open.
        let site = self.site(node);
        let target = match &kind {
            ExitKind::Break | ExitKind::Continue => Some(self.loops.len()),
            _ => None,
        };
        for &id in &state.open {
            if exclude.contains(&id) || self.claims[id].frame != self.frame {
                continue;
            }
            let claim = &mut self.claims[id];
            if let Some(tx) = &claim.tx {
                if !state.committed.contains(tx) {
                    continue;
                }
            }
            if let Some(depth) = target {
                if claim.loop_depth < depth || depth == 0 {
                    continue;
                }
            }
            if !claim.exits.iter().any(|e| e.site == site) {
                claim.exits.push(ClaimExit {
                    kind: kind.clone(),
                    site,
                });
            }
        }
    }

    /// Enters a body of its own (see [`Walker::frame`]): its `?`, `return`,
    /// panics and tail value are its exits. Returns what to restore.
    pub(super) fn enter_frame(&mut self) -> Frame {
        self.frames += 1;
        Frame {
            frame: std::mem::replace(&mut self.frame, self.frames),
            closure: std::mem::take(&mut self.closure),
            catch: std::mem::take(&mut self.catch),
            handed: std::mem::take(&mut self.handed),
        }
    }

    /// Leaves the body entered by [`Walker::enter_frame`]. Its claims stay
    /// open on the enclosing path only when the body's value hands them
    /// over; the others are the body's own business, already judged at
    /// its exits.
    pub(super) fn leave_frame(&mut self, outer: Frame) {
        let inner = std::mem::replace(&mut self.frame, outer.frame);
        self.closure = outer.closure;
        self.catch = outer.catch;
        let handed = std::mem::replace(&mut self.handed, outer.handed);
        let mut dropped = BTreeSet::new();
        for (id, claim) in self.claims.iter_mut().enumerate() {
            if claim.frame != inner {
                continue;
            }
            if handed.contains(&id) {
                claim.frame = self.frame;
                continue;
            }
            dropped.insert(id);
        }
        self.close(&dropped);
    }

    pub(super) fn open_now(&self) -> BTreeSet<usize> {
        self.state
            .as_ref()
            .map(|s| s.open.clone())
            .unwrap_or_default()
    }

    pub(super) fn close(&mut self, ids: &BTreeSet<usize>) {
        if let Some(state) = &mut self.state {
            for id in ids {
                state.open.remove(id);
            }
        }
    }

    /// From here on the open claims (and later claims on the same keys) are
    /// held by a guard: exits before this point still count.
    pub(super) fn guard(&mut self, roots: BTreeSet<String>) {
        let open = self.open_now();
        self.close(&open);
        if !roots.is_empty() {
            self.guard_roots.push(roots);
        }
    }
}

/// The last path segment of a parameter's type, through references and
/// parentheses (`&idem_scope::ScopedKey` → `ScopedKey`).
fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Reference(r) => type_name(&r.elem),
        syn::Type::Paren(p) => type_name(&p.elem),
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// See [`Walker::loop_err_breaks`].
pub(super) struct LoopErrBreaks {
    pub(super) depth: usize,
    pub(super) entry_open: BTreeSet<usize>,
    pub(super) released: Option<BTreeSet<usize>>,
}
