//! Chargeback evidence submissions, persisted in the idempotency table.
use coffer::sql::Pool;
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};
use sha2::{Digest, Sha384};

pub async fn submit_evidence(visit: Visit, member: Member, pool: &Pool) -> Verdict {
    let body = match visit.body_bytes().await {
        Ok(b) => b,
        Err(_) => return Verdict::status(Status::BadRequest),
    };
    let digest = hex::encode(Sha384::digest(&body));
    let fp = idem_scope::Fingerprint::of("chargeback.evidence", &body);
    let inserted = pool
        .query("INSERT INTO idempotency_records (tenant_id, principal_id, route, idem_key, fingerprint) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING")
        .bind(&member.tenant_id)
        .bind(&member.user_id)
        .bind("chargeback.evidence")
        .bind(&digest)
        .bind(fp.as_bytes().as_slice())
        .execute()
        .await;
    match inserted {
        Ok(n) if n == 0 => Verdict::status(Status::Conflict),
        Ok(_) => Verdict::status(Status::Accepted),
        Err(_) => Verdict::status(Status::ServiceUnavailable),
    }
}
