//! Facts for payload-hash keys (IDEM003): payload reads and names, hash calls
//! and hasher objects (`Sha256::new()`, `h.update(body)`, `body.hash(&mut
//! h)`), fingerprints (which are the intended use and clear the facts), and
//! how a payload hash crosses function boundaries and becomes a key. A
//! helper fed a hasher parameter (`fn add(h: &mut Sha256, body: &[u8])`)
//! records what it fed in `Summary::absorbs`, applied at each call.

use crate::analysis::payload_sources;
use std::ops::ControlFlow;

use syn::spanned::Spanned;
use syn::Expr;

use super::sinks::receiver_name;
use super::{bits, Evaluator, MethodCall};
use crate::analysis::hashing::{self, HashCall};
use crate::analysis::syntax::{self, access_levels, path_segments, place_name};
use crate::analysis::value::{Origin, PayloadHash, Site, Value};
use crate::analysis::vocab::words;

/// At most this many hasher feeds are kept per function summary.
const MAX_ABSORBS: usize = 32;

impl Evaluator<'_> {
    /// Where a payload/hash/server-id fact was established. The rules only
    /// label the site, and reading the source text back costs a scan of
    /// the file per call, so the text is left empty.
    pub(super) fn fact_origin(&self, node: &impl Spanned) -> Box<Origin> {
        Box::new(Origin {
            site: self.site(node),
            text: String::new(),
            by_name: false,
            parsed: false,
        })
    }

    /// What a name says about payloads and fingerprints, and (see
    /// `server_keys`) server ids.
    pub(super) fn enrich_payload_and_server(
        &self,
        value: &mut Value,
        name: &str,
        node: &impl Spanned,
    ) {
        if hashing::names_fingerprint(name) {
            // Stored as a fingerprint beside the key: the intended use.
            clear_payload(value);
            return;
        }
        if value.client_key.is_some() {
            return;
        }
        // A digest named `body_hash` is not the body itself.
        if value.payload.is_none()
            && value.digest.is_none()
            && !value.stored
            && !value.has_component()
            && self.vocab.is_payload_name(name)
        {
            let mut origin = self.fact_origin(node);
            origin.by_name = true;
            value.payload = Some(origin);
        }
        self.server_id_by_name(value, name, node);
    }

    /// A field of the payload that names an identity or the client key
    /// (`body.user_id`, `req.idempotency_key`) is that value, not the payload:
    /// its hash keys an identity or a client key. A field named for one
    /// component is that component only.
    pub(super) fn identity_field(&self, value: &mut Value, field: &str) {
        // A field named for one component (`caller.org_id`) is that
        // component, not the others its record stood for (`caller`, the
        // principal): field by field, the record is no longer whole.
        if let Some(own) = self.vocab.component_of_name(field) {
            value.keep_only_component(own);
        }
        if value.payload.is_some()
            && (self.vocab.component_of_name(field).is_some()
                || self.vocab.is_client_key_name(field))
        {
            value.payload = None;
        }
    }

    /// A call whose path names a fingerprint makes one: `Fingerprint::of(..)`.
    pub(super) fn after_call(&self, mut value: Value, func: &Expr) -> Value {
        if let Expr::Path(p) = func {
            if p.path
                .segments
                .iter()
                .any(|s| hashing::names_fingerprint(&s.ident.to_string()))
            {
                // A fingerprint is made of the payload, not the payload: kept
                // beside a key it is no content-addressed copy of a
                // parameter's bytes either (`content_addressed`).
                clear_payload(&mut value);
                value.params = 0;
            }
        }
        value
    }

    /// `req.body` (a field of the request, as `req.body()` is its method;
    /// humphrey's `request.content`) is the raw payload by where it comes
    /// from, not by its name.
    pub(super) fn request_body_field(&self, value: &mut Value, base: &Expr, field: &str) {
        // A credential the payload carries (`body.signing_secret`) is a
        // credential: its hash indexes it (rules.md: "a hash of identity,
        // credentials, tokens .. is not a payload hash").
        if value.payload.is_some() && names_credential(field) {
            value.payload = None;
            return;
        }
        let body_field = matches!(
            field,
            "body" | "raw_body" | "body_bytes" | "content" | "payload"
        );
        if !body_field || names_response(base) || !names_request(base) {
            return;
        }
        match value.payload.as_mut() {
            Some(origin) => origin.by_name = false,
            None if value.client_key.is_none() && value.digest.is_none() => {
                value.payload = Some(self.fact_origin(base));
            }
            None => {}
        }
    }

    /// `req.as_reader().read_to_end(&mut body)`: a buffer the request is
    /// read into holds the payload by where it comes from.
    pub(super) fn read_into_buffer(&mut self, m: &syn::ExprMethodCall, call: &Expr) {
        let method = m.method.to_string();
        if !matches!(
            method.as_str(),
            "read_to_end" | "read_to_string" | "read_exact"
        ) {
            return;
        }
        // The reader and what it is read from: `req` of `req.as_reader()`,
        // `req.body_mut()`, nickel's `req.origin` (the request itself).
        let levels = access_levels(&m.receiver);
        // Or a reader bound from the request elsewhere (rouille's `match
        // request.data() { Some(mut data) => data.read_to_end(&mut body) }`):
        // a local that only a request parameter flows into.
        let from_request = || {
            let Some(local) = levels.last().and_then(|root| place_name(root)) else {
                return false;
            };
            self.lookup(&local).is_some_and(|v| {
                v.client_key.is_none()
                    && bits(v.params).any(|p| {
                        (self.param_names.get(p))
                            .and_then(|n| n.as_deref())
                            .is_some_and(is_request_name)
                    })
            })
        };
        if levels.iter().any(|l| names_response(l))
            || !(levels.iter().any(|l| names_request(l)) || from_request())
        {
            return;
        }
        if let Some(buffer) = m.args.first() {
            self.payload_into_local(buffer, call, false);
        }
    }

    /// `serde_json::from_slice(bytes)`: bytes held in a local that the code
    /// deserialises into a record are the raw payload of a request or
    /// message, for what is computed from them later (a hash of them is a
    /// payload hash). Returns whether it is such a call: the record it
    /// returns is the deserialised input (`eval_path_call`).
    pub(super) fn deserialised_bytes(
        &mut self,
        segments: &[String],
        exprs: &[&Expr],
        call: &Expr,
    ) -> bool {
        match parsed_bytes(segments, exprs) {
            Some(bytes) => {
                self.payload_into_local(bytes, call, true);
                true
            }
            None => false,
        }
    }

    /// The local `expr` names (`body`, `&mut body`) holds the payload from
    /// `call` on, unless it already carries a key, a digest, a payload
    /// known by more than its name, or a file's content.
    fn payload_into_local(&mut self, expr: &Expr, call: &Expr, parsed: bool) {
        let Some(name) = place_name(expr) else {
            return;
        };
        let mut origin = self.fact_origin(call);
        self.update(&name, |value| {
            let by_name = (value.payload.as_ref()).is_none_or(|p| p.by_name);
            // A file's content deserialised is stored data (a settings
            // file), not a request's payload.
            if value.client_key.is_none() && value.digest.is_none() && by_name && !value.stored {
                origin.parsed = parsed && value.payload.is_none();
                value.payload = Some(origin);
            }
        });
    }

    /// A binding this function parses into a record later
    /// ([`parsed_names`]) holds the input by flow, not by its name alone:
    /// `let body = ctx.body.bytes().collect()?` hashed before
    /// `serde_json::from_slice(&body)`.
    /// So does one a parameter of another crate's type handed out as
    /// bytes or text (`let raw = inb.bytes().await?` before
    /// `serde_json::from_slice(&raw)`): whatever the framework calls its
    /// request, what the function decodes a record from is its input.
    pub(super) fn parsed_later(&mut self, pat: &syn::Pat, init: Option<&Expr>) {
        let Some(name) = syntax::pat_ident(pat) else {
            return;
        };
        // Only a payload known by its name alone asks, or bytes a foreign
        // parameter hands out (rare): the body is walked for its parses
        // then, once.
        let by_name = |v: &Value| v.payload.as_ref().is_some_and(|p| p.by_name);
        let handed_out = init.filter(|init| {
            let plain = |v: &Value| {
                v.payload.is_none() && v.client_key.is_none() && v.digest.is_none() && !v.stored
            };
            self.lookup(&name).is_some_and(plain) && self.hands_out_bytes(init)
        });
        if !self.lookup(&name).is_some_and(by_name) && handed_out.is_none() {
            return;
        }
        let body = self.body;
        let parsed = self.parsed_later.get_or_insert_with(|| parsed_names(body));
        if !parsed.contains(&name) {
            return;
        }
        let origin = handed_out.map(|init| self.fact_origin(init));
        self.update(&name, |value| {
            if let Some(origin) = origin {
                value.payload = Some(origin);
            } else if let Some(origin) = value.payload.as_mut() {
                if value.client_key.is_none() && value.digest.is_none() && !value.stored {
                    origin.by_name = false;
                }
            }
        });
    }

    /// `inb.bytes().await?`: a parameter of another crate's type asked for
    /// its content as bytes or text, given nothing.
    fn hands_out_bytes(&self, init: &Expr) -> bool {
        let Some(m) = syntax::asked_call(init) else {
            return false;
        };
        let method = m.method.to_string();
        let content = payload_sources::reads_body_method(&method) || asks_content(&method);
        content && m.args.is_empty() && self.is_foreign_param(&m.receiver)
    }

    /// `req.fingerprint()` makes a fingerprint; `req.body()`,
    /// `request.into_body()`, `req.bytes()` read the payload.
    pub(super) fn after_method_call(
        &self,
        mut value: Value,
        m: &syn::ExprMethodCall,
        expr: &Expr,
    ) -> Value {
        let method = m.method.to_string();
        if hashing::names_fingerprint(&method) {
            clear_payload(&mut value);
            return value;
        }
        if value.payload.is_some() || value.client_key.is_some() || value.digest.is_some() {
            return value;
        }
        let of_request = || names_request(&m.receiver);
        // `response.body()`: the response is what the server answers, not
        // the request payload (a stored response hash is a fingerprint).
        let reads_body = (payload_sources::reads_body_method(&method)
            && !names_response(&m.receiver))
            || (asks_content(&method)
                && m.args.is_empty()
                && (of_request() || self.is_request_param(&m.receiver)));
        if reads_body {
            value.payload = Some(self.fact_origin(expr));
        }
        // `let (parts, body) = req.into_parts();`: the second part is the
        // body (`into_parts_buffered()` too).
        if method.starts_with("into_parts")
            && m.args.is_empty()
            && of_request()
            && !names_response(&m.receiver)
        {
            let body = Value {
                payload: Some(self.fact_origin(expr)),
                ..Value::default()
            };
            value.elems = Some(vec![value.clone(), body]);
        }
        value
    }

    /// The digest of `input`, computed at `node`.
    pub(super) fn digest_value(&self, input: &Value, node: &impl Spanned) -> Value {
        let mut out = Value::empty();
        // Provenance (client key, components, parameters) flows through the
        // hash as through any unknown call; only the payload becomes a hash.
        out.join_as_part(input);
        out.hasher = false;
        out.construct = None;
        out.concat = None;
        out.concat_params.clear();
        out.payload = None;
        out.hash_keyed = None;
        let payload = input.payload.clone().or_else(|| {
            input
                .payload_hash
                .as_ref()
                .map(|h| Box::new(h.payload.clone()))
        });
        // A hash that covers the client key (or a scoped key) is a key
        // digest, not a payload hash.
        let covers_key = input.client_key.is_some() || input.client_ns || input.server_ns;
        out.payload_hash = match payload {
            Some(payload) if !covers_key => Some(Box::new(PayloadHash {
                hash: *self.fact_origin(node),
                payload: *payload,
            })),
            _ => None,
        };
        out.digest = Some(self.fact_origin(node));
        out.hashed_params = input.params | input.hashed_params;
        out
    }

    /// What hash call a path call is, by its resolved path and, for a
    /// type's constructor given a hash algorithm's name (botan's
    /// `HashFunction::new("SHA-256")`, gcrypt's
    /// `MessageDigest::new(Algorithm::Sha256)`), by that name: it makes a
    /// hasher.
    pub(super) fn classify_hash_call(
        &self,
        resolved: &[String],
        exprs: &[&Expr],
    ) -> Option<HashCall> {
        let by_path = hashing::classify_call(resolved, exprs.len());
        if by_path.is_some() {
            return by_path;
        }
        // The crate's own hasher made: `Mixer::default()`, `Mixer::new()`,
        // a tuple struct's `Mixer(SEED)`.
        let local_hasher = |ty: &String| self.index.local_hashers.contains(ty.as_str());
        match resolved {
            [ty] if local_hasher(ty) && exprs.len() <= 1 => {
                return Some(HashCall::NewHasher { feeds_args: false })
            }
            [.., ty, f]
                if local_hasher(ty)
                    && exprs.len() <= 1
                    && (hashing::is_hasher_constructor_name(f) || f == "default") =>
            {
                return Some(HashCall::NewHasher { feeds_args: false })
            }
            _ => {}
        }
        let [.., ty, _] = resolved else {
            return None;
        };
        let names_algorithm = exprs.iter().any(|e| names_algorithm(e));
        (names_algorithm && ty.starts_with(|c: char| c.is_ascii_uppercase()))
            .then_some(HashCall::NewHasher { feeds_args: false })
    }

    /// Applies a recognised hash or id call.
    pub(super) fn hash_call(
        &mut self,
        call: HashCall,
        args: &[Value],
        exprs: &[&Expr],
        expr: &Expr,
    ) -> Value {
        match call {
            HashCall::Digest => {
                let input = Value::derived(args.iter());
                let digest = self.digest_value(&input, expr);
                // `Md::hash(MdType::Sha256, raw, &mut out)`: the digest is
                // also written into the buffer it is given.
                for out in exprs.iter().filter_map(|e| syntax::lent_mut_place(e)) {
                    self.update(&out, |v| *v = digest.clone());
                }
                digest
            }
            HashCall::NewHasher { feeds_args } => {
                let mut v = if feeds_args {
                    Value::derived(args.iter())
                } else {
                    Value::empty()
                };
                v.construct = None;
                v.concat = None;
                v.hasher = true;
                v
            }
            HashCall::Feed { value, hasher } => {
                if let (Some(v), Some(target)) = (args.get(value), exprs.get(hasher)) {
                    if let Some(var) = place_name(target) {
                        self.absorb_into(&var, v);
                    }
                }
                Value::empty()
            }
            HashCall::Finalize => match args.first() {
                Some(h) => self.digest_value(h, expr),
                None => Value::empty(),
            },
            HashCall::FreshId => self.fresh_id(expr),
        }
    }

    /// `Trait::finish(&mut h)` on a value known to be a hasher is the
    /// method call `h.finish()`, whatever the trait is named
    /// (`HasherContext::finish`, `HasherContext::update(&mut h, body)`).
    pub(super) fn trait_path_hasher_call(
        &mut self,
        ids: &[usize],
        segments: &[String],
        name: &str,
        args: &[Value],
        arg_exprs: &[&Expr],
        expr: &Expr,
    ) -> Option<Value> {
        let ([first, rest @ ..], [first_expr, rest_exprs @ ..]) = (args, arg_exprs) else {
            return None;
        };
        if !ids.is_empty() || segments.len() < 2 || !first.hasher {
            return None;
        }
        let recv_expr = syntax::strip_ref(first_expr);
        self.hash_method(name, first, rest, recv_expr, rest_exprs, expr)
    }

    /// The hasher step of method dispatch (see [`Self::hash_method`]).
    pub(super) fn hash_method_step(
        &mut self,
        call: &MethodCall<'_>,
        recv: Value,
    ) -> ControlFlow<Value, Value> {
        let (m, args, exprs) = (call.m, &call.args, &call.exprs);
        match self.hash_method(&call.method, &recv, args, &m.receiver, exprs, call.expr) {
            Some(v) => ControlFlow::Break(v),
            None => ControlFlow::Continue(recv),
        }
    }

    /// Hasher methods: `h.update(body)`, `body.hash(&mut h)`, `h.finalize()`;
    /// encoders of digests. `None` for every other method.
    fn hash_method(
        &mut self,
        method: &str,
        recv: &Value,
        args: &[Value],
        recv_expr: &Expr,
        arg_exprs: &[&Expr],
        expr: &Expr,
    ) -> Option<Value> {
        // Only hashers the code made or typed as such (a MAC the code made
        // included), not any receiver named `hasher`.
        let is_hasher = recv.hasher;
        // A local fed by `update` where the file imports a hashing trait
        // is a hasher by its protocol, whatever type made it.
        if !is_hasher
            && args.len() == 1
            && matches!(method, "update" | "chain_update" | "input")
            && carries_nothing(recv)
            && self.index.brings_hash_trait(self.file)
        {
            if let Some(var) = place_name(recv_expr) {
                self.absorb_into(&var, &args[0]);
                self.update(&var, |v| v.hasher = true);
                return Some(Value::empty());
            }
        }
        if is_hasher && args.len() == 1 && hashing::is_feed_method(method) {
            if method.starts_with("chain") {
                let mut v = recv.clone();
                absorb(&mut v, &args[0]);
                v.hasher = true;
                return Some(v);
            }
            if let Some(var) = place_name(recv_expr) {
                // The call gives the fed hasher too: by value where the
                // hasher is a builder (sha3_const's `h = h.update(b)`), by
                // reference where it chains (`h.update(a).finalize()`).
                self.absorb_into(&var, &args[0]);
                return Some(self.lookup(&var).cloned().unwrap_or_default());
            }
            // A hasher fed in a chain (`params.hasher(0).write(body)
            // .digest()`, umash): the call gives the fed hasher.
            let mut v = recv.clone();
            absorb(&mut v, &args[0]);
            v.hasher = true;
            return Some(v);
        }
        // `finalize_boxed(32)`, `finalize_xof`-style output lengths.
        let output_length =
            matches!(arg_exprs, [Expr::Lit(l)] if matches!(l.lit, syn::Lit::Int(_)));
        // adler32's `RollingAdler32::hash()` finishes too: std's `hash`
        // takes the state it feeds (and the pre-filter reads `hash` so).
        let finishes = hashing::finishes_hasher(method) || (method == "hash" && args.is_empty());
        if is_hasher && (args.is_empty() || output_length) && finishes {
            return Some(self.digest_value(recv, expr));
        }
        // `k.finalize(&mut out)` (tiny-keccak, `finalize_into`): the digest
        // is written into the buffer.
        if is_hasher
            && args.len() == 1
            && hashing::is_finalize_method(method.trim_end_matches("_into"))
        {
            if let Some(out) = arg_exprs.first().and_then(|e| syntax::lent_mut_place(e)) {
                let digest = self.digest_value(recv, expr);
                self.update(&out, |v| *v = digest);
                return Some(Value::empty());
            }
        }
        // `CASTAGNOLI.checksum(&payload)`: a hasher object's one-shot digest;
        // so is one another crate names (`Code::Sha2_256.digest(b)` after
        // `use multihash_codetable::Code`).
        let foreign_hasher = || match recv_expr {
            Expr::Path(p) => (p.path.segments.first()).is_some_and(|s| {
                self.index
                    .imported_path(self.file, &s.ident.to_string())
                    .is_some()
            }),
            _ => false,
        };
        if (is_hasher || (carries_nothing(recv) && foreign_hasher()))
            && args.len() == 1
            && hashing::is_one_shot_digest_method(method)
        {
            return Some(self.digest_value(&args[0], expr));
        }
        if method == "hash" && args.len() == 1 {
            let target = arg_exprs.first().and_then(|e| place_name(e));
            let target_is_hasher =
                (target.as_ref()).is_some_and(|t| self.lookup(t).is_some_and(|v| v.hasher));
            if let (Some(target), true) = (target, target_is_hasher) {
                self.absorb_into(&target, recv);
                return Some(Value::empty());
            }
            // A hasher object's one-shot digest (pyhash's
            // `murmur3_x64_128().hash(&raw)`), not std's `value.hash(&mut
            // state)`, which lends its state mutably.
            let lent_mut = matches!(arg_exprs, [Expr::Reference(r)] if r.mutability.is_some());
            if !lent_mut && is_hasher {
                return Some(self.digest_value(&args[0], expr));
            }
            return None;
        }
        if method == "hash_one" && args.len() == 1 {
            // `BuildHasher::hash_one(&state, &body)`: a one-shot digest.
            return Some(self.digest_value(&args[0], expr));
        }
        // `BuildHasher::build_hasher()`, umash's `params.hasher(seed)`: a
        // method named for the hasher it makes.
        if matches!(method, "build_hasher" | "hasher" | "new_hasher") && args.len() <= 1 {
            return Some(Value {
                hasher: true,
                ..Value::default()
            });
        }
        if hashing::is_encode_method(method) && args.len() == 1 {
            let arg = &args[0];
            // A scoped key in another alphabet is still that key
            // (`URL_SAFE_NO_PAD.encode(sk.storage_key())`), its scope too.
            if arg.payload_hash.is_some() || arg.server_id.is_some() || arg.scoped {
                let mut v = arg.clone();
                v.construct = None;
                v.concat = None;
                v.elems = None;
                return Some(v);
            }
        }
        None
    }

    /// Feeds `fed` into the hasher held by variable `var`. When `var` is a
    /// parameter, the summary records it so callers feed their own hasher.
    pub(super) fn absorb_into(&mut self, var: &str, fed: &Value) {
        self.update(var, |d| absorb(d, fed));
        self.note_param_absorb(var, fed);
    }

    /// Where `var` is a parameter, records that `fed` went into it, so
    /// that callers feed their own hasher or buffer (`append_scope(&mut
    /// slot, tenant, user, route)` pushing the scope into the caller's
    /// `slot`).
    pub(super) fn note_param_absorb(&mut self, var: &str, fed: &Value) {
        let is_param = self.env.level_of(var) == Some(0);
        if is_param && self.absorbs.len() < MAX_ABSORBS {
            if let Some(i) = self.param_index(var) {
                let entry = (i, fed.clone());
                if !self.absorbs.contains(&entry) {
                    self.absorbs.push(entry);
                }
            }
        }
    }

    /// A key-named binding holding a payload hash is where it became a key.
    /// Returns the value that reaches the key position: a pair named
    /// `request_and_key` holds a key, it is not one.
    pub(super) fn hash_becomes_key(&self, value: &mut Value, name: &str, site: Site) -> Value {
        if words(name).iter().any(|w| w == "and") {
            let mut pair = value.clone();
            pair.payload_hash = None;
            return pair;
        }
        if value.payload_hash.is_some() && value.hash_keyed.is_none() {
            value.hash_keyed = Some(site);
        }
        value.clone()
    }

    /// `scoped(&tenant, &user, "route", &body_hash)`: a payload hash in the
    /// client key's place makes the scoped key a payload key (the scope
    /// only narrows it to one caller's identical requests). So does a
    /// hash the client key falls back to (`key.unwrap_or_else(|| hash)`,
    /// `hash_alone`).
    pub(super) fn hash_as_key_argument(&mut self, args: &[Value], exprs: &[&Expr]) {
        let (Some(key), Some(expr)) = (args.get(3), exprs.get(3)) else {
            return;
        };
        let beside_key = key.client_key.is_some() && !key.hash_alone;
        // A digest of a parameter (`scoped(t, u, "fx", &token(order))` in
        // a helper) is one of the payload where a caller passes it.
        let hashed = key.payload_hash.is_some() || key.hashed_params != 0;
        if !hashed || beside_key || key.client_ns || key.server_ns {
            return;
        }
        let site = self.site(*expr);
        self.payload_hash_keyed(key, site);
    }

    /// The payload hash `key` carries, made the key at `site` (where it was
    /// keyed before, if it was): only the hash's facts, so the scope
    /// around it does not hide it (`scoped(.., &digest)`, a builder's
    /// `.key(digest)`).
    pub(super) fn payload_hash_keyed(&mut self, key: &Value, site: Site) {
        let value = Value {
            payload_hash: key.payload_hash.clone(),
            hash_keyed: Some(key.hash_keyed.unwrap_or(site)),
            digest: key.digest.clone(),
            params: key.params,
            hashed_params: key.hashed_params,
            // The client key falls back to it (`idem.unwrap_or(digest)`),
            // also a parameter's key a caller or the framework fills.
            hash_alone: key.hash_alone,
            ..Value::default()
        };
        self.key_position(value, site, true, true);
    }
}

