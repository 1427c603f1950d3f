use idem_scope::{Fingerprint, ScopedKey};
use sea_query::{Expr, Iden, OnConflict, PostgresQueryBuilder, Query};

#[derive(Iden)]
pub enum IdempotencyRecords {
    Table,
    ScopeVersion,
    TenantId,
    PrincipalId,
    Route,
    Ns,
    IdemKey,
    Fingerprint,
    Status,
    Response,
}

pub fn claim_sql(sk: &ScopedKey, fp: &Fingerprint) -> String {
    let c = sk.columns();
    Query::insert()
        .into_table(IdempotencyRecords::Table)
        .columns([
            IdempotencyRecords::ScopeVersion,
            IdempotencyRecords::TenantId,
            IdempotencyRecords::PrincipalId,
            IdempotencyRecords::Route,
            IdempotencyRecords::Ns,
            IdempotencyRecords::IdemKey,
            IdempotencyRecords::Fingerprint,
            IdempotencyRecords::Status,
        ])
        .values_panic([c.scope_version.into(), c.tenant_id.into(), c.principal_id.into(), c.route.into(), c.ns.into(), c.idem_key.into(), fp.as_bytes().to_vec().into(), "in_progress".into()])
        .on_conflict(OnConflict::new().do_nothing().to_owned())
        .to_string(PostgresQueryBuilder)
}

pub fn lookup_sql(sk: &ScopedKey) -> String {
    let c = sk.columns();
    Query::select()
        .columns([IdempotencyRecords::Fingerprint, IdempotencyRecords::Status, IdempotencyRecords::Response])
        .from(IdempotencyRecords::Table)
        .and_where(Expr::col(IdempotencyRecords::ScopeVersion).eq(c.scope_version))
        .and_where(Expr::col(IdempotencyRecords::TenantId).eq(c.tenant_id))
        .and_where(Expr::col(IdempotencyRecords::PrincipalId).eq(c.principal_id))
        .and_where(Expr::col(IdempotencyRecords::Route).eq(c.route))
        .and_where(Expr::col(IdempotencyRecords::Ns).eq(c.ns))
        .and_where(Expr::col(IdempotencyRecords::IdemKey).eq(c.idem_key))
        .to_string(PostgresQueryBuilder)
}
