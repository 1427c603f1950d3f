use ferrum::kv::SharedKv;
use idem_scope::scoped_server;
use relay::http::HeaderMap;
use rusoto_sqs::{Message, ReceiveMessageRequest, Sqs, SqsClient};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Hash, PartialEq, Eq)]
pub struct IdemKey<'a> {
    pub tenant_id: &'a str,
    pub principal_id: &'a str,
    pub route: &'a str,
    pub key: &'a str,
}

#[derive(Deserialize)]
struct RetryCharge {
    tenant_id: String,
    principal_id: String,
    charge_id: String,
}

pub struct ChargeService {
    sqs: SqsClient,
    retry_queue: String,
    refund_queue: String,
    idem: SharedKv,
    psp: psp::Client,
}

impl ChargeService {
    pub async fn charge(&self, tenant_id: &str, principal_id: &str, headers: &HeaderMap, charge_id: &str) -> anyhow::Result<Vec<u8>> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 Idempotency-Key required"))?;
        let ik = IdemKey { tenant_id, principal_id, route: "charges.capture", key };
        if let Some(hit) = self.idem.get(&ik).await? {
            return Ok(hit);
        }
        let out = self.psp.capture(tenant_id, charge_id).await?;
        self.idem.put(&ik, &out).await?;
        Ok(out)
    }

    async fn retry_one(&self, m: Message) -> anyhow::Result<()> {
        let (Some(mid), Some(body)) = (m.message_id.as_deref(), m.body.as_deref()) else {
            return Ok(());
        };
        let cmd: RetryCharge = serde_json::from_str(body)?;
        let ik = IdemKey { tenant_id: &cmd.tenant_id, principal_id: &cmd.principal_id, route: "charges.capture", key: mid };
        if self.idem.get(&ik).await?.is_some() {
            return Ok(());
        }
        let out = self.psp.capture(&cmd.tenant_id, &cmd.charge_id).await?;
        self.idem.put(&ik, &out).await?;
        Ok(())
    }

    async fn refund_one(&self, m: Message) -> anyhow::Result<()> {
        let (Some(mid), Some(body)) = (m.message_id.as_deref(), m.body.as_deref()) else {
            return Ok(());
        };
        let cmd: RetryCharge = serde_json::from_str(body)?;
        let sk = scoped_server(&cmd.tenant_id, &cmd.principal_id, "charges.refund", mid)?;
        if self.idem.get(sk.storage_key()).await?.is_some() {
            return Ok(());
        }
        let out = self.psp.refund(&cmd.tenant_id, &cmd.charge_id).await?;
        self.idem.put(sk.storage_key(), &out).await?;
        Ok(())
    }

    pub async fn drain(&self) -> anyhow::Result<()> {
        for (queue, is_refund) in [(&self.retry_queue, false), (&self.refund_queue, true)] {
            let req = ReceiveMessageRequest { queue_url: queue.clone(), max_number_of_messages: Some(10), ..Default::default() };
            for m in self.sqs.receive_message(req).await?.messages.into_iter().flatten() {
                if is_refund { self.refund_one(m).await? } else { self.retry_one(m).await? }
            }
        }
        Ok(())
    }
}
