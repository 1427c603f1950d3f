//! Fleet customers close a billing period; the invoice is written in one
//! transaction together with the idempotency row.

use garner::sql::Link;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub async fn close_period(cx: Cx, who: Identity, link: &Link) -> Reply {
    let key = match cx.header("Idempotency-Key") {
        Some(k) => k.to_owned(),
        None => return Reply::status(Code::BAD_REQUEST),
    };
    let period: String = cx.query("period").unwrap_or_else(|| chrono::Utc::now().format("%Y-%m").to_string());
    let invoice_no = format!("FL-{}-{}", who.org_id, period);
    let mut tx = match link.begin().await {
        Ok(tx) => tx,
        Err(e) => return Reply::text(Code::SERVICE_UNAVAILABLE, e.to_string()),
    };
    let seen = tx
        .query("SELECT response FROM idempotency_keys WHERE slot = $1")
        .bind(format!("{}/{}/{}/{}", who.org_id, who.user_id, "/v1/fleet/invoices/close", key))
        .fetch_optional()
        .await;
    if let Ok(Some(row)) = seen {
        let _ = tx.rollback().await;
        return Reply::bytes(Code::OK, row.get::<Vec<u8>>("response"));
    }
    let _ = tx
        .query("INSERT INTO fleet_invoices (invoice_no, org_id, period) VALUES ($1, $2, $3)")
        .bind(&invoice_no)
        .bind(&who.org_id)
        .bind(&period)
        .execute()
        .await;
    let _ = tx
        .query("INSERT INTO idempotency_keys (slot, response) VALUES ($1, $2)")
        .bind(format!("{}/{}/{}/{}", who.org_id, who.user_id, "/v1/fleet/invoices/close", key))
        .bind(invoice_no.as_bytes())
        .execute()
        .await;
    match tx.commit().await {
        Ok(()) => Reply::text(Code::CREATED, invoice_no),
        Err(e) => Reply::text(Code::CONFLICT, format!("could not close period, key {key}: {e}")),
    }
}
