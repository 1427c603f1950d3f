//! A payload record's own methods (`impl DedupeToken for FxOrder { fn
//! token(&self) .. }`): their `self` is a parameter of their summaries, so
//! a call on the request's record says what the method made of it (a
//! digest of the order), as for any argument.

use std::borrow::Cow;

use super::payload_hash::carries_nothing;
use super::{Evaluator, RECEIVER_PARAM};
use crate::analysis::index::FnDef;
use crate::analysis::value::Value;

impl Evaluator<'_> {
    /// A method of a record the unit deserialises from requests
    /// (`impl DedupeToken for FxOrder { fn token(&self) .. }`) gets its
    /// receiver as parameter [`RECEIVER_PARAM`], so its summary says what
    /// it makes of `self` (a digest of the order), as of any argument.
    /// Only such records': a service's own `self` holds stores and clients,
    /// whose methods are read where they are called.
    pub(super) fn bind_payload_receiver(&mut self, def: &FnDef<'_>) {
        // A trait's default method (its `self_ty` is the trait) may be
        // such a record's (`fn tag(&self)` hashing `self.tag_bytes()`):
        // which types implement it, the pre-filter may have left out, and
        // its callers hand on only what a payload record's `self` gives.
        let payload_record = match (&def.self_ty, &def.trait_of) {
            (Some(ty), Some(tr)) if ty == tr => true,
            (Some(ty), _) => self.index.is_deserialized(ty),
            (None, _) => false,
        };
        if def.has_receiver() && payload_record {
            let value = Value {
                params: 1u64 << RECEIVER_PARAM,
                ..Value::empty()
            };
            self.declare("self".to_string(), value);
        }
    }

    /// The arguments of a call of methods `ids`, with the receiver at
    /// [`RECEIVER_PARAM`] where a callee's summary returns a digest of its
    /// `self` (a payload record's method, `Evaluator::bind_payload_receiver`).
    /// Only a digest: a record's getters (a settings record's
    /// `config.db_url()`) would hand on all the receiver carries, which the
    /// result of a crate method has never carried.
    pub(super) fn with_receiver<'v>(
        &self,
        ids: &[usize],
        args: &'v [Value],
        recv: &Value,
    ) -> Cow<'v, [Value]> {
        let bit = 1u64 << RECEIVER_PARAM;
        let summaries = || ids.iter().filter_map(|&id| self.summaries.get(id));
        let reads_self = summaries().any(|s| s.ret.hashed_params & bit != 0);
        // A result made of `self` (`form.canonical()` writing the form's
        // fields) is the payload it was made of, whatever else the
        // receiver carries: only that provenance is handed on.
        // So is a receiver that is itself a parameter here (a record's
        // method calling another of its own, `self.tag_bytes()`), for the
        // caller of this one to say what it is.
        let payload_of_self = (recv.payload.is_some() || recv.params != 0)
            && summaries().any(|s| s.ret.params & bit != 0);
        if args.len() >= RECEIVER_PARAM || !(reads_self || payload_of_self) {
            return Cow::Borrowed(args);
        }
        // A receiver nothing is known of (a closure's parameter) leaves the
        // summary's own judgement of `self` (the payload by its type's name).
        if reads_self && carries_nothing(recv) && !recv.stored {
            return Cow::Borrowed(args);
        }
        let mut all = args.to_vec();
        all.resize_with(RECEIVER_PARAM, Value::empty);
        all.push(if reads_self {
            recv.clone()
        } else {
            Value {
                payload: recv.payload.clone(),
                params: recv.params,
                ..Value::empty()
            }
        });
        Cow::Owned(all)
    }
}
