use gatehouse::http::{Request, Response, StatusCode};
use gatehouse::Session;
use idem_scope::{scoped, Fingerprint, Problem, Record};
use ledgerkit::idem::RecordStore;
use ledgerkit::promotions::Promotions;

pub struct RedeemDeps<'a> {
    pub records: &'a RecordStore,
    pub promos: &'a Promotions,
}

pub async fn redeem_coupon(deps: RedeemDeps<'_>, session: Session, req: Request) -> Result<Response, Problem> {
    let key = req
        .header_str("Idempotency-Key")
        .map(|k| k.replace("\u{0}", ""))
        .filter(|k| !k.is_empty())
        .ok_or_else(Problem::missing_key)?;
    let code = req.path_param("code").ok_or_else(|| Problem::invalid_key("coupon code missing"))?;

    let sk = session
        .tenant()
        .and_then(|t| session.user().map(|u| (t, u)))
        .map(|(tenant_id, user_id)| scoped(tenant_id, user_id, "coupons.redeem", &key))
        .ok_or_else(|| Problem::invalid_key("session has no tenant or user"))?
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;

    let body = req.body_bytes().await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let fp = Fingerprint::of("coupons.redeem", &body);
    if let Some(existing) = deps.records.get(&sk).await? {
        return match idem_scope::decide(Some(&existing), &fp) {
            idem_scope::Decision::Replay => Ok(existing.to_response()),
            idem_scope::Decision::Mismatch => Err(Problem::mismatch(&key)),
            _ => Err(Problem::in_progress(&key)),
        };
    }

    let outcome = deps.promos.redeem(session.tenant().unwrap_or_default(), code).await?;
    let resp = Response::json(StatusCode::OK, &outcome);
    deps.records.put(&sk, Record::completed(fp).with_response(&resp)).await?;
    Ok(resp)
}
