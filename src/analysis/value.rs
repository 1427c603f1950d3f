//! The abstract value of an expression (where its text came from); the
//! events the evaluator records when one reaches a key position are in
//! `key_event`.

use super::vocab::Component;
use crate::diagnostic::Span;
use crate::model::diagnostic::Confidence;
use std::sync::Arc;

/// A location in one of the unit's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Site {
    /// Index of the file in the unit.
    pub file: u32,
    /// The region.
    pub span: Span,
}

impl Site {
    /// Whether this region holds `inner` whole (in the same file).
    pub fn covers(self, inner: Site) -> bool {
        self.file == inner.file
            && (self.span.start.line, self.span.start.column)
                <= (inner.span.start.line, inner.span.start.column)
            && (self.span.end.line, self.span.end.column)
                >= (inner.span.end.line, inner.span.end.column)
    }
}

/// Where a fact about a value was established, with the source text there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Where.
    pub site: Site,
    /// The source text of the expression (for labels and help).
    pub text: String,
    /// Known only by a name there (a parameter called `body`): a finding
    /// resting on it is `possible`.
    pub by_name: bool,
    /// A payload the code deserialises (`serde_json::from_slice(bytes)`):
    /// request data by that use, for what is hashed of it, but not a read
    /// of an HTTP request whose fields name the client's key.
    pub parsed: bool,
}

/// How a client key value was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeySource {
    /// The `Idempotency-Key` header or a value named like it.
    IdempotencyKey,
    /// A request id: a key only where it reaches an idempotency store.
    RequestId,
    /// A value only *named* like a client key (`idempotency_key`, a getter
    /// `.idempotency_key()`), with no header read seen: findings on it are
    /// `possible` (rules.md, "Evidence and confidence").
    Named,
    /// A value only named like a request id (`request_id`): `possible`.
    NamedRequestId,
    /// A header whose value the *sender* minted (`X-GitHub-Delivery`,
    /// `webhook-id`): only ever a `key_header_name`; reading it gives a
    /// server-minted id (IDEM007), never a client key.
    SenderId,
}

impl KeySource {
    /// The source once the value is known to come from the request (a
    /// field of its payload): a name then only says which value it is.
    pub fn by_flow(self) -> KeySource {
        match self {
            KeySource::Named => KeySource::IdempotencyKey,
            KeySource::NamedRequestId => KeySource::RequestId,
            other => other,
        }
    }

    /// A request id, by flow or by name: a key only where it reaches an
    /// idempotency store.
    pub fn is_request_id(self) -> bool {
        matches!(self, KeySource::RequestId | KeySource::NamedRequestId)
    }

    /// The confidence of a finding whose client key came from here.
    pub fn confidence(self) -> crate::model::diagnostic::Confidence {
        match self {
            KeySource::Named | KeySource::NamedRequestId => {
                crate::model::diagnostic::Confidence::Possible
            }
            KeySource::IdempotencyKey | KeySource::RequestId | KeySource::SenderId => {
                crate::model::diagnostic::Confidence::Certain
            }
        }
    }
}

/// How a key was put together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstructKind {
    /// `format!`, `+`, `push_str`, `join`…
    Concat,
    /// A tuple.
    Tuple,
    /// A struct literal.
    Struct,
    /// A call to a key constructor (`idem_scope::scoped`) or a crate helper.
    Call,
    /// An array or `vec!` of parts.
    Array,
}

/// The construction that produced a key value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Construct {
    /// What kind of expression.
    pub kind: ConstructKind,
    /// Where it is.
    pub site: Site,
}

/// A component given as an empty or placeholder literal to a constructor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder {
    /// Which component.
    pub component: Component,
    /// The literal.
    pub origin: Origin,
}

/// A hash or digest computed over the request payload (IDEM003).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadHash {
    /// The hash call (`Sha256::digest(..)`, `hasher.finalize()`).
    pub hash: Origin,
    /// Where the hashed payload came from (`body`, `req.body()`).
    pub payload: Origin,
}

/// A call the analysis could not resolve: the function making it (its file,
/// numbered as the round's parsed files are, and its name, as the
/// pre-filter names items) and the name called.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallSite {
    /// The caller's file.
    pub file: u32,
    /// The calling function's name.
    pub caller: Arc<str>,
    /// The name called.
    pub callee: Arc<str>,
}

/// Calls the analysis could not resolve whose results flow into a value,
/// where each was made: a crate-local function the pre-filter left out of
/// this round (`prefilter::Demand`) is analysed in the next one when its
/// result reaches a key position. Never part of a value's identity: two
/// values that differ only in it are equal.
#[derive(Debug, Clone, Default)]
pub struct Via(Vec<Arc<CallSite>>);

impl PartialEq for Via {
    fn eq(&self, _: &Via) -> bool {
        true
    }
}

impl Eq for Via {}

impl Via {
    /// At most this many calls per value: a value built from more unknown
    /// calls keeps the first ones (a later round analyses those, and what
    /// they give brings the others).
    const MAX: usize = 16;

    /// Records a call.
    pub fn push(&mut self, call: &Arc<CallSite>) {
        if self.0.len() < Via::MAX && !self.0.contains(call) {
            self.0.push(call.clone());
        }
    }

