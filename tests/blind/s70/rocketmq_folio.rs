//! RocketMQ consumer that applies POS charges to folios; POS terminals send the guest's key.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use rocketmq::model::message::MessageView;
use rocketmq::SimpleConsumer;
use serde::Deserialize;

#[derive(Deserialize)]
struct PosCharge {
    tenant_id: String,
    user_id: String,
    idempotency_key: String,
    amount_cents: i64,
}

pub async fn drain(consumer: &SimpleConsumer, dedup: &Drawer) -> anyhow::Result<()> {
    let messages: Vec<MessageView> = consumer.receive("pos-charges".to_string(), &rocketmq::conf::FilterExpression::all()).await?;
    for msg in messages {
        let charge: PosCharge = serde_json::from_slice(msg.body()).expect("pos payload is JSON");
        let sk = scoped(&charge.tenant_id, &charge.user_id, "pos.charge", &charge.idempotency_key)?;
        if !dedup.set_nx(sk.storage_key(), b"in_progress", 300).await? {
            consumer.ack(&msg).await?;
            continue;
        }
        let applied = crate::folio::apply_cents(&charge.tenant_id, charge.amount_cents).await;
        let receipt = serde_json::to_vec(&applied).expect("receipt serialises");
        dedup.put(sk.storage_key(), &receipt).await?;
        consumer.ack(&msg).await?;
    }
    Ok(())
}
