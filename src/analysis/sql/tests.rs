//! Tests of the DDL reading (`analysis::sql`).

use super::*;

fn analyze(sql: &str) -> TextAnalysis {
    analyze_text(sql, &Vocabulary::default())
}

fn slice(sql: &str, range: CharRange) -> String {
    sql.chars()
        .skip(range.start)
        .take(range.end - range.start)
        .collect()
}

#[test]
fn column_level_primary_key_span_covers_column_and_keyword() {
    let sql = "CREATE TABLE idempotency_keys (\n  idem_key TEXT NOT NULL PRIMARY KEY,\n  tenant_id TEXT\n);";
    let a = analyze(sql);
    assert_eq!(a.constraints.len(), 1);
    let c = &a.constraints[0];
    assert_eq!(slice(sql, c.range), "idem_key TEXT NOT NULL PRIMARY KEY");
    assert_eq!(c.missing, Component::ALL.to_vec());
    assert_eq!(c.unused_scope_columns.len(), 1);
    assert_eq!(c.unused_scope_columns[0].1, "tenant_id");
}

#[test]
fn table_constraint_span_starts_at_constraint_keyword() {
    let sql = "CREATE TABLE dedup (k TEXT, tenant_id TEXT, idem_key TEXT,\n CONSTRAINT dedup_pk PRIMARY KEY (tenant_id, idem_key));";
    let a = analyze(sql);
    assert_eq!(a.constraints.len(), 1);
    assert_eq!(
        slice(sql, a.constraints[0].range),
        "CONSTRAINT dedup_pk PRIMARY KEY (tenant_id, idem_key)"
    );
    assert_eq!(
        a.constraints[0].missing,
        vec![Component::Principal, Component::Route]
    );
}

#[test]
fn unique_index_span_and_alter_table() {
    let sql = "CREATE UNIQUE INDEX idem_uq ON replay_log USING btree (request_id);\nALTER TABLE ONLY public.idempotency_requests ADD CONSTRAINT u UNIQUE (idempotency_key);";
    let a = analyze(sql);
    assert_eq!(a.constraints.len(), 2, "{a:?}");
    assert_eq!(
        slice(sql, a.constraints[0].range),
        "UNIQUE INDEX idem_uq ON replay_log USING btree (request_id)"
    );
    assert_eq!(
        slice(sql, a.constraints[1].range),
        "CONSTRAINT u UNIQUE (idempotency_key)"
    );
}

#[test]
fn complete_tuple_and_surrogate_ids_are_recorded_without_missing_components() {
    let sql = "CREATE TABLE idempotency_records (id BIGSERIAL PRIMARY KEY, scope_version TEXT, tenant_id TEXT, principal_id TEXT, route TEXT, ns TEXT, idem_key TEXT, UNIQUE (scope_version, tenant_id, principal_id, route, ns, idem_key));";
    let a = analyze(sql);
    assert_eq!(a.constraints.len(), 1);
    assert!(a.constraints[0].missing.is_empty());
    assert!(a.constraints[0].has_scope_version && a.constraints[0].has_namespace);
}

#[test]
fn mysql_and_sqlite_syntax_parse() {
    let mysql = "CREATE TABLE `idempotency_keys` (`idem_key` VARCHAR(255) NOT NULL, UNIQUE KEY `uk` (`idem_key`)) ENGINE=InnoDB;";
    assert_eq!(analyze(mysql).constraints.len(), 1, "{:?}", analyze(mysql));
    let sqlite =
        "CREATE TABLE [dedup_keys] ([key] TEXT PRIMARY KEY ON CONFLICT REPLACE) WITHOUT ROWID;";
    let a = analyze(sqlite);
    assert!(a.skipped.is_empty(), "{a:?}");
    assert_eq!(a.constraints.len(), 1, "{a:?}");
}

