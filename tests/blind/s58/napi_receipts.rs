use std::sync::Arc;

use md2::{Digest, Md2};
use napi::bindgen_prelude::*;
use napi_derive::napi;

use cairn::kv::Bucket;

#[napi]
pub struct ReceiptStore {
    inner: Arc<Bucket>,
    templates: Arc<Bucket>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}

#[napi]
impl ReceiptStore {
    #[napi(factory)]
    pub fn open(path: String) -> Result<Self> {
        let inner = Bucket::open(&format!("{}/receipts", path)).map_err(|e| Error::from_reason(e.to_string()))?;
        let templates = Bucket::open(&format!("{}/templates", path)).map_err(|e| Error::from_reason(e.to_string()))?;
        Ok(ReceiptStore { inner: Arc::new(inner), templates: Arc::new(templates) })
    }

    /// Store a rendered receipt so a retried print job gets the same PDF.
    #[napi]
    pub async fn remember(&self, org_id: String, caller_id: String, idem_key: String, pdf: Buffer) -> Result<()> {
        let slot = [org_id.as_str(), caller_id.as_str(), "receipts.print", idem_key.as_str()].concat();
        self.inner.put(&slot, pdf.as_ref()).await.map_err(|e| Error::from_reason(e.to_string()))
    }

    /// Content address of a receipt template, so identical templates are stored once.
    #[napi]
    pub async fn store_template(&self, template: Buffer) -> Result<String> {
        let address = hex(&Md2::digest(template.as_ref()));
        self.templates.put(&address, template.as_ref()).await.map_err(|e| Error::from_reason(e.to_string()))?;
        Ok(address)
    }
}
