//! The PostgreSQL table that stores records under the full tuple.

/// DDL for `idempotency_records`, keyed by the whole tuple.
///
/// The composite primary key is what makes the scope real in storage: the
/// same client key under two tenants (or principals, or routes, or the two
/// namespaces) is two rows, and a second insert of the same tuple is a unique
/// violation, which is how concurrent claims are arbitrated. `scope_version`
/// leads the key so a `v2` scheme can coexist with `v1` rows.
///
/// `claimed_at` feeds the lease check of [`crate::decide_at`]; `expires_at`
/// is when the record may be purged (the draft suggests at least 24 hours)
/// or, while `in_progress`, when the claim's lease ends and it may be taken
/// over; `claim_token` names the claim's owner, so a claimant whose claim was
/// taken over cannot complete or delete the new one; `response` holds the
/// serialised response to replay. Bind the key columns from
/// [`crate::ScopedKey::columns`].
///
/// ```
/// assert!(idem_scope::POSTGRES_SCHEMA
///     .contains("PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)"));
/// ```
pub const POSTGRES_SCHEMA: &str = "\
CREATE TABLE idempotency_records (
    scope_version   text        NOT NULL CHECK (scope_version <> ''),
    tenant_id       text        NOT NULL CHECK (tenant_id <> ''),
    principal_id    text        NOT NULL CHECK (principal_id <> ''),
    route           text        NOT NULL CHECK (route <> ''),
    ns              text        NOT NULL CHECK (ns IN ('u:', 's:')),
    idem_key        text        NOT NULL CHECK (idem_key <> ''),
    fingerprint     bytea       NOT NULL CHECK (octet_length(fingerprint) = 32),
    status          text        NOT NULL CHECK (status IN ('in_progress', 'completed')),
    claim_token     text,
    response_status integer,
    response        bytea,
    claimed_at      timestamptz NOT NULL DEFAULT now(),
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at);
";