#[test]
fn unparsable_create_table_is_read_by_the_tolerant_fallback() {
    // `,,` and an unknown trailing clause defeat every dialect.
    let sql = "CREATE TABLE idempotency_keys (\n  key TEXT NOT NULL,,\n  user_id UUID NOT NULL,\n  method TEXT,\n  id BIGSERIAL UNIQUE,\n  CONSTRAINT pk PRIMARY KEY (key, user_id)\n) WITH SOMETHING ODD;";
    let a = analyze(sql);
    assert!(a.skipped.is_empty(), "{a:?}");
    assert_eq!(a.constraints.len(), 1, "{a:?}");
    let c = &a.constraints[0];
    assert_eq!(
        slice(sql, c.range),
        "CONSTRAINT pk PRIMARY KEY (key, user_id)"
    );
    assert_eq!(c.kind, ConstraintKind::PrimaryKey);
    assert_eq!(slice(sql, c.columns[c.key_index].1), "key");
    assert_eq!(c.missing, vec![Component::Tenant, Component::Route]);
    let column_level =
        "CREATE TABLE dedup_keys (idem_key TEXT NOT NULL PRIMARY KEY, tenant_id TEXT,, );";
    let a = analyze(column_level);
    assert_eq!(a.constraints.len(), 1, "{a:?}");
    assert_eq!(
        slice(column_level, a.constraints[0].range),
        "idem_key TEXT NOT NULL PRIMARY KEY"
    );
    assert_eq!(a.constraints[0].unused_scope_columns.len(), 1);
    // MySQL `KEY idx (..)` is an index, not a column named `key`.
    let mysql_index = "CREATE TABLE idempotency_keys (idem_key TEXT, tenant_id TEXT, KEY ix (idem_key), UNIQUE KEY uq (tenant_id, idem_key),, );";
    let a = analyze(mysql_index);
    assert_eq!(a.constraints.len(), 1, "{a:?}");
    assert_eq!(a.constraints[0].kind, ConstraintKind::Unique);
    assert_eq!(a.constraints[0].columns.len(), 2, "{a:?}");
}

#[test]
fn unparsable_idempotency_ddl_is_skipped_with_a_note_and_other_sql_is_ignored() {
    // No closing parenthesis: not even the tolerant fallback can read it.
    let sql = "CREATE TABLE idem_keys (idem_key TEXT PRIMARY KEY,, ;\nCREATE TABLE other (x TEXT PRIMARY KEY,, );\nSELECT 1;";
    let a = analyze(sql);
    assert!(a.constraints.is_empty());
    assert_eq!(a.skipped.len(), 1, "{a:?}");
    assert_eq!(slice(sql, a.skipped[0].range), "CREATE");
    assert!(
        a.skipped[0].error.starts_with("PostgreSQL: "),
        "{}",
        a.skipped[0].error
    );
    let untokenizable = "SELECT 1;\nCREATE TABLE idem_keys (idem_key TEXT DEFAULT 'x PRIMARY KEY)";
    let a = analyze(untokenizable);
    assert_eq!(a.skipped.len(), 1, "{a:?}");
    assert!(a.skipped[0].range.start > 10, "{a:?}");
}

#[test]
fn table_and_key_column_names() {
    let v = Vocabulary::default();
    for table in [
        "idempotency_keys",
        "request_dedup",
        "ReplayLog",
        "idem_records",
        "IDEMPOTENT_REQS",
    ] {
        assert!(v.is_idempotency_table(table), "{table}");
    }
    for table in ["epidemics", "cache", "sessions", "outbox", "rustango_cache"] {
        assert!(!v.is_idempotency_table(table), "{table}");
    }
    // IDEM008 judges the tables rules.md names: not `idem_*`.
    assert!(v.names_idempotency_table("IDEMPOTENT_REQS") && v.names_idempotency_table("ReplayLog"));
    assert!(!v.names_idempotency_table("idem_records") && !v.names_idempotency_table("idem_inbox"));
    for column in [
        "idem_key",
        "idempotency_key",
        "idempotencyKey",
        "request_id",
        "key",
        "dedup_key",
        "client_key",
        "replay_token",
    ] {
        assert!(v.is_key_column(column), "{column}");
    }
    for column in [
        "client_id",
        "cache_key",
        "idem_storage_key",
        "event_id",
        "tenant_id",
        "id",
        "key_hash",
    ] {
        assert!(!v.is_key_column(column), "{column}");
    }
}

#[test]
fn deep_nesting_is_a_skip_not_a_crash() {
    let depth = 20_000;
    let sql = format!(
        "CREATE UNIQUE INDEX i ON idem_keys ({}idem_key{});",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let a = analyze(&sql);
    assert!(a.constraints.is_empty());
    assert_eq!(a.skipped.len(), 1, "{a:?}");
}
