//! Remote-start commands for chargers over MQTT v5 (paho-mqtt). The fleet
//! backend publishes `cmd/{org}/{charger}/start`; the bridge applies each
//! command once, keyed by the broker-assigned correlation id.

use std::time::Duration;

use garner::bin::Bin;
use idem_scope::{scoped_server, Namespace};
use paho_mqtt as mqtt;

pub async fn run(cli: mqtt::AsyncClient, bin: Bin) -> mqtt::Result<()> {
    let mut strm = cli.get_stream(64);
    cli.subscribe("cmd/+/+/start", mqtt::QOS_1).await?;
    while let Some(msg_opt) = strm.next().await {
        let Some(msg) = msg_opt else { continue };
        let parts: Vec<&str> = msg.topic().split('/').collect();
        let (org_id, charger_id) = (parts[1], parts[2]);
        let props = msg.properties();
        let corr = props.get_binary(mqtt::PropertyCode::CorrelationData).unwrap_or_default();
        let corr = String::from_utf8_lossy(&corr).into_owned();
        let Some(actor) = props.find_user_property("actor") else {
            continue;
        };
        let Ok(sk) = scoped_server(org_id, &actor, "/mqtt/cmd/start", &corr) else {
            continue;
        };
        debug_assert!(matches!(sk.namespace(), Namespace::Server));
        if !bin.claim(sk.storage_key(), Duration::from_secs(45)).await.unwrap_or(false) {
            continue;
        }
        let text = std::str::from_utf8(msg.payload()).expect("command payload is utf-8");
        let started = crate::chargers::remote_start(charger_id, text).await;
        let _ = bin.complete(sk.storage_key(), started.as_bytes()).await;
        let ack = mqtt::MessageBuilder::new()
            .topic(format!("ack/{org_id}/{charger_id}"))
            .payload(started)
            .qos(1)
            .finalize();
        cli.publish(ack).await?;
    }
    Ok(())
}