    /// Adds the calls of `other`.
    pub fn extend(&mut self, other: &Via) {
        for call in &other.0 {
            if self.0.len() >= Via::MAX {
                break;
            }
            if !self.0.contains(call) {
                self.0.push(call.clone());
            }
        }
    }

    /// The calls.
    pub fn calls(&self) -> impl Iterator<Item = &Arc<CallSite>> {
        self.0.iter()
    }
}

/// What the analysis knows about a value. The IDEM003/IDEM007 facts are
/// boxed: values are cloned with every branch, and these are rarely set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Value {
    /// The client key flows into this value.
    pub client_key: Option<(Origin, KeySource)>,
    /// The client key is known only from the name of a value derived from a
    /// parameter (`req.idempotency_key`): a call site whose arguments show
    /// their origin (a struct literal, a server-built value) decides.
    pub key_by_name: bool,
    /// Tenant component.
    pub tenant: Option<Origin>,
    /// Principal component.
    pub principal: Option<Origin>,
    /// Route component.
    pub route: Option<Origin>,
    /// A key column of the row that holds another resource's id beside the
    /// key (`WHERE message_outbox_id = $1 AND idempotency_key = $2`): the key
    /// is scoped to that resource. Whether the resource implies the tenant,
    /// principal and route depends on who may reach it, which no flow shows.
    pub resource: Option<Box<Origin>>,
    /// Parameters of the enclosing function that flow here (bit N = parameter N).
    pub params: u64,
    /// The ad-hoc concatenation that appended the client key.
    pub concat: Option<Site>,
    /// The concatenation that appended each parameter (for call sites).
    pub concat_params: Vec<(usize, Site)>,
    /// The construction that produced this value as a key.
    pub construct: Option<Construct>,
    /// Built by a key constructor such as `idem_scope::scoped`.
    pub scoped: bool,
    /// Components given as placeholders to a key constructor.
    pub placeholders: Vec<Placeholder>,
    /// Element values, when this is a tuple.
    pub elems: Option<Vec<Value>>,
    /// Named field values, when this is a struct literal: reading one field
    /// (`headers.puppet_id`) gives that field's facts, not its siblings'.
    pub fields: Option<Box<Vec<(String, Value)>>>,
    /// Where this record's `Display` impl writes its fields as one text.
    pub rendered: Option<Site>,
    /// Came out of a server entity (a consumed message, a fetched feed
    /// message, an event), through any calls: its records' ids were minted
    /// by whoever sent it, not by this request's client.
    pub entity_borne: bool,
    /// The value is a header name for the idempotency key (not a key itself).
    pub key_header_name: Option<KeySource>,
    /// A string constant's text, when known (for SQL and header names).
    pub literal: Option<String>,
    /// A SQL query under construction (`query(..).bind(..)`).
    pub sql: Option<Box<SqlChain>>,
    /// The request body or payload (bytes, JSON) flows into this value.
    pub payload: Option<Box<Origin>>,
    /// A hash of the request payload, not covering a client key.
    pub payload_hash: Option<Box<PayloadHash>>,
    /// In some alternative (a branch of an `if`/`match`), the payload hash
    /// reaches here without a client key: the key (raw or scoped) and
    /// `payload_hash` come from different branches, so the hash is not a mere fingerprint
    /// beside the key (a middleware keyed by the header or, else, by a body
    /// hash).
    pub hash_alone: bool,
    /// The same for a server id: one alternative is a server-minted id
    /// with no client key beside it (a `match` whose arms key a client
    /// frame by its key and a redelivery by its delivery id).
    pub server_alone: bool,
    /// Where the payload hash became (part of) a key: the concatenation that
    /// appended it or the key-named binding that holds it.
    pub hash_keyed: Option<Site>,
    /// The hash call that produced this value, when it is a digest.
    pub digest: Option<Box<Origin>>,
    /// Parameters hashed into this digest (bit N = parameter N): a caller
    /// passing a payload there makes it a payload hash.
    pub hashed_params: u64,
    /// A hasher object (`Sha256::new()`): `update(..)` calls feed it.
    pub hasher: bool,
    /// A file's content as read (`fs::read(path)`): stored data, not the
    /// request's payload, whatever the binding holding it is named.
    pub stored: bool,
    /// A key the server minted itself (event/delivery/job id, `Uuid::new_v4()`).
    pub server_id: Option<Box<Origin>>,
    /// The concatenation that appended the server-minted id.
    pub server_concat: Option<Site>,
    /// Carries a server-only namespace (`scoped_server`, `Namespace::Server`, `"s:"`).
    pub server_ns: bool,
    /// Built by a client-namespace key constructor (`idem_scope::scoped`).
    pub client_ns: bool,
    /// The literal text every value of this key starts with (`"idem:"` of
    /// `format!("idem:{}", key)`, a `const` prefix too): two keyspaces
    /// whose prefixes cannot start one another never meet (IDEM007).
    pub prefix: Option<Box<String>>,
    /// Places where this value (or a scope component in it) was replaced by
    /// a sentinel default when identity was missing (IDEM005).
    pub fallbacks: Vec<Fallback>,
    /// Calls that stripped a key separator from this value or from a key
    /// component in it (IDEM006).
    pub sanitized: Vec<Sanitized>,
    /// Unresolved calls whose results flow here.
    pub via: Via,
    /// A field of a parameter read as it is (`p.client_key` of `p:
    /// &PostingCtx`): at a call, the argument's field, not the whole
    /// record, is what this value is (`eval::calls::substitute`).
    pub param_field: Option<Box<ParamField>>,
}

