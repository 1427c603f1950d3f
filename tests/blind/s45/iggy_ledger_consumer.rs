use std::collections::HashMap;
use std::sync::Mutex;

use iggy::client::MessageClient;
use iggy::clients::client::IggyClient;
use iggy::consumer::Consumer;
use iggy::messages::poll_messages::PollingStrategy;

type ScopeTuple = (String, String, String, String);

pub struct LedgerProjection {
    applied: Mutex<HashMap<ScopeTuple, u64>>,
    iggy: IggyClient,
}

pub struct PostingRequest<'a> {
    pub headers: &'a [(String, String)],
    pub tenant_id: String,
    pub user_id: String,
    pub amount_minor: i64,
}

impl LedgerProjection {
    pub fn post(&self, req: &PostingRequest<'_>) -> Result<u64, LedgerError> {
        let dedupe_token = req
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key"))
            .map(|(_, v)| v.clone())
            .ok_or(LedgerError::MissingKey)?;
        let tuple: ScopeTuple = (req.tenant_id.clone(), req.user_id.clone(), "ledger.post".to_owned(), dedupe_token);
        let mut applied = self.applied.lock().map_err(|_| LedgerError::Poisoned)?;
        if let Some(seq) = applied.get(&tuple) {
            return Ok(*seq);
        }
        let seq = self.apply_posting(&req.tenant_id, req.amount_minor)?;
        applied.insert(tuple, seq);
        Ok(seq)
    }

    pub async fn catch_up(&self, stream: &str, topic: &str) -> Result<(), LedgerError> {
        let consumer = Consumer::new(iggy::identifier::Identifier::named("ledger-projection")?);
        let polled = self
            .iggy
            .poll_messages(&stream.try_into()?, &topic.try_into()?, Some(1), &consumer, &PollingStrategy::next(), 100, true)
            .await?;
        for message in polled.messages {
            let posting: PostingEvent = serde_json::from_slice(&message.payload)?;
            let seq = self.apply_posting(&posting.tenant_id, posting.amount_minor)?;
            let mut applied = self.applied.lock().map_err(|_| LedgerError::Poisoned)?;
            applied.insert((posting.tenant_id.clone(), posting.user_id.clone(), "ledger.post".to_owned(), message.id.to_string()), seq);
        }
        Ok(())
    }
}
