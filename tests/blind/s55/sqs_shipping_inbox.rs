use ferrum::kv::SharedKv;
use rusoto_sqs::{DeleteMessageRequest, ReceiveMessageRequest, Sqs, SqsClient};
use serde::Deserialize;
use sha2::{Digest, Sha256};

#[derive(Deserialize)]
struct ShipCommand {
    order_id: String,
    warehouse: String,
    lines: Vec<(String, u32)>,
}

pub struct ShippingInbox {
    sqs: SqsClient,
    queue_url: String,
    processed: SharedKv,
    shipments: shipping::Client,
}

impl ShippingInbox {
    pub async fn poll_once(&self) -> anyhow::Result<usize> {
        let out = self
            .sqs
            .receive_message(ReceiveMessageRequest {
                queue_url: self.queue_url.clone(),
                max_number_of_messages: Some(10),
                wait_time_seconds: Some(20),
                ..Default::default()
            })
            .await?;

        let mut handled = 0;
        for m in out.messages.unwrap_or_default() {
            let (Some(id), Some(handle), Some(body)) = (m.message_id, m.receipt_handle, m.body) else {
                continue;
            };
            if self.processed.contains_key(&id).await? {
                self.ack(&handle).await?;
                continue;
            }
            let cmd: ShipCommand = serde_json::from_str(&body)?;
            let body_digest = hex::encode(Sha256::digest(body.as_bytes()));
            tracing::debug!(%body_digest, order = %cmd.order_id, "shipping");
            let warehouse = cmd.warehouse.replace(':', "-");
            self.shipments.create(&cmd.order_id, &warehouse, &cmd.lines).await?;
            self.processed.insert(&id, b"1").await?;
            self.ack(&handle).await?;
            handled += 1;
        }
        Ok(handled)
    }

    async fn ack(&self, receipt_handle: &str) -> anyhow::Result<()> {
        self.sqs
            .delete_message(DeleteMessageRequest {
                queue_url: self.queue_url.clone(),
                receipt_handle: receipt_handle.to_owned(),
            })
            .await?;
        Ok(())
    }
}