/// A field of a parameter read as it is (see [`Value::param_field`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamField {
    /// Which parameter.
    pub param: usize,
    /// The field's name.
    pub field: String,
    /// The scope component the field's name says it is (`caller.org_id`):
    /// that component only, of an argument whose fields are unknown.
    pub component: Option<Component>,
}

/// A value that may be a sentinel default ("nobody in particular").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fallback {
    /// The component the default stands in for; `None` while the defaulted
    /// value is not yet known to be a tenant or principal.
    pub component: Option<Component>,
    /// The defaulting expression.
    pub origin: Origin,
    /// The sentinel, as written (`""`, `Principal::Anonymous`, `Default::default()`).
    pub sentinel: String,
    /// The default is empty (`""`, `unwrap_or_default()`, `String::new()`).
    pub empty: bool,
    /// A value made from nothing (`String::new()`, `Default::default()`),
    /// not a missing one defaulted: a record's initial field that its
    /// setters overwrite is no default where the record is read.
    pub initial: bool,
}

/// A call that strips or replaces a key separator (`replace(':', "")`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sanitized {
    /// The sanitising call.
    pub origin: Origin,
    /// The separator as written in the source (`':'`, `"\\x1e"`).
    pub separator: String,
    /// Parameters (bit N = parameter N) whose value was sanitised, while
    /// only a caller's arguments can tell where it comes from (a helper's
    /// `k.replace('\\0', "")` on a parameter). A strip is reported where
    /// the result is built into a key, whatever the caller passed; a
    /// truncation only once a caller passes a client key, tenant or
    /// principal there (else it parses a structured text: `host:port`).
    pub params: u64,
    /// `split(':').next()` and its kin: truncates at the separator.
    pub truncates: bool,
}

/// Lists of facts stay small: the first few are enough to report.
const MAX_FACTS: usize = 8;

fn push_unique<T: PartialEq + Clone>(list: &mut Vec<T>, item: &T) {
    if list.len() < MAX_FACTS && !list.contains(item) {
        list.push(item.clone());
    }
}

/// The store name prefix of a business table that is an idempotency store
/// by use only (looked up by a client key column): it stores client keys,
/// and server-built or content-hash keys in it are its own business.
pub const SQL_BY_USE: &str = "sql-by-use:";

/// Whether a store name is a business table known as a store by use only.
pub fn is_store_by_use(store: &str) -> bool {
    store.starts_with(SQL_BY_USE)
}

/// The store name of SQL table `table`: `sql:TABLE`, or the by-use name of
/// a business table looked up by its client key column.
pub fn sql_store(table: &str, by_use: bool) -> String {
    if by_use {
        format!("{SQL_BY_USE}{table}")
    } else {
        format!("sql:{table}")
    }
}

/// A SQL query and the values bound to it so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlChain {
    /// The query text names an idempotency table, or keys a business
    /// table on a client key column (see `by_use`).
    pub idempotency_table: bool,
    /// The table is a store by use only: a business table (`transactions`)
    /// the statement looks up by its client key column.
    pub by_use: bool,
    /// The first idempotency table the query names.
    pub table: Option<String>,
    /// Components named as columns in the query text.
    pub columns: Vec<(Component, Origin)>,
    /// A key column holding another resource's id (see [`Value::resource`])
    /// and the binds that fill it.
    pub resource: Option<(Origin, Vec<usize>)>,
    /// Bound values with the site of each bound expression.
    pub binds: Vec<(Value, Site)>,
    /// The binds that fill the statement's key columns, when the statement
    /// shows them (`WHERE key = $1`, `ON CONFLICT (..)`); the others are
    /// stored values. `None`: every bind may be part of the key.
    pub key_binds: Option<Vec<usize>>,
}

