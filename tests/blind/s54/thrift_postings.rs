use std::sync::Arc;

use faststr::FastStr;
use ledgerkit::kv::Kv;
use metainfo::{Backward, Forward, METAINFO};
use volo_thrift::ServerError;

use crate::gen::ledger::{PostEntriesRequest, PostEntriesResponse, PostingService};

fn persistent(name: &str) -> Option<FastStr> {
    METAINFO.with(|mi| mi.borrow().get_persistent(name))
}

#[derive(Clone)]
pub struct Postings {
    kv: Arc<Kv>,
    books: Arc<books::Books>,
}

impl Postings {
    fn reply_key(tenant: &str, caller: &str, key: &str) -> String {
        let tenant = tenant.trim_matches('|');
        [tenant, caller, "PostEntries", key].join("|")
    }
}

impl PostingService for Postings {
    async fn post_entries(&self, req: PostEntriesRequest) -> Result<PostEntriesResponse, ServerError> {
        let tenant = persistent("tenant-id").ok_or_else(|| anyhow::anyhow!("tenant-id metainfo missing"))?;
        let caller = persistent("caller").ok_or_else(|| anyhow::anyhow!("caller metainfo missing"))?;
        let Some(key) = persistent("Idempotency-Key") else {
            return Ok(self.books.post(&tenant, &req.entries).await?);
        };

        let rk = Self::reply_key(&tenant, &caller, &key);
        if let Some(bytes) = self.kv.get(&rk).await? {
            let resp: PostEntriesResponse = postcard::from_bytes(&bytes).map_err(anyhow::Error::from)?;
            return Ok(resp);
        }
        let resp = self.books.post(&tenant, &req.entries).await?;
        let bytes = postcard::to_allocvec(&resp).map_err(anyhow::Error::from)?;
        self.kv.put(&rk, bytes).await?;
        METAINFO.with(|mi| mi.borrow_mut().set_backward_transient("replayed", "false"));
        Ok(resp)
    }
}