/// Words of a receiver that holds a response (the server's answer, cached
/// or upstream), whose body is not the request payload.
const RESPONSE_WORDS: &[&str] = &[
    "response", "resp", "res", "rsp", "reply", "cached", "stored", "upstream", "outgoing",
];

/// Whether `expr` names a response: `response`, `stored_resp`, `self.reply`.
pub(super) fn names_response(expr: &Expr) -> bool {
    receiver_name(expr).is_some_and(|n| {
        words(&n)
            .iter()
            .any(|w| RESPONSE_WORDS.contains(&w.as_str()))
    })
}

/// Feeds `fed` into a hasher value: the hasher stays a hasher.
fn absorb(hasher: &mut Value, fed: &Value) {
    let was_hasher = hasher.hasher;
    hasher.join_as_part(fed);
    hasher.hasher = was_hasher;
}

/// `blobs.put(&sha256(&body), body)`: content-addressed storage keys the
/// content by its own hash (an upload, a blob), which is not an idempotency
/// key. True when a stored value is the payload the key hashes.
pub(super) fn content_addressed(key: &Value, stored: &[Value]) -> bool {
    let Some(hash) = &key.payload_hash else {
        return false;
    };
    stored
        .iter()
        .any(|v| holds_content(v, hash, key.hashed_params))
}

