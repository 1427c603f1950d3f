//! The evaluator's environment: a stack of scopes of bindings, and
//! alternatives (`if`, `match` arms) that each start from the same state
//! and whose end states are merged.
//!
//! An alternative does not copy the environment: while an arm runs, the
//! first write to each binding of a scope older than the arm saves that
//! binding's start value (a [`Frame`]), and when the arm ends only those
//! bindings are put back. So the cost of a branch follows what its arms
//! change, not how many bindings the function has in scope (a long handler
//! with many `if`s copied all of them once per arm).

use std::collections::HashMap;

use crate::analysis::value::Value;

/// Scopes of bindings, innermost last.
#[derive(Debug)]
pub(super) struct Env {
    scopes: Vec<HashMap<String, Value>>,
    /// The alternatives being run, innermost last.
    frames: Vec<Frame>,
}

/// One running arm of an alternative.
#[derive(Debug)]
struct Frame {
    /// Per scope older than the arm (the arm's own vanish with it), the
    /// bindings the arm wrote and their values at its start (`None`: not
    /// bound then).
    saved: Ends,
}

/// Per scope, bindings and a value of each: what an arm found at its start,
/// or what it left at its end.
type Ends = Vec<HashMap<String, Option<Value>>>;

impl Env {
    /// An environment of one (the function's) scope.
    pub(super) fn new() -> Env {
        Env {
            scopes: vec![HashMap::new()],
            frames: Vec::new(),
        }
    }

    /// The value bound to `name` in the innermost scope that has it.
    pub(super) fn lookup(&self, name: &str) -> Option<&Value> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// The scope (0: the function's own) that binds `name`.
    pub(super) fn level_of(&self, name: &str) -> Option<usize> {
        self.scopes.iter().rposition(|s| s.contains_key(name))
    }

    /// Binds `name` in the innermost scope.
    pub(super) fn declare(&mut self, name: String, value: Value) {
        let Some(level) = self.scopes.len().checked_sub(1) else {
            return;
        };
        self.save(level, &name);
        self.scopes[level].insert(name, value);
    }

    /// Binds `name` in the function's own scope, so that it outlives the
    /// block that binds it.
    pub(super) fn declare_outermost(&mut self, name: String, value: Value) {
        if self.scopes.is_empty() {
            return;
        }
        self.save(0, &name);
        self.scopes[0].insert(name, value);
    }

    /// Whether the function's own scope binds a name that starts so.
    pub(super) fn binds_prefixed(&self, prefix: &str) -> bool {
        self.scopes
            .first()
            .is_some_and(|s| s.keys().any(|k| k.starts_with(prefix)))
    }

    /// Rebinds `name` where it is bound, or binds it in the innermost scope.
    pub(super) fn assign(&mut self, name: &str, value: Value) {
        match self.level_of(name) {
            Some(level) => {
                self.save(level, name);
                self.scopes[level].insert(name.to_string(), value);
            }
            None => self.declare(name.to_string(), value),
        }
    }

    /// Changes the value bound to `name`, if it is bound.
    pub(super) fn update(&mut self, name: &str, f: impl FnOnce(&mut Value)) {
        if let Some(level) = self.level_of(name) {
            self.save(level, name);
            if let Some(slot) = self.scopes[level].get_mut(name) {
                f(slot);
            }
        }
    }

    /// Opens a nested scope.
    pub(super) fn push(&mut self) {
        self.scopes.push(HashMap::new());
    }

    /// Closes the innermost scope.
    pub(super) fn pop(&mut self) {
        self.scopes.pop();
    }

    /// Before binding (level, name) changes: every running arm that started
    /// above that scope keeps its start value, once.
    fn save(&mut self, level: usize, name: &str) {
        for frame in self.frames.iter_mut().rev() {
            // Older frames are no deeper: none of them saves this scope.
            let Some(saved) = frame.saved.get_mut(level) else {
                break;
            };
            if !saved.contains_key(name) {
                saved.insert(name.to_string(), self.scopes[level].get(name).cloned());
            }
        }
    }

    /// Starts an arm of an alternative.
    pub(super) fn begin_arm(&mut self) {
        self.frames.push(Frame {
            saved: vec![HashMap::new(); self.scopes.len()],
        });
    }

    /// Ends the running arm: takes what it left in the bindings it wrote
    /// and puts their start values back.
    pub(super) fn end_arm(&mut self) -> Ends {
        let Some(frame) = self.frames.pop() else {
            return Ends::new();
        };
        self.scopes.truncate(frame.saved.len().max(1));
        let mut ends = Ends::with_capacity(frame.saved.len());
        for (scope, saved) in self.scopes.iter_mut().zip(frame.saved) {
            let mut left = HashMap::with_capacity(saved.len());
            for (name, start) in saved {
                let end = scope.remove(&name);
                if let Some(start) = start {
                    scope.insert(name.clone(), start);
                }
                left.insert(name, end);
            }
            ends.push(left);
        }
        ends
    }

    /// Merges the arms' `ends` into the start state: a binding any arm
    /// wrote becomes the union, in arm order, of each arm's end value (the
    /// start value where an arm left it alone).
    pub(super) fn merge(&mut self, ends: Vec<Ends>) {
        let mut merged: Vec<(usize, String, Option<Value>)> = Vec::new();
        for level in 0..self.scopes.len() {
            let mut written: Vec<&String> = (ends.iter())
                .filter_map(|arm| arm.get(level))
                .flat_map(|scope| scope.keys())
                .collect();
            written.sort();
            written.dedup();
            for name in written {
                let start = self.scopes[level].get(name.as_str());
                let mut acc: Option<Value> = None;
                for arm in &ends {
                    let value = match arm.get(level).and_then(|s| s.get(name.as_str())) {
                        Some(end) => end.as_ref(),
                        None => start,
                    };
                    if let Some(value) = value {
                        acc = Some(match acc {
                            None => value.clone(),
                            Some(acc) => acc.union(value),
                        });
                    }
                }
                merged.push((level, name.clone(), acc));
            }
        }
        for (level, name, value) in merged {
            self.save(level, &name);
            match value {
                Some(value) => {
                    self.scopes[level].insert(name, value);
                }
                None => {
                    self.scopes[level].remove(&name);
                }
            }
        }
    }
}
