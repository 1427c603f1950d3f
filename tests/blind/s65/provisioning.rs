use std::sync::Arc;

use idem_scope::{scoped, Problem};
use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::records::Records;

use crate::cloud::{Cluster, Provisioner};

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClusterKind {
    Shared,
    Dedicated { vcpus: u16 },
    Serverless,
}

#[derive(Deserialize)]
pub struct ProvisionBody {
    pub name: String,
    pub region: String,
    pub kind: ClusterKind,
}

pub struct ProvisionApi {
    records: Arc<Records>,
    provisioner: Arc<Provisioner>,
}

impl ProvisionApi {
    pub async fn create(&self, head: Head, Json(body): Json<ProvisionBody>) -> Outcome {
        let Some(who) = head.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Some(retry) = head.header_str("Idempotency-Key") else {
            return Outcome::problem(Problem::missing_key());
        };
        let Ok(key) = scoped(&who.project_id, &who.user_id, "create_cluster", retry) else {
            return Outcome::problem(Problem::invalid_key("bad scope"));
        };
        if !self.records.start(key.storage_key()).await.unwrap_or(false) {
            return Outcome::problem(Problem::in_progress(retry));
        }
        let dns_label = format!("{}-{}", body.name.replace('/', "-"), who.project_id);
        let cluster: Cluster = match body.kind {
            ClusterKind::Shared => self.provisioner.shared(&who.project_id, &dns_label, &body.region).await,
            ClusterKind::Dedicated { vcpus } => self.provisioner.dedicated(&who.project_id, &dns_label, &body.region, vcpus).await,
            ClusterKind::Serverless => todo!("serverless clusters are not offered yet"),
        };
        let bytes = kestrel::json::to_vec(&cluster).unwrap_or_default();
        let _ = self.records.finish(key.storage_key(), &bytes).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
