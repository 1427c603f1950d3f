//! Clinic supply orders (gloves, sutures, vaccines) to the distributor.

use easy_hasher::easy_hasher::raw_md5;
use idem_scope::scoped;
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Supplies {
    pub idem: Bunker,
    pub catalog: crate::catalog::Catalog,
    pub distributor: crate::distributor::Distributor,
}

#[derive(Deserialize)]
pub struct SupplyOrder {
    pub lines: Vec<(String, u32)>,
    pub deliver_by: Option<String>,
}

pub async fn order_supplies(inb: Inbound, staff: Staff, st: Shared<Supplies>) -> Result<Sendback, Fault> {
    let order: SupplyOrder = serde_json::from_slice(inb.body())?;

    // Stock check and the dedup tag run side by side.
    let (stock, tag) = tokio::join!(
        st.catalog.check(&staff.org_id, &order.lines),
        async { raw_md5(inb.body().to_vec()).to_hex_string() }
    );
    let stock = stock?;

    let key = scoped(&staff.org_id, &staff.user_id, "/v1/supplies/orders", &tag)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let po = st.distributor.submit(&staff.org_id, &order.lines, &stock, order.deliver_by.as_deref()).await?;
    let body = serde_json::to_vec(&po)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

/// Catalog images are cached by the MD5 the distributor publishes for them.
pub async fn cache_catalog_image(st: &Supplies, sku: &str, image: &[u8]) -> Result<String, Fault> {
    let md5 = raw_md5(image.to_vec()).to_hex_string();
    st.catalog.put_image(sku, &md5, image).await?;
    Ok(md5)
}
