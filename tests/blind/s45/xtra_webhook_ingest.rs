use std::io::Read;

use tiny_http::Request;
use xtra::prelude::*;

#[derive(xtra::Actor)]
pub struct Ingest {
    dedup: DedupKv,
    downstream: Downstream,
}

pub struct PartnerEvent {
    pub org_id: String,
    pub user_id: String,
    pub kind: String,
    pub delivery_id: String,
    pub payload: Vec<u8>,
}

fn header_of(req: &Request, name: &str) -> Option<String> {
    req.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.to_string())
}

impl Ingest {
    /// Client submissions over HTTP.
    pub fn accept_client(&self, req: &mut Request) -> Result<Vec<u8>, IngestError> {
        let token = header_of(req, "Idempotency-Key").ok_or(IngestError::MissingKey)?;
        let org_id = header_of(req, "X-Org-Id").ok_or(IngestError::Unauthenticated)?;
        let user_id = header_of(req, "X-User-Id").ok_or(IngestError::Unauthenticated)?;
        let op = "ingest.submit";
        let k = format!("{}/{}/{}/{}", org_id, user_id, op, token);
        if let Some(prev) = self.dedup.get(&k)? {
            return Ok(prev);
        }
        let mut body = Vec::new();
        req.as_reader().read_to_end(&mut body)?;
        let out = self.downstream.submit(&org_id, &body)?;
        self.dedup.put(&k, &out)?;
        Ok(out)
    }
}

impl Handler<PartnerEvent> for Ingest {
    type Return = Result<(), IngestError>;

    async fn handle(&mut self, evt: PartnerEvent, _ctx: &mut Context<Self>) -> Self::Return {
        let op = "ingest.submit";
        let k = format!("{}/{}/{}/replay:{}", evt.org_id, evt.user_id, op, evt.delivery_id);
        if self.dedup.get(&k)?.is_some() {
            return Ok(());
        }
        let out = self.downstream.submit(&evt.org_id, &evt.payload)?;
        self.dedup.put(&k, &out)?;
        tracing::info!(kind = %evt.kind, delivery = %evt.delivery_id, "partner event ingested");
        Ok(())
    }
}
