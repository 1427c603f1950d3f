//! Prescription diet orders placed from the exam room.

use idem_scope::Fingerprint;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use silage::tab::Tab;
use stirrup::creds::Staff;
use stirrup::lift::FormIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct DietDesk {
    pub tab: Tab,
    pub supplier: crate::diets::Supplier,
}

#[derive(Deserialize, Serialize)]
pub struct DietForm {
    pub pet_id: String,
    pub formula: String,
    pub bags: u8,
    pub ship_to_home: bool,
}

/// The exam-room tablet posts a plain form and retries it as is. The supplier
/// drops repeated orders on its side; this table makes the tablet's retry see
/// the first response instead of a second order number.
pub async fn order_diet(
    _inb: Inbound,
    staff: Staff,
    st: Shared<DietDesk>,
    FormIn(form): FormIn<DietForm>,
) -> Result<Sendback, Fault> {
    let form_text = serde_html_form::to_string(&form)?;
    let mut h = Sha256::new();
    h.update(form_text.as_bytes());
    let tag = base36::encode(&h.finalize());

    let order = st.supplier.order(&staff.org_id, &form.pet_id, &form.formula, form.bags, form.ship_to_home).await?;
    let resp = serde_json::to_string(&order)?;

    st.tab
        .q("INSERT INTO diet_orders (org_id, pet_id, formula, bags, supplier_ref) VALUES ($1, $2, $3, $4, $5)")
        .bind(&staff.org_id)
        .bind(&form.pet_id)
        .bind(&form.formula)
        .bind(form.bags as i32)
        .bind(&order.supplier_ref)
        .exec()
        .await?;

    let stored: String = st
        .tab
        .q("INSERT INTO diet_order_idempotency (org_id, user_id, route, idem_key, response) \
            VALUES ($1, $2, $3, $4, $5) \
            ON CONFLICT (org_id, user_id, route, idem_key) DO UPDATE SET hits = diet_order_idempotency.hits + 1 \
            RETURNING response")
        .bind(&staff.org_id)
        .bind(&staff.user_id)
        .bind("/v1/diet-orders")
        .bind(&tag)
        .bind(&resp)
        .fetch_one()
        .await?;
    Ok(Sendback::raw_json(Code::Created, stored.into_bytes()))
}

/// Keyed variant used by the new tablet build: the header is the key and the
/// form digest only goes to the fingerprint column.
pub async fn order_diet_keyed(
    inb: Inbound,
    staff: Staff,
    st: Shared<DietDesk>,
    FormIn(form): FormIn<DietForm>,
) -> Result<Sendback, Fault> {
    let k = inb.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("Idempotency-Key"))?;
    let fingerprint = Fingerprint::of("/v2/diet-orders", inb.body());
    let prior: Option<String> = st
        .tab
        .q("SELECT response FROM diet_order_idempotency WHERE org_id = $1 AND user_id = $2 AND route = $3 AND idem_key = $4")
        .bind(&staff.org_id)
        .bind(&staff.user_id)
        .bind("/v2/diet-orders")
        .bind(k)
        .fetch_opt()
        .await?;
    if let Some(prev) = prior {
        return Ok(Sendback::raw_json(Code::Ok, prev.into_bytes()));
    }
    let order = st.supplier.order(&staff.org_id, &form.pet_id, &form.formula, form.bags, form.ship_to_home).await?;
    let resp = serde_json::to_string(&order)?;
    st.tab
        .q("INSERT INTO diet_order_idempotency (org_id, user_id, route, idem_key, fingerprint, response) \
            VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING")
        .bind(&staff.org_id)
        .bind(&staff.user_id)
        .bind("/v2/diet-orders")
        .bind(k)
        .bind(fingerprint.as_bytes().as_slice())
        .bind(&resp)
        .exec()
        .await?;
    Ok(Sendback::raw_json(Code::Created, resp.into_bytes()))
}
