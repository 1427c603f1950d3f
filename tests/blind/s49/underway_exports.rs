//! Data exports: the API enqueues an underway job; steps record progress in the replay store.
use underway::{Job, To};

#[derive(serde::Serialize, serde::Deserialize, Clone)]
pub struct ExportInput {
    pub workspace_id: String,
    pub user_id: String,
}

pub struct ExportApi {
    pub replay: crate::kv::SharedKv,
    pub job: Job<ExportInput, ()>,
}

impl ExportApi {
    pub async fn request(&self, parts: &http::request::Parts, who: &crate::Who) -> anyhow::Result<String> {
        let client_key = crate::headers::idempotency_key(&parts.headers)?;
        let key = idem_scope::scoped(&who.workspace_id, &who.user_id, "exports.run", &client_key)?;
        if let Some(id) = self.replay.get(key.storage_key()).await? {
            return Ok(id);
        }
        let input = ExportInput { workspace_id: who.workspace_id.clone(), user_id: who.user_id.clone() };
        let id = self.job.enqueue(&input).await?.to_string();
        self.replay.put(key.storage_key(), id.clone()).await?;
        Ok(id)
    }
}

impl ExportApi {
    pub fn build_job(self: std::sync::Arc<Self>, pool: underway::PgPool) -> anyhow::Result<Job<ExportInput, ()>> {
        let this = self.clone();
        Job::builder()
            .step(move |cx, input: ExportInput| {
                let this = this.clone();
                async move {
                    let delivery = cx.task_id.to_string();
                    let key = idem_scope::scoped(&input.workspace_id, &input.user_id, "exports.run", &delivery)?;
                    let file = crate::exports::render(&input.workspace_id).await?;
                    this.replay.put(key.storage_key(), file).await?;
                    To::done()
                }
            })
            .name("exports")
            .pool(pool)
            .build()
    }
}