impl Value {
    /// A value that carries nothing of interest.
    pub fn empty() -> Self {
        Value::default()
    }

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.client_key.is_none()
            && self.tenant.is_none()
            && self.principal.is_none()
            && self.route.is_none()
            && self.resource.is_none()
            && self.params == 0
            && self.construct.is_none()
            && !self.scoped
            && self.key_header_name.is_none()
            && self.literal.is_none()
            && self.fallbacks.is_empty()
            && self.sanitized.is_empty()
            && self.payload.is_none()
            && self.payload_hash.is_none()
            && self.digest.is_none()
            && self.server_id.is_none()
            && !self.server_ns
            && !self.client_ns
            && !self.hasher
    }

    /// Whether this value (or an element or field of it) carries a fact
    /// that can start a finding: a client key, a scoped or namespaced key,
    /// a payload hash, a hasher, a server-minted id, the key header's name,
    /// a SQL statement. Scope components, defaults, constructions, the
    /// payload and a digest of anything else only qualify a key: a finding
    /// on them needs one of those facts too, and whoever holds that fact is
    /// analysed with its callees. A digest of the function's parameters is
    /// a fact of those parameters: it counts where a caller passes them a
    /// fact or the payload (`analysis::demand`), not wherever a helper
    /// hashes its input (in a large service, most callers of a hashing
    /// helper have nothing to do with idempotency).
    pub fn starts_findings(&self) -> bool {
        let facts = self.fact_tiers();
        facts.fact(Confidence::Possible) || facts.at_stores(Confidence::Possible)
    }

    /// The facts this value (or an element or field of it) carries that
    /// can start a finding, by the confidence the finding could have.
    pub fn fact_tiers(&self) -> FactTiers {
        let mut facts =
            (self.parts()).fold(FactTiers::default(), |acc, part| acc.or(part.fact_tiers()));
        let other = self.scoped
            || self.client_ns
            || self.server_ns
            || self.key_header_name.is_some()
            || self.payload_hash.is_some()
            || self.hasher;
        // SQL text makes a finding only where it is executed with a client
        // key bound, which the key demands wherever it flows, or at an
        // idempotency store: like a request id, it counts toward one.
        let sql = self.sql.is_some();
        let (key, by_flow, request_id) = match &self.client_key {
            Some((_, source)) => (
                true,
                source.confidence() == Confidence::Certain,
                source.is_request_id(),
            ),
            None => (false, false, false),
        };
        facts.possible |= other || self.key_by_name || (key && !request_id);
        facts.certain |= other || (key && by_flow && !request_id);
        facts.possible_at_stores |= sql || (key && request_id);
        facts.certain_at_stores |= sql || (key && by_flow && request_id);
        facts
    }

    /// Whether this is a key by flow (the client's, a payload's digest, or
    /// one a key constructor or namespace made), which is stored wherever
    /// a store method takes it, whatever the receiver is called.
    pub fn stored_by_any_receiver(&self) -> bool {
        self.client_key.is_some()
            || self.payload_hash.is_some()
            || self.scoped
            || self.client_ns
            || self.server_ns
    }

    /// Whether a tenant, principal or route component flows here.
    pub fn has_component(&self) -> bool {
        self.tenant.is_some() || self.principal.is_some() || self.route.is_some()
    }

    /// Element `index` of a tuple (`None` when this is none), also through
    /// the calls the tuple came through (`draft.org(t).build(k)?.0`), as
    /// [`Value::destructured_from`] says.
    pub fn tuple_element(&self, index: usize) -> Option<Value> {
        let mut element = self.elems.as_ref()?.get(index).cloned().unwrap_or_default();
        element.via.extend(&self.via);
        Some(element)
    }

    /// An element bound out of the tuple `whole` (`let (owner, k) =
    /// journal_coords(&ctx)`) that a helper built, outside the function
    /// `here`: the client key in it was put into a key where the tuple was
    /// built, which stays its key expression (rules.md, IDEM002's span:
    /// "tuple"). A tuple written here only groups what it destructures.
    /// The element also came through the calls the tuple did, which the
    /// pre-filter's next round is asked for (`let Ok((sk, _)) =
    /// draft.org(t).build(k)`).
    pub fn destructured_from(mut self, whole: &Value, here: Site) -> Value {
        self.via.extend(&whole.via);
        let tuple =
            (whole.construct).filter(|c| c.kind == ConstructKind::Tuple && !here.covers(c.site));
        if self.client_key.is_some() && self.construct.is_none() {
            self.construct = tuple;
        }
        self
    }

    /// A key that is a digest and nothing else (`sha256(principal, route,
    /// key)` given to a store): text no client chooses, so it can never be
    /// made equal to a server's key (IDEM007).
    pub fn is_key_digest_only(&self) -> bool {
        self.digest.is_some() && self.concat.is_none() && self.construct.is_none() && !self.scoped
    }

    /// Forgets a component.
    pub fn clear_component(&mut self, component: Component) {
        match component {
            Component::Tenant => self.tenant = None,
            Component::Principal => self.principal = None,
            Component::Route => self.route = None,
        }
    }

    /// Keeps `own` and forgets the other components: one field of a record
    /// that stood for several (`caller.org_id` of `caller`, the principal).
    pub fn keep_only_component(&mut self, own: Component) {
        for other in Component::ALL.into_iter().filter(|c| *c != own) {
            self.clear_component(other);
        }
    }

    /// The origin of a component.
    pub fn component(&self, component: Component) -> Option<&Origin> {
        match component {
            Component::Tenant => self.tenant.as_ref(),
            Component::Principal => self.principal.as_ref(),
            Component::Route => self.route.as_ref(),
        }
    }

    /// Sets a component unless it is already known.
    pub fn add_component(&mut self, component: Component, origin: Origin) {
        let slot = match component {
            Component::Tenant => &mut self.tenant,
            Component::Principal => &mut self.principal,
            Component::Route => &mut self.route,
        };
        if slot.is_none() {
            *slot = Some(origin);
        }
    }

    /// Whether the value carries a client key or a function parameter,
    /// i.e. could be a key.
    pub fn is_key_material(&self) -> bool {
        self.client_key.is_some() || self.params != 0
    }

    /// Merges the provenance of `other` into `self` (data flows from both).
    /// Shape facts (tuple elements, literal text) are dropped: the merged
    /// value is no longer exactly either.
    pub fn join(&mut self, other: &Value) {
        self.entity_borne |= other.entity_borne;
        // Composed with a client key, an alternative's lone hash is no
        // longer alone (`union` sets the flag for alternatives).
        let hash_alone =
            (self.hash_alone && !other.carries_key()) || (other.hash_alone && !self.carries_key());
        let server_alone = (self.server_alone && !other.carries_key())
            || (other.server_alone && !self.carries_key());
        let named = |v: &Value| {
            matches!(
                v.client_key,
                Some((_, KeySource::Named | KeySource::NamedRequestId))
            )
        };
        if self.client_key.is_none() || (named(self) && other.client_key.is_some() && !named(other))
        {
            // A key known by flow is better evidence than one known by name.
            self.client_key.clone_from(&other.client_key);
            self.key_by_name = other.key_by_name;
        } else if other.client_key.is_some() {
            self.key_by_name &= other.key_by_name;
        }
        for component in Component::ALL {
            if let Some(origin) = other.component(component) {
                self.add_component(component, origin.clone());
            }
        }
        if self.resource.is_none() {
            self.resource.clone_from(&other.resource);
        }
        // Still one parameter's field only where nothing else is joined.
        self.param_field = match (self.params, other.params) {
            (0, _) => other.param_field.clone(),
            (_, 0) => self.param_field.take(),
            _ if self.param_field == other.param_field => self.param_field.take(),
            _ => None,
        };
        self.params |= other.params;
        if self.concat.is_none() {
            self.concat = other.concat;
        }
        for (p, site) in &other.concat_params {
            if !self.concat_params.iter().any(|(q, _)| q == p) {
                self.concat_params.push((*p, *site));
            }
        }
        // A construction is where a key was built: one that holds no key
        // (a record of the tenant) does not become the key's.
        if self.construct.is_none() && (other.is_key_material() || other.scoped) {
            self.construct = other.construct;
        }
        self.scoped |= other.scoped;
        for p in &other.placeholders {
            if !self.placeholders.contains(p) {
                self.placeholders.push(p.clone());
            }
        }
        if self.key_header_name.is_none() {
            self.key_header_name = other.key_header_name;
        }
        if self.literal != other.literal {
            self.literal = None;
        }
        if self.elems != other.elems {
            self.elems = None;
        }
        if self.fields != other.fields {
            self.fields = None;
        }
        if self.sql.is_none() {
            self.sql.clone_from(&other.sql);
        }
        for f in &other.fallbacks {
            push_unique(&mut self.fallbacks, f);
        }
        for s in &other.sanitized {
            push_unique(&mut self.sanitized, s);
        }
        self.join_payload_and_server(other);
        self.hash_alone = hash_alone;
        self.server_alone = server_alone;
        self.via.extend(&other.via);
    }

    /// The IDEM003/IDEM007 part of [`Value::join`].
    fn join_payload_and_server(&mut self, other: &Value) {
        // A payload known by flow is better evidence than one known by name.
        let by_name = |p: &Option<Box<Origin>>| p.as_ref().is_some_and(|o| o.by_name);
        if self.payload.is_none()
            || (by_name(&self.payload) && other.payload.is_some() && !by_name(&other.payload))
        {
            self.payload.clone_from(&other.payload);
        }
        let hash_by_name =
            |h: &Option<Box<PayloadHash>>| h.as_ref().is_some_and(|h| h.payload.by_name);
        if self.payload_hash.is_none()
            || (hash_by_name(&self.payload_hash)
                && other.payload_hash.is_some()
                && !hash_by_name(&other.payload_hash))
        {
            self.payload_hash.clone_from(&other.payload_hash);
        }
        if self.hash_keyed.is_none() {
            self.hash_keyed = other.hash_keyed;
        }

        if self.digest.is_none() {
            self.digest.clone_from(&other.digest);
        }
        self.hashed_params |= other.hashed_params;
        self.hasher |= other.hasher;
        if self.server_id.is_none() {
            self.server_id.clone_from(&other.server_id);
        }
        if self.server_concat.is_none() {
            self.server_concat = other.server_concat;
        }
        self.server_ns |= other.server_ns;
        self.client_ns |= other.client_ns;
    }

    /// The union of two values that are alternatives (branches of an `if`).
    pub fn union(mut self, other: &Value) -> Value {
        // Either branch may be a file's content (`match fs::read(p) {
        // Ok(c) => c, Err(_) => return }`).
        let stored = self.stored || other.stored;
        if self.is_empty() && self.elems.is_none() && self.fields.is_none() {
            let mut other = other.clone();
            other.via.extend(&self.via);
            other.stored = stored;
            return other;
        }
        if other.is_empty() && other.elems.is_none() && other.fields.is_none() {
            self.via.extend(&other.via);
            self.stored = stored;
            return self;
        }
        self.stored = stored;
        let hash_alone = self.hash_alone
            || other.hash_alone
            || (self.hash_without_key() && other.carries_key())
            || (other.hash_without_key() && self.carries_key());
        let server_alone = self.server_alone
            || other.server_alone
            || (self.server_without_key() && other.carries_key())
            || (other.server_without_key() && self.carries_key());
        // A server id scoped into the client namespace on its own path
        // became a key at that `scoped(..)` (IDEM007 points there).
        let scoped_server_id = |v: &Value| {
            let lone = v.server_id.is_some() && v.client_key.is_none() && v.scoped;
            v.server_concat
                .or(v.construct.filter(|_| lone).map(|c| c.site))
        };
        let server_concat = scoped_server_id(&self).or_else(|| scoped_server_id(other));
        let prefix = (self.prefix == other.prefix)
            .then(|| self.prefix.take())
            .flatten();
        // Where one alternative carries the client's key and the other
        // does not (a layout trait with a `write!` impl and a `scoped(..)`
        // impl), the key was concatenated only on the first: a prefix on
        // the other's scoped key is no concatenation of the client key.
        let concat = match (self.client_key.is_some(), other.client_key.is_some()) {
            (true, false) => Some(self.concat),
            (false, true) => Some(other.concat),
            _ => None,
        };
        // A server id is namespaced only where every alternative that
        // carries one namespaces it (one `match` arm `scoped_server`, the
        // other `scoped` into the client keyspace, is not).
        let namespaced = |v: &Value| v.server_ns || v.server_id.is_none();
        let server_ns = if self.server_id.is_some() || other.server_id.is_some() {
            namespaced(&self) && namespaced(other)
        } else {
            self.server_ns || other.server_ns
        };
        // The alternative that does not is where the key is changed
        // (`"adjustment" => format!("s:{}..", id), _ => scoped(.., &id)`).
        let unnamespaced = |v: &Value| {
            (v.server_id.is_some() && !v.server_ns)
                .then(|| v.server_concat.or(v.construct.map(|c| c.site)))
                .flatten()
        };
        let unnamespaced_site = match (namespaced(&self), namespaced(other)) {
            (true, false) if self.server_id.is_some() => unnamespaced(other),
            (false, true) if other.server_id.is_some() => unnamespaced(&self),
            _ => None,
        };
        // Alternatives of one shape keep it, element by element
        // (`Member { org, user } => (org, user), Anonymous => ("anon", "anon")`).
        let elems = match (self.elems.take(), &other.elems) {
            (Some(mine), Some(theirs)) if mine.len() == theirs.len() => Some(
                mine.into_iter()
                    .zip(theirs)
                    .map(|(a, b)| a.union(b))
                    .collect::<Vec<_>>(),
            ),
            (mine, _) => {
                self.elems = mine;
                None
            }
        };
        let fields = self.union_fields(other);
        self.join(other);
        if elems.is_some() {
            self.elems = elems;
        }
        if let Some(fields) = fields {
            self.fields = Some(Box::new(fields));
        }
        self.hash_alone = hash_alone;
        self.server_alone = server_alone;
        if server_alone && self.server_concat.is_none() {
            self.server_concat = server_concat;
        }
        if unnamespaced_site.is_some() {
            self.server_concat = unnamespaced_site;
        }
        self.prefix = prefix;
        self.server_ns = server_ns;
        if let Some(concat) = concat {
            self.concat = concat;
        }
        self
    }

    /// Alternatives that are records of the same fields keep them, field
    /// by field (`Some(u) => Acting { org, actor: u }, None => Acting {
    /// org, ..Default::default() }`): a field one leaves to a default is
    /// that default on its path.
    fn union_fields(&self, other: &Value) -> Option<Vec<(String, Value)>> {
        let (mine, theirs) = (self.fields.as_ref()?, other.fields.as_ref()?);
        if mine == theirs {
            return None;
        }
        let names = mine.iter().chain(theirs.iter()).map(|(n, _)| n);
        let mut out: Vec<(String, Value)> = Vec::new();
        for name in names {
            if out.iter().any(|(n, _)| n == name) {
                continue;
            }
            let exact = |fields: &[(String, Value)]| fields.iter().any(|(n, _)| n == name);
            if name == ".." && !(exact(mine) && exact(theirs)) {
                continue;
            }
            let (a, b) = (self.field(name)?, other.field(name)?);
            out.push((name.clone(), a.clone().union(b)));
        }
        Some(out)
    }

    /// A payload hash with no client key beside it.
    fn hash_without_key(&self) -> bool {
        self.payload_hash.is_some() && !self.carries_key()
    }

    /// A server id with no client key beside it, scoped or not: a `match`
    /// arm giving `scoped(.., &job_id.to_string())` beside one giving
    /// `scoped(.., client_key)` is a server key on its own path.
    fn server_without_key(&self) -> bool {
        self.server_id.is_some() && self.client_key.is_none()
    }

    /// Whether a value carries something that flows to a key: the client
    /// key, a scope component, a parameter, the payload. Not a default,
    /// a literal or a construction alone.
    pub fn carries_flow(&self) -> bool {
        self.client_key.is_some()
            || self.tenant.is_some()
            || self.principal.is_some()
            || self.route.is_some()
            || self.params != 0
            || self.payload.is_some()
            || self.scoped
            || self.client_ns
    }

    /// Whether the client's key is in this value (raw, or scoped into the
    /// client namespace): a payload hash beside it is a fingerprint.
    pub fn carries_key(&self) -> bool {
        self.client_key.is_some() || self.scoped || self.client_ns
    }

    /// Joins a list of input values into one derived value (no shape kept).
    pub fn derived<'a>(inputs: impl IntoIterator<Item = &'a Value>) -> Value {
        let mut out = Value::empty();
        for input in inputs {
            out.join_as_part(input);
        }
        out
    }

    /// Joins an input that becomes a *part* of a new value: the new value
    /// is not a scoped key, and its own construction replaces the input's.
    pub fn join_as_part(&mut self, input: &Value) {
        let mut part = input.clone();
        part.elems = None;
        part.fields = None;
        part.literal = None;
        part.key_header_name = None;
        part.sql = None;
        // A default or a sanitiser only matters for the scope components
        // and the client key of a composite; the buffer being built is no
        // longer a default itself.
        self.fallbacks.retain(|f| f.component.is_some());
        part.resolve_part_facts();
        // A part of a new value is not the hasher that was fed.
        part.hasher = false;
        self.join(&part);
        self.literal = None;
        self.elems = None;
        self.fields = None;
        self.rendered = None;
    }

    /// Keeps at most `depth` levels of tuple elements and struct fields,
    /// and fewer where more than `nodes` parts would be kept: deeper parts
    /// are joined into the level above them, facts kept, shape dropped. A
    /// summary returning a struct built from its own result (a call
    /// resolved by name to the function itself) nests one level more per
    /// fixpoint round; each level holds every field, so without the bound
    /// the value grows exponentially with the rounds.
    pub fn bound_shape(&mut self, depth: usize, nodes: usize) {
        let mut depth = depth;
        self.bound_depth(depth);
        while depth > 0 && self.shape_nodes() > nodes {
            depth -= 1;
            self.bound_depth(depth);
        }
    }

    /// The parts (elements and fields, at every level) of this value.
    fn shape_nodes(&self) -> usize {
        self.parts().map(|part| 1 + part.shape_nodes()).sum()
    }

    /// Whether this value (or an element or field of it) is the request
    /// payload.
    pub fn carries_payload(&self) -> bool {
        self.payload.is_some() || self.parts().any(Value::carries_payload)
    }

    /// The elements and field values of this value.
    fn parts(&self) -> impl Iterator<Item = &Value> {
        (self.elems.iter().flatten())
            .chain(self.fields.iter().flat_map(|f| f.iter().map(|(_, v)| v)))
    }

    fn bound_depth(&mut self, depth: usize) {
        if depth == 0 {
            self.flatten_shape();
            return;
        }
        for part in (self.elems.iter_mut().flatten()).chain(
            self.fields
                .iter_mut()
                .flat_map(|f| f.iter_mut().map(|(_, v)| v)),
        ) {
            part.bound_depth(depth - 1);
        }
    }

    /// Joins every element and field into this value and drops the shape.
    fn flatten_shape(&mut self) {
        let elems = self.elems.take().into_iter().flatten();
        let fields = (self.fields.take().into_iter()).flat_map(|f| f.into_iter().map(|(_, v)| v));
        for mut part in elems.chain(fields) {
            part.flatten_shape();
            self.join(&part);
        }
    }

    /// The value of field `name` when this is a struct literal that names it.
    pub fn field(&self, name: &str) -> Option<&Value> {
        let fields = self.fields.as_ref()?;
        // `..` stands for the fields a struct update left to a default.
        let exact = fields.iter().find(|(n, _)| n == name);
        exact
            .or_else(|| fields.iter().find(|(n, _)| n == ".."))
            .map(|(_, v)| v)
    }

    /// Whether this value is a tenant or principal on its own (not a key
    /// that merely contains one).
    pub fn is_identity(&self) -> bool {
        self.client_key.is_none()
            && self.construct.is_none()
            && (self.tenant.is_some() || self.principal.is_some())
    }

    /// Attaches pending defaults to the identity components this value
    /// carries; returns whether any pending default was attached.
    pub fn attach_fallbacks(&mut self) -> bool {
        if !self.is_identity() {
            return false;
        }
        let components: Vec<Component> = [Component::Tenant, Component::Principal]
            .into_iter()
            .filter(|c| self.component(*c).is_some())
            .collect();
        self.attach_fallbacks_to(&components)
    }

    /// Attaches pending defaults to `components` (a parameter or field
    /// named like one).
    pub fn attach_fallbacks_to(&mut self, components: &[Component]) -> bool {
        let pending: Vec<Fallback> = self
            .fallbacks
            .iter()
            .filter(|f| f.component.is_none())
            .cloned()
            .collect();
        let identity: Vec<Component> = components
            .iter()
            .copied()
            .filter(|c| matches!(c, Component::Tenant | Component::Principal))
            .collect();
        if pending.is_empty() || identity.is_empty() {
            return false;
        }
        self.fallbacks.retain(|f| f.component.is_some());
        for f in pending {
            for c in &identity {
                let mut attached = f.clone();
                attached.component = Some(*c);
                push_unique(&mut self.fallbacks, &attached);
            }
        }
        true
    }

    /// Prepares this value to become part of a composite: pending defaults
    /// attach to its identity components or are dropped, and sanitisers are
    /// kept only when the part is a tenant, a principal or the client key.
    pub fn resolve_part_facts(&mut self) {
        self.attach_fallbacks();
        self.fallbacks.retain(|f| f.component.is_some());
        // A route built into a key by hand is not judged here (IDEM001
        // reports the concatenation; a path normalised for a record that
        // is only named like a key is no route); `scoped(..)` judges its
        // route, `sanitizers::constructor_sanitizers`. A scoped key's sanitisers
        // are its components' (`format!("ns/{}", sk.storage_key())` keeps
        // them).
        let keyish = self.client_key.is_some()
            || self.tenant.is_some()
            || self.principal.is_some()
            || self.scoped;
        if keyish {
            return;
        }
        // A parameter's part: its callers' arguments decide (`substitute`).
        let params = self.params;
        self.sanitized.retain_mut(|s| {
            s.params |= params;
            s.params != 0
        });
    }

    /// The sanitisers known to strip a key component here; those of a
    /// helper's parameter wait for a caller's argument (`Sanitized::params`).
    pub fn resolved_sanitized(&self) -> impl Iterator<Item = &Sanitized> {
        self.sanitized.iter().filter(|s| s.params == 0)
    }

    /// Records that every input in `parts` was concatenated at `site`.
    pub fn mark_concat(&mut self, parts: &[&Value], site: Site) {
        for part in parts {
            if part.client_key.is_some() && self.concat.is_none() {
                self.concat = Some(site);
            }
            // A digest of a parameter is a payload hash once a caller passes
            // a payload there: this concatenation is then where it became a key.
            let param_digest = part.digest.is_some() && part.hashed_params != 0;
            if (part.payload_hash.is_some() || param_digest) && self.hash_keyed.is_none() {
                self.hash_keyed = Some(site);
            }
            if part.server_id.is_some() && self.server_concat.is_none() {
                self.server_concat = Some(site);
            }
            // A parameter inside a key `scoped(..)` built is no text glued
            // here: a prefix on `sk.storage_key()` in a helper concatenates
            // no client key its caller passes.
            let scoped_key = (part.scoped || part.client_ns) && part.client_key.is_none();
            let params = if scoped_key { 0 } else { part.params };
            for p in (0..64).filter(|i| params & (1u64 << i) != 0) {
                if !self.concat_params.iter().any(|(q, _)| *q == p) {
                    self.concat_params.push((p, site));
                }
            }
        }
        if self.server_id.is_some() {
            // Glued to an event id or a fresh UUID, the payload hash no longer
            // makes identical payloads collide: it is a marker, not a key.
            self.payload_hash = None;
            self.hash_keyed = None;
        }
    }

    /// A compact fingerprint used to detect that summaries stopped changing.
    pub fn signature(&self) -> ValueSignature {
        (
            self.client_key.is_some(),
            self.tenant.is_some(),
            self.principal.is_some(),
            self.route.is_some(),
            self.params,
            self.concat.is_some(),
            self.construct.is_some(),
            self.scoped,
            self.elems.as_ref().map_or(0, |e| e.len() + 1),
            u16::from(self.payload.is_some())
                | u16::from(self.payload_hash.is_some()) << 1
                | u16::from(self.server_id.is_some()) << 2
                | u16::from(self.server_ns) << 3
                | u16::from(self.hasher) << 4
                | u16::from(self.hashed_params != 0) << 5
                | u16::from(self.client_ns) << 6
                | u16::from(self.hash_alone) << 7
                | u16::from(self.server_alone) << 8
                | u16::from(self.key_header_name.is_some()) << 9,
        )
    }
}

