//! The abstract value of an expression: where its text came from.

use super::vocab::Component;
use crate::diagnostic::Span;

/// A location in one of the unit's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Site {
    /// Index of the file in the unit.
    pub file: u32,
    /// The region.
    pub span: Span,
}

/// Where a fact about a value was established, with the source text there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Where.
    pub site: Site,
    /// The source text of the expression (for labels and help).
    pub text: String,
}

/// How a client key value was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeySource {
    /// The `Idempotency-Key` header or a value named like it.
    IdempotencyKey,
    /// A request id: a key only where it reaches an idempotency store.
    RequestId,
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

/// What the analysis knows about a value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Value {
    /// The client key flows into this value.
    pub client_key: Option<(Origin, KeySource)>,
    /// Tenant component.
    pub tenant: Option<Origin>,
    /// Principal component.
    pub principal: Option<Origin>,
    /// Route component.
    pub route: Option<Origin>,
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
    /// The value is a header name for the idempotency key (not a key itself).
    pub key_header_name: Option<KeySource>,
    /// A string constant's text, when known (for SQL and header names).
    pub literal: Option<String>,
    /// A SQL query under construction (`query(..).bind(..)`).
    pub sql: Option<Box<SqlChain>>,
}

/// A SQL query and the values bound to it so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlChain {
    /// The query text names an idempotency table.
    pub idempotency_table: bool,
    /// Components named as columns in the query text.
    pub columns: Vec<(Component, Origin)>,
    /// Bound values with the site of each bound expression.
    pub binds: Vec<(Value, Site)>,
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
            && self.params == 0
            && self.construct.is_none()
            && !self.scoped
            && self.key_header_name.is_none()
            && self.literal.is_none()
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
        if self.client_key.is_none() {
            self.client_key.clone_from(&other.client_key);
        }
        for component in Component::ALL {
            if let Some(origin) = other.component(component) {
                self.add_component(component, origin.clone());
            }
        }
        self.params |= other.params;
        if self.concat.is_none() {
            self.concat = other.concat;
        }
        for (p, site) in &other.concat_params {
            if !self.concat_params.iter().any(|(q, _)| q == p) {
                self.concat_params.push((*p, *site));
            }
        }
        if self.construct.is_none() {
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
        if self.sql.is_none() {
            self.sql.clone_from(&other.sql);
        }
    }

    /// The union of two values that are alternatives (branches of an `if`).
    pub fn union(mut self, other: &Value) -> Value {
        if self.is_empty() && self.elems.is_none() {
            return other.clone();
        }
        if other.is_empty() && other.elems.is_none() {
            return self;
        }
        self.join(other);
        self
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
        part.literal = None;
        part.key_header_name = None;
        part.sql = None;
        self.join(&part);
        self.literal = None;
        self.elems = None;
    }

    /// Records that every input in `parts` was concatenated at `site`.
    pub fn mark_concat(&mut self, parts: &[&Value], site: Site) {
        for part in parts {
            if part.client_key.is_some() && self.concat.is_none() {
                self.concat = Some(site);
            }
            for p in (0..64).filter(|i| part.params & (1u64 << i) != 0) {
                if !self.concat_params.iter().any(|(q, _)| *q == p) {
                    self.concat_params.push((p, site));
                }
            }
        }
    }

    /// A compact fingerprint used to detect that summaries stopped changing.
    pub fn signature(&self) -> super::eval::ValueSignature {
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
        )
    }
}