/// Whether a stored value holds the hashed payload itself. A record holds
/// it through a field that is not its fingerprint: `Entry { fingerprint:
/// Fingerprint::of(&body), job_id }` stores a digest of the body, and the
/// body's parameter reaches the record only through that digest.
fn holds_content(v: &Value, hash: &PayloadHash, hashed_params: u64) -> bool {
    if let Some(fields) = &v.fields {
        return fields
            .iter()
            .filter(|(name, _)| !hashing::names_fingerprint(name))
            .any(|(_, f)| holds_content(f, hash, hashed_params));
    }
    let same_payload = v
        .payload
        .as_ref()
        .is_some_and(|p| p.site == hash.payload.site);
    let same_param = v.params & hashed_params != 0;
    v.payload_hash.is_none() && (same_payload || same_param)
}

/// Whether a path call parses a record out of its input: a format's own
/// functions, or one imported bare (`use quick_xml::de::from_str;` ..
/// `from_str(xml)`); a crate's own function of that name resolves before
/// this is asked.
fn parses_input(segments: &[String]) -> bool {
    let Some(function) = segments.last() else {
        return false;
    };
    let parses = function == "from_str" || payload_sources::is_deserialise_fn(function);
    match segments {
        [_] => parses,
        [format, ..] => FORMATS.contains(&format.as_str()) && parses,
        [] => false,
    }
}

