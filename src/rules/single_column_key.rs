//! IDEM008: an idempotency table unique on the client key column without
//! tenant, principal or route columns (the docs are rules/single-column-key.md).

use super::{english_list, parse_error, Finding, Rule, Sink};
use crate::analysis::sql::KeyConstraint;
use crate::analysis::vocab::Component;
use crate::analysis::UnitFacts;
use crate::diagnostic::Severity;
use crate::model::diagnostic::Confidence;

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM008",
    name: "single-column-key",
    level: Severity::Error,
    check: Some(check),
    summary: "idempotency table keyed on the client key column instead of the scope tuple",
    docs: include_str!("../../rules/single-column-key.md"),
    needs: &[super::Fact::Ddl],
};

/// Reports every key constraint that lacks a component the service has
/// (`[scope]` of the file holding the DDL), and every idempotency DDL
/// statement that could not be parsed (as an IDEM000 warning).
pub fn check(facts: &UnitFacts, sink: &mut Sink<'_>) {
    for constraint in &facts.sql.key_constraints {
        let service = sink.scope(constraint.site.file);
        let missing: Vec<Component> = (constraint.missing.iter().copied())
            .filter(|c| service.has(*c))
            .collect();
        if missing.is_empty() {
            continue;
        }
        report(constraint, &missing, sink);
    }
    for skipped in &facts.sql.skipped {
        let reason = if skipped.error.is_empty() {
            String::new()
        } else {
            format!(" ({})", skipped.error)
        };
        let message = format!(
            "SQL statement skipped: `{}` does not parse as PostgreSQL, MySQL, SQLite or SQL Server{reason}; IDEM008 did not check it",
            skipped.excerpt
        );
        sink.add(Finding::new(&parse_error::RULE, skipped.site, message));
    }
}

/// Reports `constraint`, which lacks the columns of `components`.
fn report(constraint: &KeyConstraint, components: &[Component], sink: &mut Sink<'_>) {
    let missing: Vec<&str> = components.iter().map(|c| c.as_str()).collect();
    let key = &constraint.key_column.name;
    let alone = constraint.columns.len() == 1;
    let on = if alone {
        format!("`{key}`")
    } else {
        format!("({})", constraint.columns.join(", "))
    };
    let lacks = if missing.len() == 1 {
        format!("a {} column", missing[0])
    } else {
        format!("{} columns", english_list(&missing))
    };
    // A component is missing only by the names the vocabulary knows: an
    // id column of the key it does not know (`clerk_id`) may be the one
    // missing under another name, so the finding is a judgement by names.
    let unknown = &constraint.unknown_ids;
    // No id stands in for a route.
    let by_name = !unknown.is_empty()
        && !components.contains(&Component::Route)
        && unknown.len() >= missing.len();
    let mut message = format!(
        "idempotency table `{}` has a {} on {on} that lacks {lacks}",
        constraint.table,
        constraint.kind.as_str(),
    );
    if by_name {
        let named: Vec<String> = unknown.iter().map(|c| format!("`{c}`")).collect();
        let named: Vec<&str> = named.iter().map(String::as_str).collect();
        message.push_str(&format!(
            " (unless {} is the {}: name it in `[vocabulary]` of idem-lint.toml)",
            english_list(&named),
            english_list(&missing),
        ));
    }
    let mut labels = Vec::new();
    if !alone {
        labels.push((
            "the client key column".to_string(),
            constraint.key_column.site,
        ));
    }
    let unused = (constraint.unused_scope_columns.iter()).filter(|(c, _)| components.contains(c));
    for (component, column) in unused {
        labels.push((
            format!(
                "`{}` names the {} but is not part of the key",
                column.name,
                component.as_str()
            ),
            column.site,
        ));
    }
    let column_for = |c: Component, default: &str| {
        constraint
            .unused_scope_columns
            .iter()
            .find(|(component, _)| *component == c)
            .map_or(default.to_string(), |(_, col)| col.name.clone())
    };
    let mut tuple = vec!["scope_version".to_string()];
    for component in Component::ALL {
        let existing = constraint
            .present
            .iter()
            .find(|(c, _)| *c == component)
            .map(|(_, name)| name);
        tuple.push(match existing {
            Some(name) => name.clone(),
            None => column_for(
                component,
                match component {
                    Component::Tenant => "tenant_id",
                    Component::Principal => "principal_id",
                    Component::Route => "route",
                },
            ),
        });
    }
    tuple.push("ns".to_string());
    tuple.push(key.clone());
    let mut help = format!(
        "make the key the whole scope tuple, e.g. PRIMARY KEY ({}) as in idem_scope::POSTGRES_SCHEMA; a key on fewer columns lets one {} replay another's response",
        tuple.join(", "),
        match components.first() {
            Some(Component::Tenant) => "tenant",
            Some(Component::Principal) => "caller",
            _ => "route",
        }
    );
    let mut notes = Vec::new();
    if !constraint.has_scope_version {
        notes.push("a scope_version column (so a v2 key scheme can coexist with v1 rows)");
    }
    if !constraint.has_namespace {
        notes.push(
            "a namespace column (`ns`: client `u:` / server `s:`, so server-minted keys cannot collide with client keys)",
        );
    }
    if !notes.is_empty() {
        help.push_str(&format!(
            "\nnote: the key also lacks {}",
            notes.join(" and ")
        ));
    }
    let confidence = if by_name {
        Confidence::Possible
    } else {
        Confidence::Certain
    };
    sink.add(
        Finding::new(&RULE, constraint.site, message)
            .labels(labels)
            .help(help)
            .confidence(confidence),
    );
}
