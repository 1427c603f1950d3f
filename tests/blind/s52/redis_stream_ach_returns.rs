use http::HeaderMap;
use idem_scope::scoped;
use redis::aio::MultiplexedConnection;
use redis::streams::{StreamReadOptions, StreamReadReply};
use redis::AsyncCommands;

use crate::ach::{AchReturn, ReturnProcessor};

const STREAM: &str = "ach:returns";
const GROUP: &str = "returns-workers";

pub struct AchReturns {
    con: MultiplexedConnection,
    processor: ReturnProcessor,
}

impl AchReturns {
    pub async fn submit_manual_return(&mut self, tenant_id: &str, user_id: &str, headers: &HeaderMap, ret: AchReturn) -> anyhow::Result<String> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
        let key = scoped(tenant_id, user_id, "ach.return", client_key)?;
        if let Some(done) = self.con.get::<_, Option<String>>(key.storage_key()).await? {
            return Ok(done);
        }
        let trace = self.processor.process(tenant_id, &ret).await?;
        self.con.set_ex::<_, _, ()>(key.storage_key(), &trace, 86_400).await?;
        Ok(trace)
    }

    pub async fn drain(&mut self, consumer: &str) -> anyhow::Result<usize> {
        let opts = StreamReadOptions::default().group(GROUP, consumer).count(64).block(5_000);
        let reply: StreamReadReply = self.con.xread_options(&[STREAM], &[">"], &opts).await?;
        let mut handled = 0;
        for stream in reply.keys {
            for entry in stream.ids {
                let Some(ret) = AchReturn::from_fields(&entry.map) else {
                    continue;
                };
                let slot = format!("{}\0{}\0{}\0{}", ret.tenant_id, ret.actor, "ach.return", entry.id);
                if self.con.exists::<_, bool>(&slot).await? {
                    let _: () = self.con.xack(STREAM, GROUP, &[&entry.id]).await?;
                    continue;
                }
                let trace = self.processor.process(&ret.tenant_id, &ret).await?;
                self.con.set_ex::<_, _, ()>(&slot, &trace, 86_400).await?;
                let _: () = self.con.xack(STREAM, GROUP, &[&entry.id]).await?;
                handled += 1;
            }
        }
        Ok(handled)
    }
}
