//! ETags and conditional GETs for the owner app's read endpoints.

use easy_hasher::easy_hasher::raw_sha256;
use silage::bunker::Bunker;
use stirrup::creds::Owner;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct ReadCache {
    pub pages: Bunker,
    pub records: crate::records::MedicalRecord,
}

/// Strong ETag over a rendered response body.
pub fn etag_for(body: &[u8]) -> String {
    let digest = raw_sha256(body.to_vec()).to_hex_string();
    format!("\"{}\"", &digest[..40])
}

/// `GET /v1/pets/{id}/summary`
pub async fn pet_summary(inb: Inbound, owner: Owner, st: Shared<ReadCache>, pet_id: String) -> Result<Sendback, Fault> {
    let page_key = format!("summary/{}/{}/{}", owner.org_id, owner.client_id, pet_id);
    let body = match st.pages.get(&page_key).await? {
        Some(b) => b,
        None => {
            let rendered = st.records.render_summary(&owner.org_id, &pet_id).await?;
            st.pages.put(&page_key, rendered.clone()).await?;
            rendered
        }
    };
    let tag = etag_for(&body);
    if inb.header("If-None-Match") == Some(tag.as_str()) {
        return Ok(Sendback::status(Code::NotModified));
    }
    Ok(Sendback::raw_json(Code::Ok, body).with_header("ETag", tag))
}