/// Whether a field's name says it holds a credential (`signing_secret`,
/// `password`, `refresh_token`, `api_key`).
fn names_credential(field: &str) -> bool {
    let w = words(field);
    w.iter().any(|w| {
        matches!(
            w.as_str(),
            "secret"
                | "password"
                | "passwd"
                | "passphrase"
                | "token"
                | "credential"
                | "credentials"
        )
    }) || w.ends_with(&["api".to_string(), "key".to_string()])
}

/// Whether a path call is a record type's own decoder (`CreateTicket::
/// from_reader(&mut r, &frame)`, prost's `Order::decode(&buf[..])`,
/// rust-protobuf's `parse_from_bytes`), the crate's impl of a decoding
/// trait or not: what it is given is the message's bytes. Not an
/// encoding's (`Base64::decode`) or an id's (`Uuid::from_bytes`).
pub(super) fn decodes_record(segments: &[String]) -> bool {
    let [.., ty, function] = segments else {
        return false;
    };
    // A decoder of a format by its name's first word (nanoserde's
    // `Frame::deserialize_bin(&data)`, `deserialize_json`, `decode_cbor`).
    let decoder = matches!(
        function.as_str(),
        "from_reader" | "parse_from_bytes" | "read_from_bytes"
    ) || words(function)
        .first()
        .is_some_and(|w| matches!(w.as_str(), "decode" | "deserialize" | "deserialise"));
    let not_record = |w: &str| {
        matches!(
            w,
            "base64"
                | "base32"
                | "base58"
                | "hex"
                | "engine"
                | "uuid"
                | "ulid"
                | "hash"
                | "key"
                | "token"
                | "jwt"
                | "claims"
                | "cookie"
        )
    };
    decoder
        && ty.starts_with(|c: char| c.is_ascii_uppercase())
        && !words(ty).iter().any(|w| not_record(w))
}