/// The facts a value carries that can start a finding, by the confidence
/// that finding could have ([`Value::fact_tiers`]). A client key known only
/// by its name (`KeySource::Named`, `key_by_name`) makes only `possible`
/// findings (rules.md, "Evidence and confidence"). A request id and SQL
/// text are apart: they count only where they reach an idempotency store
/// (SQL text elsewhere makes a finding only with a client key bound, which
/// the key itself demands).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FactTiers {
    /// A fact that counts anywhere, for a `possible` finding.
    pub possible: bool,
    /// A fact that counts anywhere, for a `certain` finding.
    pub certain: bool,
    /// What counts at an idempotency store: a request id by flow or by
    /// name, SQL text.
    pub possible_at_stores: bool,
    /// What counts at an idempotency store: a request id by flow, SQL text.
    pub certain_at_stores: bool,
}

impl FactTiers {
    /// What either carries.
    pub fn or(self, other: FactTiers) -> FactTiers {
        FactTiers {
            possible: self.possible || other.possible,
            certain: self.certain || other.certain,
            possible_at_stores: self.possible_at_stores || other.possible_at_stores,
            certain_at_stores: self.certain_at_stores || other.certain_at_stores,
        }
    }

    /// A fact that counts anywhere, for a finding of `tier` or above.
    pub fn fact(self, tier: Confidence) -> bool {
        match tier {
            Confidence::Certain => self.certain,
            Confidence::Possible => self.possible,
        }
    }

    /// What counts at an idempotency store, for a finding of `tier` or
    /// above.
    pub fn at_stores(self, tier: Confidence) -> bool {
        match tier {
            Confidence::Certain => self.certain_at_stores,
            Confidence::Possible => self.possible_at_stores,
        }
    }
}

/// See [`Value::signature`].
pub type ValueSignature = (bool, bool, bool, bool, u64, bool, bool, bool, usize, u16);
