//! Reseller API: employers and universities buy passes in bulk for their
//! members. Resellers authenticate with a partner key (account + client).

use hopper::rack::Rack;
use idem_scope::{IdempotencyKey, Problem};
use wharf::badge::PartnerKey;
use wharf::codec::Decode;
use wharf::pick::{FromHail, Head};
use wharf::{Answer, Code, Fault, Hail};

use crate::ids;
use crate::notify::PartnerHooks;

/// The reseller's `Idempotency-Key`, parsed once per request.
pub struct OrderToken(pub String);

impl FromHail for OrderToken {
    type Rejection = Answer;

    fn from_hail(head: &Head) -> Result<Self, Answer> {
        let raw = head
            .header("Idempotency-Key")
            .ok_or_else(|| Answer::problem(Problem::missing_key()))?;
        let parsed = IdempotencyKey::parse_lenient(raw.as_bytes())
            .map_err(|e| Answer::problem(Problem::invalid_key(&e.to_string())))?;
        Ok(OrderToken(parsed.as_str().to_owned()))
    }
}

#[derive(Decode)]
pub struct BulkOrder {
    pub product: String,
    pub member_ids: Vec<String>,
    pub po_number: Option<String>,
}

#[derive(Decode)]
pub struct Amendment {
    pub order_id: String,
    pub add_members: Vec<String>,
}

pub async fn bulk_order(
    rack: &Rack,
    hooks: &PartnerHooks,
    partner: PartnerKey,
    token: OrderToken,
    hail: Hail,
) -> Result<Answer, Fault> {
    let order: BulkOrder = hail.json()?;
    let order_id = ids::order_id();

    match rack.insert_if_absent(&partner.account_id, &token.0, order_id.as_bytes()).await? {
        Some(existing) => {
            let id = String::from_utf8_lossy(&existing).into_owned();
            return Ok(Answer::json(Code::Ok, &wharf::json!({ "order_id": id, "replayed": true })));
        }
        None => {}
    }

    crate::orders::create(&partner.account_id, &order_id, &order.product, &order.member_ids).await?;
    hooks
        .post(&partner.account_id, "order.created")
        .header("Idempotency-Key", &token.0)
        .json(&wharf::json!({ "order_id": order_id, "po": order.po_number }))
        .send()
        .await?;
    Ok(Answer::json(Code::Created, &wharf::json!({ "order_id": order_id })))
}

pub async fn amend_order(
    rack: &Rack,
    partner: PartnerKey,
    token: OrderToken,
    hail: Hail,
) -> Result<Answer, Fault> {
    let amendment: Amendment = hail.json()?;
    let marker = ids::amendment_id();
    let prior = rack
        .insert_if_absent4(&partner.account_id, &partner.client_id, "orders.amend", &token.0, marker.as_bytes())
        .await?;
    if let Some(existing) = prior {
        return Ok(Answer::replayed(existing));
    }
    crate::orders::add_members(&partner.account_id, &amendment.order_id, &amendment.add_members).await?;
    Ok(Answer::json(Code::Ok, &wharf::json!({ "amendment": marker })))
}
