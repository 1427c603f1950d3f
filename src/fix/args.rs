//! The four arguments of a suggested `idem_scope::scoped(..)` call, each
//! with how far it can be trusted: a fix is machine-applicable only when
//! every argument is a value the code already names for that role.

use crate::analysis::value::Origin;
use crate::analysis::vocab::{Component, Vocabulary, TRANSPARENT_METHODS};

use super::scope::Scope;

/// The longest component text put into a suggestion; longer expressions
/// (a whole header-parsing chain) are better named by hand.
const MAX_COMPONENT: usize = 60;

/// The roles of `scoped(tenant, principal, route, key)`, in argument order.
pub const ROLES: [Role; 4] = [Role::Tenant, Role::Principal, Role::Route, Role::Key];

/// One argument's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The tenant.
    Tenant,
    /// The principal.
    Principal,
    /// The route (operation).
    Route,
    /// The client's key.
    Key,
}

impl Role {
    /// The placeholder a suggestion shows when nothing fits.
    fn placeholder(self) -> &'static str {
        match self {
            Role::Tenant => "&tenant",
            Role::Principal => "&principal",
            Role::Route => "\"route\"",
            Role::Key => "&key",
        }
    }

    /// The name used in "needs a hand" reasons.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Tenant => "tenant",
            Role::Principal => "principal",
            Role::Route => "route",
            Role::Key => "key",
        }
    }

    /// The constant a service without this component passes for it (every
    /// service has a route and a key).
    fn absent(self) -> Option<&'static str> {
        match self {
            Role::Tenant => Some("\"single-tenant\""),
            Role::Principal => Some("\"single-principal\""),
            Role::Route | Role::Key => None,
        }
    }

    pub(super) fn component(self) -> Option<Component> {
        match self {
            Role::Tenant => Some(Component::Tenant),
            Role::Principal => Some(Component::Principal),
            Role::Route => Some(Component::Route),
            Role::Key => None,
        }
    }
}

/// How an argument was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Trust {
    /// The value the key already uses for this role, named as in scope.
    Known,
    /// A value in scope whose name the vocabulary gives this role, but
    /// which the key does not use yet: a human should confirm it.
    Guessed,
    /// Nothing fits: a placeholder to fill in.
    Placeholder,
}

/// One argument's text and trust.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// As written in the call (`&ctx.tenant_id`, `"refund"`, `route`).
    pub text: String,
    /// How it was found.
    pub trust: Trust,
}

impl Arg {
    fn known(text: String) -> Arg {
        Arg {
            text,
            trust: Trust::Known,
        }
    }

    fn placeholder(role: Role) -> Arg {
        Arg {
            text: role.placeholder().to_string(),
            trust: Trust::Placeholder,
        }
    }
}

/// The one word of a route literal: `"refund"`, the `refund` of
/// `"{}:{}:refund:{}"` or of `":payments:"`. `None` when the literal is not
/// a string or holds no word or several (`"v1:refund"`): which one is the
/// route is for a human to say.
pub fn route_segment(literal: &str) -> Option<String> {
    let value = syn::parse_str::<syn::LitStr>(literal).ok()?.value();
    let mut without_holes = String::new();
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                without_holes.push(':');
            }
            '{' => {
                // A format argument: skip to its closing brace.
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
                without_holes.push(':');
            }
            c => without_holes.push(c),
        }
    }
    let is_word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.');
    let mut words = without_holes
        .split(|c| !is_word(c))
        .filter(|w| !w.is_empty());
    let word = words.next()?;
    words.next().is_none().then(|| format!("{word:?}"))
}

/// Where the finding is, for resolving arguments against its scope.
pub struct At<'a> {
    /// The key expression the fix replaces.
    pub key: crate::model::Span,
    /// Its source text.
    pub key_text: &'a str,
    /// The names in scope there.
    pub scope: &'a Scope,
    /// Struct fields by struct name, for `ctx.tenant_id`.
    pub fields: &'a std::collections::HashMap<String, Vec<String>>,
    /// The unit's vocabulary, which names roles.
    pub vocab: &'a Vocabulary,
}

/// The argument for `role`, from the component's origin when the key has
/// one, else from the names in scope.
pub fn resolve(role: Role, origin: Option<&Origin>, file: u32, at: Option<&At<'_>>) -> Arg {
    let found = origin.and_then(|o| from_origin(role, o, file, at));
    found
        .or_else(|| at.filter(|_| role == Role::Key).and_then(own_key))
        .or_else(|| at.and_then(|at| guess(role, at)))
        .unwrap_or_else(|| Arg::placeholder(role))
}

/// The key's own binding at the finding (`parsed` of `parsed.as_str()`)
/// when the source's text is not in scope there (a header read bound to
/// another name and then parsed): only where the finding is that binding,
/// maybe through methods that pass it on unchanged, not a call on it
/// (`out.push_str(key)`).
fn own_key(at: &At<'_>) -> Option<Arg> {
    let text = at
        .key_text
        .trim()
        .trim_start_matches(['&', '*'])
        .trim_start();
    let root = root_name(text)?;
    let passes_through = text[root.len()..].split('.').skip(1).all(|call| {
        call.strip_suffix("()")
            .is_some_and(|method| TRANSPARENT_METHODS.contains(&method))
    });
    let rest_is_calls = text[root.len()..].is_empty() || text[root.len()..].starts_with('.');
    (passes_through && rest_is_calls && at.scope.named(root).is_some())
        .then(|| Arg::known(borrowed(root)))
}

