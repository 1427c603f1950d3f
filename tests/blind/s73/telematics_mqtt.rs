//! As-applied telematics from sprayer cabs (MQTT 3.1.1 through ntex-mqtt).
//! Each frame carries the cab's own message id. The gateway also serves
//! the operator's "override rate" call from the office.

use std::sync::Arc;

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Agronomist;
use furrow::{Petition, Ruling, Shared};
use idem_scope::{scoped, Problem};
use ntex_mqtt::v3::{self, Publish};
use serde::Deserialize;

#[derive(Deserialize)]
struct AsApplied {
    message_id: String,
    rig_serial: String,
    field_id: String,
    rate_gpa: f32,
}

#[derive(Deserialize)]
pub struct Override {
    pub rig_serial: String,
    pub rate_gpa: f32,
}

pub struct Gateway {
    pub crock: Crock,
    pub coverage: CoverageMaps,
}

impl Gateway {
    pub async fn on_frame(&self, publish: Publish) -> Result<(), GatewayError> {
        let frame: AsApplied = furrow::codec::from_slice(publish.payload())?;
        tracing::trace!(rig = %frame.rig_serial, "as-applied frame");
        let seen = format!("tlm:{}", frame.message_id);
        if self.crock.exists(&seen).await? {
            return Ok(());
        }
        self.coverage.paint(&frame.field_id, frame.rate_gpa).await?;
        self.crock.put(&seen, Vec::new()).await?;
        Ok(())
    }
}

pub async fn override_rate(p: Petition, Shared(gw): Shared<Gateway>, a: Agronomist, Json(o): Json<Override>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let key = match scoped(&a.org_id, &a.sub, "rate_override", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = gw.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let sent = gw.coverage.push_override(&o.rig_serial, o.rate_gpa).await;
    let body = furrow::codec::to_vec(&sent).unwrap_or_default();
    let _ = gw.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}

pub fn mqtt_server(gw: Arc<Gateway>) -> v3::MqttServer<(), GatewayError> {
    v3::MqttServer::new(|hs: v3::Handshake| async move { Ok(hs.ack((), false)) })
        .publish(move |p: Publish| {
            let gw = gw.clone();
            async move { gw.on_frame(p).await }
        })
}