/// The argument a path call parses into a record: a format's one argument
/// (`serde_json::from_slice(&body)`), or the bytes a record's own decoder
/// reads ([`decodes_record`]).
fn parsed_bytes<'e>(segments: &[String], exprs: &[&'e Expr]) -> Option<&'e Expr> {
    if decodes_record(segments) {
        decoded_bytes(exprs)
    } else if parses_input(segments) && exprs.len() == 1 {
        exprs.first().copied()
    } else {
        None
    }
}

/// The bytes a record's decoder reads: its last argument lent shared or
/// passed by name (`&frame`, `buf`), not the `&mut` reader before it.
fn decoded_bytes<'e>(exprs: &[&'e Expr]) -> Option<&'e Expr> {
    exprs.iter().rev().copied().find(|e| match e {
        Expr::Reference(r) => r.mutability.is_none(),
        Expr::Path(_) | Expr::Index(_) | Expr::MethodCall(_) => true,
        _ => false,
    })
}

/// The locals and parameters a body parses into a record anywhere
/// (`serde_json::from_slice(&body)`, one argument): bytes a function parses
/// are its input from where they are bound, also where a digest of them is
/// taken before the parse (`Evaluator::parsed_later`).
pub(super) fn parsed_names(block: &syn::Block) -> Vec<String> {
    struct Parses(Vec<String>);
    impl<'ast> syn::visit::Visit<'ast> for Parses {
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            if let Expr::Path(p) = &*c.func {
                let segments = path_segments(&p.path);
                let args: Vec<&Expr> = c.args.iter().collect();
                self.0
                    .extend(parsed_bytes(&segments, &args).and_then(place_name));
            }
            syn::visit::visit_expr_call(self, c);
        }
    }
    let mut found = Parses(Vec::new());
    syn::visit::Visit::visit_block(&mut found, block);
    found.0
}

