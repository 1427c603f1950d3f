use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

pub struct Redeem {
    pub tenant_id: String,
    pub user_id: String,
    pub coupon: String,
    pub headers: Vec<(String, String)>,
    pub reply: oneshot::Sender<Result<u32, String>>,
}

#[async_trait::async_trait]
pub trait Idem: Send + Sync {
    async fn begin(&self, key: &str) -> Result<(), String>;
    async fn finish(&self, key: &str, out: u32) -> Result<(), String>;
    async fn abandon(&self, key: &str);
}

async fn apply_coupon(coupon: &str) -> Result<u32, String> {
    if coupon.is_empty() {
        return Err("empty".into());
    }
    Ok(10)
}

pub async fn run(idem: Arc<dyn Idem>, mut rx: mpsc::Receiver<Redeem>) {
    while let Some(msg) = rx.recv().await {
        let idem = idem.clone();
        tokio::spawn(async move {
            let result = async {
                let client_key = msg.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone()).ok_or("400")?;
                let key = idem_scope::scoped(&msg.tenant_id, &msg.user_id, "redeem", &client_key).map_err(|e| e.to_string())?;
                idem.begin(key.storage_key()).await?;
                let discount = apply_coupon(&msg.coupon).await?;
                idem.finish(key.storage_key(), discount).await?;
                Ok::<u32, String>(discount)
            }
            .await;
            let _ = msg.reply.send(result);
        });
    }
}

pub async fn run_safely(idem: Arc<dyn Idem>, msg: Redeem) -> Result<u32, String> {
    let client_key = msg.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone()).ok_or("400")?;
    let key = idem_scope::scoped(&msg.tenant_id, &msg.user_id, "redeem", &client_key).map_err(|e| e.to_string())?;
    idem.begin(key.storage_key()).await?;
    let discount = match apply_coupon(&msg.coupon).await {
        Ok(d) => d,
        Err(e) => {
            idem.abandon(key.storage_key()).await;
            return Err(e);
        }
    };
    idem.finish(key.storage_key(), discount).await?;
    Ok(discount)
}
