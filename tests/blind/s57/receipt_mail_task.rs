use std::sync::Arc;
use std::time::Duration;

use backie::{BackgroundTask, CurrentTask};
use clru::CLruCache;
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};

use crate::leases::LeaseClient;
use crate::mail::Mailer;

#[derive(Clone)]
pub struct MailCtx {
    pub mailer: Arc<Mailer>,
    pub leases: Arc<LeaseClient>,
    pub sent: Arc<Mutex<CLruCache<(String, String), String>>>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SendReceipt {
    pub tenant_id: String,
    pub order_id: String,
    pub idem_key: String,
    pub email: String,
}

#[async_trait::async_trait]
impl BackgroundTask for SendReceipt {
    const TASK_NAME: &'static str = "send_receipt";
    const QUEUE: &'static str = "mail";
    type AppData = MailCtx;
    type Error = eyre::Report;

    async fn run(&self, task: CurrentTask, ctx: MailCtx) -> Result<(), eyre::Report> {
        let marker = (self.tenant_id.clone(), self.idem_key.clone());
        if ctx.sent.lock().contains(&marker) {
            log::info!("receipt for order {} already sent", self.order_id);
            return Ok(());
        }

        let lease_key = format!("mail-lease/{}", self.order_id);
        ctx.leases.acquire(&lease_key, Duration::from_secs(30)).await?;
        let rendered = ctx.mailer.render("receipt", &self.order_id).await?;
        ctx.mailer.send(&self.email, rendered).await?;
        ctx.leases.release(&lease_key).await?;

        ctx.sent.lock().put(marker, task.id().to_string());
        Ok(())
    }
}
