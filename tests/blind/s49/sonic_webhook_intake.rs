//! Partner webhook intake: JSON parsed with sonic-rs; partners are mapped to orgs.
use bytes::Bytes;

pub const SYSTEM_ORG: &str = "system";

#[derive(serde::Deserialize)]
pub struct PartnerCall {
    pub client_id: String,
    pub action: String,
    pub data: sonic_rs::Value,
}

pub struct Intake {
    pub replay: Box<dyn crate::kv::KvStore>,
    pub directory: crate::partners::Directory,
}

impl Intake {
    pub async fn receive(&self, req: http::Request<Bytes>) -> Result<Vec<u8>, crate::Error> {
        let key = req
            .headers()
            .get("x-idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or(crate::Error::MissingKey)?
            .to_owned();
        let call: PartnerCall = sonic_rs::from_slice(req.body())?;
        let org = self.directory.org_of(&call.client_id).await.ok().flatten();
        let org_id = org.as_deref().unwrap_or(SYSTEM_ORG);
        let timeout_ms = self.directory.timeout_of(&call.client_id).await.ok().flatten().unwrap_or(5_000);

        let scoped = idem_scope::scoped(org_id, &call.client_id, &call.action, &key)?;
        if let Some(prev) = self.replay.get(scoped.storage_key()).await {
            return Ok(prev);
        }
        let out = crate::partners::dispatch(org_id, &call, timeout_ms).await?;
        self.replay.set(scoped.storage_key(), out.clone()).await;
        Ok(out)
    }
}
