//! Requeues dead-lettered billing jobs. Jobs created from API requests
//! carry the client's scoped key; jobs created by the system do not.

use garner::bin::Bin;
use garner::queue::{DeadLetters, Job};
use idem_scope::{scoped, scoped_server};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub struct Requeue {
    pub results: Bin,
    pub dlq: DeadLetters,
}

impl Requeue {
    pub async fn api_submit(&self, cx: Cx, who: Identity) -> Reply {
        let Some(key) = cx.header("Idempotency-Key") else {
            return Reply::status(Code::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/billing/jobs", key) else {
            return Reply::status(Code::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.results.get(sk.storage_key()).await {
            return Reply::bytes(Code::OK, prev);
        }
        let job = crate::billing::enqueue(&who, "/v1/billing/jobs", key, cx.body_bytes()).await;
        Reply::text(Code::ACCEPTED, job)
    }

    pub async fn requeue_all(&self) -> usize {
        let mut n = 0;
        while let Ok(Some(job)) = self.dlq.next().await {
            match job.origin.as_str() {
                "api" => self.requeue_api(&job).await,
                _ => self.requeue_system(&job).await,
            }
            let _ = self.dlq.ack(&job.id).await;
            n += 1;
        }
        n
    }

    /// API jobs keep the `Idempotency-Key` the client sent with the
    /// original request.
    async fn requeue_api(&self, job: &Job) {
        let Ok(sk) = scoped(&job.org_id, &job.user_id, &job.route, &job.idempotency_key) else {
            return;
        };
        if self.results.exists(sk.storage_key()).await.unwrap_or(false) {
            return;
        }
        let out = crate::billing::run(job).await;
        let _ = self.results.put(sk.storage_key(), out.as_bytes()).await;
    }

    async fn requeue_system(&self, job: &Job) {
        let Ok(sk) = scoped(&job.org_id, &job.user_id, &job.route, &job.id) else {
            return;
        };
        if self.results.exists(sk.storage_key()).await.unwrap_or(false) {
            return;
        }
        let out = crate::billing::run(job).await;
        let _ = self.results.put(sk.storage_key(), out.as_bytes()).await;
        tracing::warn!(job_id = %job.id, "system job requeued");
    }

    pub async fn requeue_system_v2(&self, job: &Job) {
        let Ok(sk) = scoped_server(&job.org_id, &job.user_id, &job.route, &job.id) else {
            return;
        };
        let out = crate::billing::run(job).await;
        let _ = self.results.put(sk.storage_key(), out.as_bytes()).await;
    }
}