/// Serde formats whose `from_*` functions parse a record out of bytes or text.
const FORMATS: &[&str] = &[
    "serde_json",
    "simd_json",
    "serde_yaml",
    "serde_cbor",
    "ciborium",
    "rmp_serde",
    "bincode",
    "postcard",
    "serde_urlencoded",
    "serde_qs",
    "sonic_rs",
    "toml",
    "ron",
    "quick_xml",
    "serde_xml_rs",
    "bson",
];

/// `serde_json::from_str(text)` and the like: a record parsed out of its input.
pub(super) fn parses_record(segments: &[String]) -> bool {
    matches!(segments, [format, .., function]
        if FORMATS.contains(&format.as_str()) && function.starts_with("from_"))
}

fn clear_payload(value: &mut Value) {
    value.payload_hash = None;
    value.hash_keyed = None;
    value.payload = None;
}

/// The IDEM003 part of `substitute`: a payload passed where the callee
/// hashes a parameter becomes a payload hash, and a concatenation inside the
/// callee is where the caller's hash became a key.
pub(super) fn substitute_payload_facts(value: &Value, args: &[Value], out: &mut Value) {
    let mut hashed = 0u64;
    for p in bits(value.params) {
        if let Some(arg) = args.get(p) {
            hashed |= arg.hashed_params;
            if value.hashed_params & (1u64 << p) != 0 {
                hashed |= arg.params;
            }
        }
    }
    // A hash the callee knows only by a name (`let bytes = to_vec(v)`) of a
    // payload the caller passes by flow is known by flow.
    let by_name = out.payload_hash.as_ref().is_some_and(|h| h.payload.by_name);
    if (out.payload_hash.is_none() || by_name)
        && out.client_key.is_none()
        && !out.client_ns
        && !out.server_ns
    {
        if let Some(digest) = &value.digest {
            let payload = bits(value.hashed_params).find_map(|p| {
                let arg = args.get(p)?;
                arg.payload.clone().or_else(|| {
                    arg.payload_hash
                        .as_ref()
                        .map(|h| Box::new(h.payload.clone()))
                })
            });
            if let Some(payload) = payload {
                out.payload_hash = Some(Box::new(PayloadHash {
                    hash: (**digest).clone(),
                    payload: *payload,
                }));
            }
        }
    }
    // A digest of a parameter the callee takes for the payload by its name
    // only (`fn fnv64(bytes: &[u8])`) is no payload hash where the caller's
    // argument carries no payload (`fnv64(auth.session_id.as_bytes())`).
    let by_name = out.payload_hash.as_ref().is_some_and(|h| h.payload.by_name);
    let no_payload_given = bits(value.hashed_params).all(|p| {
        args.get(p)
            .is_some_and(|a| a.payload.is_none() && a.payload_hash.is_none())
    });
    if by_name && value.hashed_params != 0 && no_payload_given {
        out.payload_hash = None;
        out.hash_keyed = None;
    }
    out.hashed_params = hashed;
    for (p, concat) in &value.concat_params {
        if let Some(arg) = args.get(*p) {
            if arg.payload_hash.is_some() && value.server_id.is_some() {
                // See `Value::mark_concat`: glued to a server id, it is a marker.
                out.payload_hash = None;
                out.hash_keyed = None;
            }
            if arg.payload_hash.is_some()
                && out.hash_keyed.is_none()
                && !encodes_only(value, *p, arg)
            {
                out.hash_keyed = Some(*concat);
            }
        }
    }
}