/// The argument for `role` in a service without that component
/// (`[scope] tenant = false`): the key's own value when it is usable there,
/// a literal as written (it is the service's constant), else the constant
/// of [`Role::absent`]; as trusted as a value the key uses, since the
/// configuration says there is nothing else to pass. A role every service
/// has resolves as [`resolve`] does.
pub fn resolve_absent(role: Role, origin: Option<&Origin>, file: u32, at: Option<&At<'_>>) -> Arg {
    let Some(constant) = role.absent() else {
        return resolve(role, origin, file, at);
    };
    let own = origin.and_then(|o| {
        let text = o.text.trim();
        if is_string_literal(text) && text.len() <= MAX_COMPONENT {
            return Some(Arg::known(text.to_string()));
        }
        from_origin(role, o, file, at)
    });
    own.unwrap_or_else(|| Arg::known(constant.to_string()))
}

/// `&expr` for a value, the literal itself for a route string.
fn borrowed(text: &str) -> String {
    let text = text.trim_start_matches('&');
    if text.starts_with('"') {
        text.to_string()
    } else {
        format!("&{text}")
    }
}

fn is_string_literal(text: &str) -> bool {
    syn::parse_str::<syn::LitStr>(text).is_ok()
}

/// The argument the origin gives, or `None` when its text is unusable or
/// not in scope at the key.
fn from_origin(role: Role, origin: &Origin, file: u32, at: Option<&At<'_>>) -> Option<Arg> {
    let text = origin.text.trim();
    if text.is_empty() || text.len() > MAX_COMPONENT {
        return None;
    }
    let literal = is_string_literal(text);
    if role == Role::Route && literal {
        // A literal bound to a name is passed by that name: inlining it
        // would leave the name unused and the two free to drift apart.
        let bound = at
            .filter(|_| origin.site.file == file)
            .and_then(|at| at.scope.bound_to(origin.site.span));
        if let Some(binding) = bound {
            return Some(Arg::known(borrowed(&binding.name)));
        }
        return route_segment(text).map(Arg::known);
    }
    if literal {
        // A literal tenant, principal or key is a constant, not a value the
        // code names: left for a human.
        return None;
    }
    let Some(at) = at else {
        return Some(Arg::known(borrowed(text)));
    };
    if origin.site.file != file {
        return None;
    }
    let site = origin.site.span;
    if at.key.start <= site.start && site.end <= at.key.end {
        return Some(Arg::known(borrowed(text)));
    }
    if !at.scope.in_function(site) || at.key.start < site.end {
        return None;
    }
    // A value computed by an earlier `let` the key uses is passed by that
    // name (`route` of `let route = req.uri().path().to_string();`).
    if let Some(binding) = at.scope.initialised_around(site) {
        return uses(at.key_text, &binding.name).then(|| Arg::known(borrowed(&binding.name)));
    }
    // An expression elsewhere in the function (a parameter, a sibling
    // `.bind(&ctx.tenant_id)`) is in scope when the name it starts from is.
    let root = root_name(text)?;
    at.scope
        .named(root)
        .is_some()
        .then(|| Arg::known(borrowed(text)))
}

/// Whether `text` has `name` as a whole word (`route` in `{}:{route}`).
fn uses(text: &str, name: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == name)
}

/// `ctx` of `&ctx.tenant_id`, `tenant_id` of `tenant_id.to_string()`.
fn root_name(text: &str) -> Option<&str> {
    let text = text.trim_start_matches(['&', '*']).trim_start();
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let root = &text[..end];
    (!root.is_empty() && !root.starts_with(|c: char| c.is_ascii_digit())).then_some(root)
}

/// A value in scope the vocabulary names for `role`: a binding
/// (`tenant_id`) or a field of a binding's struct (`ctx.tenant_id`).
fn guess(role: Role, at: &At<'_>) -> Option<Arg> {
    let names_role = |name: &str| match role.component() {
        Some(component) => at.vocab.component_of_name(name) == Some(component),
        None => at.vocab.is_client_key_name(name),
    };
    let as_arg = |text: String| Arg {
        text: format!("&{text}"),
        trust: Trust::Guessed,
    };
    let bindings = at.scope.bindings.iter().rev();
    if let Some(b) = bindings.clone().find(|b| names_role(&b.name)) {
        return Some(as_arg(b.name.clone()));
    }
    bindings
        .filter_map(|b| {
            let fields = at.fields.get(b.ty.as_deref()?)?;
            let field = fields.iter().find(|f| names_role(f))?;
            Some(format!("{}.{field}", b.name))
        })
        .next()
        .map(as_arg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_is_the_one_word_of_its_literal() {
        assert_eq!(route_segment("\"refund\"").as_deref(), Some("\"refund\""));
        assert_eq!(
            route_segment("\"{tenant_id}:{user_id}:refund:{idempotency_key}\"").as_deref(),
            Some("\"refund\"")
        );
        assert_eq!(
            route_segment("\"{}:{}:refund:{}\"").as_deref(),
            Some("\"refund\"")
        );
        assert_eq!(
            route_segment("\":payments:\"").as_deref(),
            Some("\"payments\"")
        );
        assert_eq!(route_segment("\"v1:refund\""), None);
        assert_eq!(route_segment("\"{}:{}\""), None);
        assert_eq!(route_segment("route"), None);
    }

    #[test]
    fn the_root_name_is_where_the_expression_starts() {
        assert_eq!(root_name("&ctx.tenant_id"), Some("ctx"));
        assert_eq!(root_name("tenant_id.to_string()"), Some("tenant_id"));
        assert_eq!(root_name("\"x\""), None);
    }
}
