//! Reprint requests for weigh slips. Slips are mailed, so a duplicate
//! request means a duplicate letter; the endpoint dedups on the key.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Reprint {
    pub ticket_nos: Vec<String>,
    pub mail_to: String,
}

pub struct SlipDesk {
    pub crock: Crock,
    pub mail: MailHouse,
}

pub async fn reprint(p: Petition, Shared(d): Shared<SlipDesk>, g: Grower, Json(r): Json<Reprint>) -> Ruling {
    let Some(raw) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let k = raw.trim();
    let k = k.replace('\0', "");
    let key = match scoped(&g.org_id, &g.user_id, "slip_reprint", &k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = d.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let job = d.mail.queue_slips(&g.user_id, &r.ticket_nos, &r.mail_to).await;
    let body = furrow::codec::to_vec(&job).unwrap_or_default();
    let _ = d.crock.put(key.storage_key(), body.clone()).await;
    Ruling::accepted().bytes(body)
}

pub async fn email_slips(p: Petition, Shared(d): Shared<SlipDesk>, g: Grower, Json(r): Json<Reprint>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    if k.contains('\0') || k.contains('\u{1e}') {
        return Ruling::problem(Problem::invalid_key("control characters are not allowed"));
    }
    let key = match scoped(&g.org_id, &g.user_id, "slip_email", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    let subject = format!("Weigh slips {}", r.ticket_nos.join(", ")).replace('\n', " ");
    let sent = d.mail.email_slips(&r.mail_to, &subject, &r.ticket_nos).await;
    let body = furrow::codec::to_vec(&sent).unwrap_or_default();
    let _ = d.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}
