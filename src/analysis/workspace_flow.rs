//! Flow between the crates of one workspace: a call into another crate
//! that passes the client's key by flow ([`KeyCall`]) makes the parameter
//! it lands on a source there ([`Seeds`]). Without it, a service crate
//! whose handlers live in another crate sees its `nonce: Option<String>`
//! parameter with no caller, and a key stored under it raw is only a name
//! (rules.md, "Evidence and confidence").
//!
//! Calls are matched by the callee's name and arity, and only into crates
//! the caller's manifest depends on (`lint::workspace`): without types, a
//! name alone (`create`) would reach every crate of the workspace.

use serde::{Deserialize, Serialize};

use super::index::{CrateIndex, FnDef};
use super::syntax::span_of;
use super::value::Site;
use crate::model::Span;

/// A call of a function the unit does not define, one of whose arguments
/// carries the client's key by flow (a `certain` source).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct KeyCall {
    /// The called function's name (the last path segment, or the method).
    pub callee: String,
    /// Method syntax (`recv.callee(..)`): the receiver is no argument.
    pub method: bool,
    /// How many arguments it is given (the receiver of method syntax not
    /// counted).
    pub args: usize,
    /// Which of them carries the key.
    pub arg: usize,
    /// What the call is made on: a method's receiver's last name
    /// (`srv.webhooks` of `srv.webhooks.create(..)`), a path's type
    /// (`Webhooks` of `Webhooks::create(..)`); `None` for a free function.
    pub receiver: Option<String>,
}

impl KeyCall {
    /// Which parameter of `def` (receiver excluded) this call gives the
    /// key to, if `def` can be its callee.
    pub fn param_of(&self, def: &FnDef<'_>) -> Option<usize> {
        if def.name != self.callee || !self.receiver_is(def) {
            return None;
        }
        let receiver = def.has_receiver();
        let params = def.sig.inputs.len() - usize::from(receiver);
        match (self.method, receiver) {
            (true, true) if params == self.args => Some(self.arg),
            (false, false) if params == self.args => Some(self.arg),
            // `Service::create(&svc, key)`: the first argument is `self`.
            (false, true) if params + 1 == self.args && self.arg > 0 => Some(self.arg - 1),
            _ => None,
        }
    }
}

impl KeyCall {
    /// Whether the call can be made on `def`'s type: without types, the
    /// name of what it is called on must name it (`srv.webhooks` or
    /// `Webhooks::create` of `impl ServiceWebhooks`), so one handler's
    /// `create(.., key)` is not every service's `create`.
    fn receiver_is(&self, def: &FnDef<'_>) -> bool {
        let (Some(receiver), Some(ty)) = (&self.receiver, &def.self_ty) else {
            // A free function called as one, or by a path to it.
            return self.receiver.is_none() || def.self_ty.is_none() && !self.method;
        };
        let ty = ty.to_ascii_lowercase();
        let word = receiver.to_ascii_lowercase().replace('_', "");
        let stem = word.strip_suffix('s').unwrap_or(&word);
        stem.len() >= 3 && ty.contains(stem)
    }
}

/// Where a [`KeyCall`] is made, in the unit's file numbering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyCallSite {
    /// The call.
    pub call: KeyCall,
    /// Its expression.
    pub site: Site,
}

/// A call from another crate that seeds a parameter of this unit.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seed {
    /// The call.
    pub call: KeyCall,
    /// The display path of the file the call is made in.
    pub path: String,
    /// The call's expression there.
    pub span: Span,
}

/// The seeds of one unit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seeds(pub Vec<Seed>);

impl Seeds {
    /// The parameters of `def` that a seed gives the client's key (bit N =
    /// parameter N, receiver excluded).
    pub fn mask_of(&self, def: &FnDef<'_>) -> u64 {
        (self.0.iter())
            .filter_map(|seed| seed.call.param_of(def))
            .filter(|&n| n < 64)
            .fold(0, |mask, n| mask | (1u64 << n))
    }

    /// Per function of `index`, its seeded parameters ([`Seeds::mask_of`]).
    pub fn masks(&self, index: &CrateIndex<'_>) -> Vec<u64> {
        index.fns.iter().map(|def| self.mask_of(def)).collect()
    }

    /// The seeded parameters' patterns, each with the seeds that give it
    /// the key: where a finding's path starts in this unit.
    pub fn param_sites(&self, index: &CrateIndex<'_>) -> Vec<(Site, Vec<Seed>)> {
        let mut sites = Vec::new();
        for def in &index.fns {
            let typed = (def.sig.inputs.iter()).filter_map(|input| match input {
                syn::FnArg::Typed(pat_type) => Some(pat_type),
                syn::FnArg::Receiver(_) => None,
            });
            for (n, pat_type) in typed.enumerate() {
                let seeds: Vec<Seed> = (self.0.iter())
                    .filter(|seed| seed.call.param_of(def) == Some(n))
                    .cloned()
                    .collect();
                if !seeds.is_empty() {
                    let site = Site {
                        file: def.file,
                        span: span_of(syn::spanned::Spanned::span(&*pat_type.pat)),
                    };
                    sites.push((site, seeds));
                }
            }
        }
        sites
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
