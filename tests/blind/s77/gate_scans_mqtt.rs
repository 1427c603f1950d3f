//! Turnstile scans arrive over MQTT from the lift gates; a manual override
//! endpoint lets patrol open a gate for a guest with a client key.

use cornice::drift::Drift;
use telemark::pass::Staff;
use telemark::{Carve, Turn, Wipeout};

pub async fn manual_override(turn: Turn, staff: Staff, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&staff.tenant_id, &staff.sub, "gate.override", key)?;
    if drift.exists(sk.storage_key()).await? {
        return Ok(Carve::no_content());
    }
    crate::gates::open(turn.param("gate").unwrap_or_default()).await?;
    drift.put(sk.storage_key(), b"opened").await?;
    Ok(Carve::no_content())
}

pub async fn consume_scans(client: paho_mqtt::AsyncClient, drift: Drift) -> anyhow::Result<()> {
    let mut stream = client.get_stream(256);
    client.subscribe("resort/+/gates/+/scan", paho_mqtt::QOS_1).await?;
    while let Some(msg) = futures::StreamExt::next(&mut stream).await {
        let Some(msg) = msg else { continue };
        let scan: crate::gates::Scan = serde_json::from_slice(msg.payload())?;
        let message_id = scan.message_id.clone();

        let slot = format!("{}\0{}\0gate.scan\0{}", scan.tenant_id, scan.client_id, message_id);
        if drift.exists(&slot).await? {
            continue;
        }
        crate::gates::record(&scan).await?;
        drift.put(&slot, b"1").await?;
        let audit_topic = format!("resort/{}/audit/{}", scan.tenant_id, message_id);
        client.publish(paho_mqtt::Message::new(audit_topic, msg.payload(), 0)).await?;
    }
    Ok(())
}

pub async fn consume_heartbeats(client: paho_mqtt::AsyncClient, drift: Drift) -> anyhow::Result<()> {
    let mut stream = client.get_stream(64);
    client.subscribe("resort/+/gates/+/heartbeat", paho_mqtt::QOS_0).await?;
    while let Some(Some(msg)) = futures::StreamExt::next(&mut stream).await {
        let beat: crate::gates::Heartbeat = serde_json::from_slice(msg.payload())?;
        let slot = format!("s:{}\0{}\0gate.heartbeat\0{}", beat.tenant_id, beat.client_id, beat.message_id);
        drift.put_ttl(&slot, b"1", std::time::Duration::from_secs(90)).await?;
    }
    Ok(())
}