/// A method a request answers with its content: `bytes`, `json`,
/// `text`, `to_bytes`, `collect`, `content(s)`, `raw`.
fn asks_content(method: &str) -> bool {
    matches!(
        method,
        "bytes" | "json" | "text" | "to_bytes" | "collect" | "content" | "contents" | "raw"
    )
}

/// Whether a callee's `value` is its parameter `p` alone, appended to
/// nothing but pieces of itself, where the caller passes one value there
/// (`short_id(&digest)` folding the digest's bytes into text): that value
/// encoded, which becomes a key where the caller uses it, not in the
/// callee's concatenation.
pub(super) fn encodes_only(value: &Value, p: usize, arg: &Value) -> bool {
    value.params == 1u64 << p
        && value.concat_params.iter().all(|(q, _)| *q == p)
        && arg.elems.is_none()
}

/// Whether an expression names the request or its body (`req`,
/// `request`, `ctx.request`, `body`, `payload`).
fn names_request(expr: &Expr) -> bool {
    receiver_name(expr).is_some_and(|n| is_request_name(&n))
}

/// Whether a name is the request's or its body's (`req`, `http_request`,
/// `body`, `payload`).
fn is_request_name(name: &str) -> bool {
    words(name)
        .iter()
        .any(|w| matches!(w.as_str(), "req" | "request" | "body" | "payload"))
}

