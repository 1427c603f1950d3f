use std::sync::Arc;

use bytes::Bytes;
use mini_redis::clients::Client;
use thrift::{ApplicationError, ApplicationErrorKind};
use tokio::runtime::Handle;
use tokio::sync::Mutex;

use crate::gen::wallet::{TopUpReply, WalletServiceSyncHandler};

/// Wire shape of `TopUpRequest` from wallet.thrift (kept in sync by hand).
pub struct TopUpRequest {
    pub tenant_id: String,
    pub user_id: String,
    pub wallet_id: String,
    pub amount_minor: i64,
    /// Idempotency key chosen by the caller: every retry of one top-up sends the same value.
    pub client_token: String,
}

pub struct WalletHandler {
    rt: Handle,
    kv: Arc<Mutex<Client>>,
}

fn app_err(msg: impl Into<String>) -> thrift::Error {
    thrift::Error::Application(ApplicationError::new(ApplicationErrorKind::InternalError, msg.into()))
}

impl WalletHandler {
    async fn top_up(&self, req: TopUpRequest) -> Result<TopUpReply, thrift::Error> {
        let route = "wallet.topup";
        let mut key = String::with_capacity(128);
        key.push_str(&req.tenant_id);
        key.push('\u{1f}');
        key.push_str(&req.user_id);
        key.push('\u{1f}');
        key.push_str(route);
        key.push('\u{1f}');
        key.push_str(&req.client_token);

        let mut kv = self.kv.lock().await;
        if let Some(prev) = kv.get(&key).await.map_err(|e| app_err(e.to_string()))? {
            let balance = std::str::from_utf8(&prev).ok().and_then(|s| s.parse().ok()).unwrap_or(0);
            return Ok(TopUpReply { wallet_id: req.wallet_id, balance_minor: balance, replayed: true });
        }

        let balance = self.apply(&req.wallet_id, req.amount_minor).await?;
        kv.set(&key, Bytes::from(balance.to_string()))
            .await
            .map_err(|e| app_err(e.to_string()))?;
        tracing::info!(token = %req.client_token, wallet = %req.wallet_id, "top-up applied");
        Ok(TopUpReply { wallet_id: req.wallet_id, balance_minor: balance, replayed: false })
    }

    async fn apply(&self, wallet_id: &str, amount_minor: i64) -> Result<i64, thrift::Error> {
        if amount_minor <= 0 {
            return Err(app_err(format!("invalid amount for {}", wallet_id)));
        }
        Ok(amount_minor)
    }
}

impl WalletServiceSyncHandler for WalletHandler {
    fn handle_top_up(&self, req: TopUpRequest) -> thrift::Result<TopUpReply> {
        self.rt.block_on(self.top_up(req))
    }
}
