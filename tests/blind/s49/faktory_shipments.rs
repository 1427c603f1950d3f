//! Shipment label purchase: API requests and faktory jobs both buy labels.
use faktory::{Job, Worker, WorkerBuilder};

pub struct Labels {
    pub idem: crate::kv::Kv,
}

impl Labels {
    pub async fn buy_label(&self, parts: &http::request::Parts, who: &crate::Who, req: crate::LabelReq) -> anyhow::Result<Vec<u8>> {
        let client_key = crate::headers::idempotency_key(&parts.headers)?;
        let key = idem_scope::scoped(&who.org_id, &who.user_id, "labels.buy", &client_key)?;
        if let Some(prev) = self.idem.get(key.storage_key()).await? {
            return Ok(prev);
        }
        let out = crate::carrier::buy(&who.org_id, &req).await?;
        self.idem.put(key.storage_key(), out.clone()).await?;
        Ok(out)
    }

    pub async fn run_job(&self, job: Job) -> anyhow::Result<()> {
        let args: crate::LabelJobArgs = serde_json::from_value(job.args()[0].clone())?;
        let job_key = idem_scope::scoped(&args.org_id, &args.user_id, "labels.buy", job.id().as_ref())?;
        if self.idem.get(job_key.storage_key()).await?.is_some() {
            return Ok(());
        }
        let out = crate::carrier::buy(&args.org_id, &args.req).await?;
        self.idem.put(job_key.storage_key(), out).await?;
        Ok(())
    }
}

pub async fn worker(labels: std::sync::Arc<Labels>) -> anyhow::Result<Worker<anyhow::Error>> {
    let w = WorkerBuilder::default()
        .register_fn("buy_label", move |job| {
            let labels = labels.clone();
            async move { labels.run_job(job).await }
        })
        .connect()
        .await?;
    Ok(w)
}
