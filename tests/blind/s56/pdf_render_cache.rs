use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use redis_async::client::PairedConnection;
use redis_async::resp_array;

pub struct RenderReplays {
    conn: PairedConnection,
}

impl RenderReplays {
    pub async fn set_nx(&self, slot: &str, value: &str, ttl: Duration) -> anyhow::Result<bool> {
        let ms = ttl.as_millis().to_string();
        let reply: Option<String> = self.conn.send(resp_array!["SET", slot, value, "NX", "PX", ms]).await?;
        Ok(reply.is_some())
    }

    pub async fn set(&self, slot: &str, value: &[u8]) -> anyhow::Result<()> {
        let _: String = self.conn.send(resp_array!["SET", slot, value, "EX", "86400"]).await?;
        Ok(())
    }

    pub async fn del(&self, slot: &str) -> anyhow::Result<()> {
        let _: i64 = self.conn.send(resp_array!["DEL", slot]).await?;
        Ok(())
    }
}

pub struct InvoicePdf {
    replays: RenderReplays,
    renderer: crate::render::Renderer,
}

fn scope_of(caller: &crate::auth::Caller, headers: &http::HeaderMap, route: &str) -> anyhow::Result<ScopedKey> {
    let key = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
    Ok(scoped(&caller.tenant_id, &caller.user_id, route, key)?)
}

impl InvoicePdf {
    pub async fn render(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, invoice_id: &str) -> anyhow::Result<Vec<u8>> {
        let sk = scope_of(caller, headers, "invoices.render_pdf")?;
        if !self.replays.set_nx(sk.storage_key(), "in_progress", Duration::from_secs(120)).await? {
            anyhow::bail!("render already in progress");
        }
        let layout = self.renderer.layout_for(&caller.tenant_id);
        let pdf = self.renderer.render(invoice_id, &layout).await;
        let encoded = serde_json::to_vec(&pdf).expect("pdf metadata serialises");
        self.replays.set(sk.storage_key(), &encoded).await?;
        Ok(encoded)
    }

    pub async fn render_blocking(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, invoice_id: &str) -> anyhow::Result<Vec<u8>> {
        let sk = scope_of(caller, headers, "invoices.render_pdf_sync")?;
        let lease = Duration::from_secs(300);
        self.replays.set_nx(sk.storage_key(), "in_progress", lease).await?.then_some(()).ok_or_else(|| anyhow::anyhow!("busy"))?;
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| self.renderer.render_sync(invoice_id)));
        match outcome {
            Ok(pdf) => {
                self.replays.set(sk.storage_key(), &pdf).await?;
                Ok(pdf)
            }
            Err(payload) => {
                let _ = self.replays.del(sk.storage_key()).await;
                panic::resume_unwind(payload)
            }
        }
    }
}
