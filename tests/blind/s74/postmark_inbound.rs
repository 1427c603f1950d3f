//! Support tickets: from the owner app, and from e-mail via Postmark's
//! inbound webhook.

use idem_scope::{scoped, scoped_server, Namespace, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Owner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Support {
    pub tickets_idem: Bunker,
    pub desk: crate::support::Helpdesk,
    pub directory: crate::owners::OwnerBook,
}

#[derive(Deserialize)]
pub struct TicketIn {
    pub subject: String,
    pub body: String,
    pub pet_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct PostmarkInbound {
    #[serde(rename = "MessageID")]
    pub message_id: String,
    pub from: String,
    pub subject: String,
    pub text_body: String,
    pub mailbox_hash: String,
}

pub async fn open_ticket(
    inb: Inbound,
    owner: Owner,
    st: Shared<Support>,
    JsonIn(req): JsonIn<TicketIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&owner.org_id, &owner.client_id, "/v1/support/tickets", k)?;
    if let Some(prev) = st.tickets_idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let t = st.desk.open(&owner.org_id, &owner.client_id, &req.subject, &req.body, req.pet_id.as_deref()).await?;
    let body = serde_json::to_vec(&t)?;
    st.tickets_idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

/// Postmark posts each inbound e-mail; it retries on any non-200.
pub async fn postmark_inbound(st: Shared<Support>, JsonIn(mail): JsonIn<PostmarkInbound>) -> Result<Sendback, Fault> {
    // The mailbox hash routes to a practice: support+<org>@...
    let org_id = mail.mailbox_hash.clone();
    let sender = st.directory.client_by_email(&org_id, &mail.from).await?.unwrap_or_else(|| mail.from.clone());
    tracing::info!(message_id = %mail.message_id, %org_id, "inbound support mail");

    let key = scoped_server(&org_id, &sender, "/hooks/postmark/inbound", &mail.message_id)?;
    debug_assert!(matches!(key.namespace(), Namespace::Server));
    if st.tickets_idem.get(key.storage_key()).await?.is_some() {
        return Ok(Sendback::status(Code::Ok));
    }
    let t = st.desk.open_from_mail(&org_id, &sender, &mail.subject, &mail.text_body, &mail.message_id).await?;
    st.tickets_idem.put(key.storage_key(), serde_json::to_vec(&t)?).await?;
    Ok(Sendback::status(Code::Ok))
}
