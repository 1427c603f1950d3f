//! Back-office account adjustments (write-offs, fee reversals) made by
//! office staff who sign in through the co-op's SAML IdP.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use samael::schema::Assertion;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Adjustment {
    pub member_no: String,
    pub amount_cents: i64,
    pub reason_code: String,
}

pub struct BackOffice {
    pub crock: Crock,
    pub org_id: String,
    pub accounts: MemberAccounts,
}

fn subject_of(a: &Assertion) -> Option<String> {
    a.subject.as_ref()?.name_id.as_ref().map(|n| n.value.clone())
}

pub async fn adjust(p: Petition, Shared(bo): Shared<BackOffice>, assertion: Assertion, Json(adj): Json<Adjustment>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let subject = if let Some(name_id) = subject_of(&assertion) {
        name_id
    } else {
        "system".to_owned()
    };
    let key = match scoped(&bo.org_id, &subject, "account_adjust", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = bo.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let session_index = assertion.authn_statements.first().and_then(|s| s.session_index.clone()).unwrap_or_default();
    let posted = bo.accounts.adjust(&adj.member_no, adj.amount_cents, &adj.reason_code, &session_index).await;
    let body = furrow::codec::to_vec(&posted).unwrap_or_default();
    let _ = bo.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}

pub async fn reverse_fee(p: Petition, Shared(bo): Shared<BackOffice>, assertion: Assertion, Json(adj): Json<Adjustment>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let subject = if let Some(name_id) = subject_of(&assertion) {
        name_id
    } else {
        return Ruling::with(StatusLine::UNAUTHORIZED).text("assertion has no subject");
    };
    let key = match scoped(&bo.org_id, &subject, "fee_reverse", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    let posted = bo.accounts.reverse(&adj.member_no, adj.amount_cents).await;
    let body = furrow::codec::to_vec(&posted).unwrap_or_default();
    let _ = bo.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}