/// Whether a receiver carries no key, payload, digest or parameter: what a
/// hasher's constructor gives (`KangarooTwelve::default()`, a default's
/// fallback record aside).
pub(super) fn carries_nothing(v: &Value) -> bool {
    v.client_key.is_none()
        && v.payload.is_none()
        && v.payload_hash.is_none()
        && v.params == 0
        && v.tenant.is_none()
        && v.principal.is_none()
        && v.elems.is_none()
        && v.fields.is_none()
        && v.sql.is_none()
}

impl Evaluator<'_> {
    /// The path a call names as the compiler resolves it, for telling a
    /// hash call: another crate's name brought in by `use` stands for its
    /// full path (`digest(&SHA256, b)` after `use aws_lc_rs::digest::digest`),
    /// and a type parameter bounded by a hashing trait for that trait
    /// (`D::digest(b)` where `D: Digest`). A `local` call is the crate's own.
    pub(super) fn foreign_call_path(&self, segments: &[String], local: bool) -> Vec<String> {
        let Some((head, rest)) = segments.split_first() else {
            return Vec::new();
        };
        if local {
            return segments.to_vec();
        }
        if !rest.is_empty() && self.hash_generics.contains(head) {
            return std::iter::once("Digest".to_string())
                .chain(rest.iter().cloned())
                .collect();
        }
        // `Gost94CryptoPro::digest(raw)` where the file imports `Digest`:
        // the trait's associated function, whatever hash the type is (the
        // compiler resolves it through the trait in scope).
        let trait_fn = matches!(rest, [f] if hashing::is_trait_digest_fn(f));
        if trait_fn
            && head.starts_with(|c: char| c.is_ascii_uppercase())
            && self.index.brings_hash_trait(self.file)
        {
            return std::iter::once("Digest".to_string())
                .chain(rest.iter().cloned())
                .collect();
        }
        match self.index.imported_path(self.file, head) {
            Some(path) => path.iter().chain(rest).cloned().collect(),
            None => segments.to_vec(),
        }
    }
}

/// The type parameters of `sig` bounded by a hashing trait, inline or in
/// its `where` clause (`fn content_id<D: Digest>(..)`).
pub(super) fn hash_generics(sig: &syn::Signature) -> Vec<String> {
    let hashing_bound = |bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, _>| {
        bounds.iter().any(|b| match b {
            syn::TypeParamBound::Trait(t) => (t.path.segments.last())
                .is_some_and(|s| hashing::is_hash_protocol_trait(&s.ident.to_string())),
            _ => false,
        })
    };
    let mut out: Vec<String> = (sig.generics.type_params())
        .filter(|p| hashing_bound(&p.bounds))
        .map(|p| p.ident.to_string())
        .collect();
    for predicate in sig.generics.where_clause.iter().flat_map(|w| &w.predicates) {
        if let syn::WherePredicate::Type(t) = predicate {
            if let syn::Type::Path(p) = &t.bounded_ty {
                if let (Some(ident), true) = (p.path.get_ident(), hashing_bound(&t.bounds)) {
                    out.push(ident.to_string());
                }
            }
        }
    }
    out
}

/// Whether an argument names a hash algorithm: a string (`"SHA-256"`), a
/// variant or constant (`Algorithm::Sha256`, `&digest::SHA256`) or a
/// constructor without arguments (`MessageDigest::sha256()`).
fn names_algorithm(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => hashing::names_hash_algorithm(&s.value()),
        Expr::Reference(r) => names_algorithm(&r.expr),
        Expr::Path(p) => p
            .path
            .segments
            .last()
            .is_some_and(|s| hashing::names_hash_algorithm(&s.ident.to_string())),
        Expr::Call(c) if c.args.is_empty() => names_algorithm(&c.func),
        _ => false,
    }
}
