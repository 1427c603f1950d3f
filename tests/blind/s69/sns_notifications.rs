//! Grid-operator curtailment signals arrive as Amazon SNS HTTP
//! notifications; utilities without SNS call the REST API directly.

use garner::bin::Bin;
use idem_scope::scoped;
use serde::Deserialize;
use trellis::guard::Partner;
use trellis::pull::Json;
use trellis::{Code, Cx, Reply};

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SnsEnvelope {
    pub r#type: String,
    pub message_id: String,
    pub topic_arn: String,
    pub message: String,
    pub signature: String,
    pub signing_cert_url: String,
}

pub struct Curtailment {
    pub signals: Bin,
}

impl Curtailment {
    pub async fn rest_signal(&self, cx: Cx, partner: Partner) -> Reply {
        let Some(key) = cx.header("Idempotency-Key") else {
            return Reply::status(Code::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&partner.org_id, &partner.client_id, "/v1/grid/curtail", key) else {
            return Reply::status(Code::BAD_REQUEST);
        };
        if self.signals.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Code::OK);
        }
        crate::grid::curtail(&partner.org_id, cx.body_bytes()).await;
        let _ = self.signals.put(sk.storage_key(), b"1").await;
        Reply::status(Code::ACCEPTED)
    }

    pub async fn sns_signal(&self, cx: Cx, Json(env): Json<SnsEnvelope>) -> Reply {
        if !crate::sns::verify(&env.signature, &env.signing_cert_url).await {
            return Reply::status(Code::FORBIDDEN);
        }
        let Some(partner) = crate::grid::partner_for_topic(&env.topic_arn).await else {
            return Reply::status(Code::NOT_FOUND);
        };
        let Ok(sk) = scoped(&partner.org_id, &partner.client_id, "/v1/grid/curtail", &env.message_id) else {
            return Reply::status(Code::BAD_REQUEST);
        };
        if self.signals.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Code::OK);
        }
        crate::grid::curtail(&partner.org_id, env.message.as_bytes()).await;
        let _ = self.signals.put(sk.storage_key(), b"1").await;
        Reply::status(Code::OK).header("X-Sns-Message", &env.message_id)
    }
}
