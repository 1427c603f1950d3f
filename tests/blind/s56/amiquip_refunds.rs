use amiquip::{AmqpProperties, Connection, ConsumerMessage, ConsumerOptions, QueueDeclareOptions};
use idem_scope::{scoped_server, ClaimGuard, Fingerprint};
use serde::Deserialize;

use crate::gateway::RefundGateway;
use crate::replay_store::{BlockingStore, Claimed};

#[derive(Deserialize)]
struct RefundCommand {
    tenant_id: String,
    actor: String,
    charge_id: String,
    amount_minor: i64,
}

fn message_id(props: &AmqpProperties) -> Option<&str> {
    props.message_id().as_deref().filter(|id| !id.is_empty())
}

pub fn run(amqp_url: &str, store: &BlockingStore, gateway: &RefundGateway) -> amiquip::Result<()> {
    let mut connection = Connection::insecure_open(amqp_url)?;
    let channel = connection.open_channel(None)?;
    let queue = channel.queue_declare("refunds.execute", QueueDeclareOptions { durable: true, ..Default::default() })?;
    let consumer = queue.consume(ConsumerOptions::default())?;

    for message in consumer.receiver().iter() {
        let delivery = match message {
            ConsumerMessage::Delivery(delivery) => delivery,
            other => {
                log::info!("consumer stopped: {:?}", other);
                break;
            }
        };
        let Some(msg_id) = message_id(&delivery.properties).map(str::to_owned) else {
            consumer.reject(delivery, false)?;
            continue;
        };
        let cmd: RefundCommand = match serde_json::from_slice(&delivery.body) {
            Ok(cmd) => cmd,
            Err(_) => {
                consumer.reject(delivery, false)?;
                continue;
            }
        };

        let sk = match scoped_server(&cmd.tenant_id, &cmd.actor, "refunds.execute", &msg_id) {
            Ok(sk) => sk,
            Err(e) => {
                log::warn!("unscopable refund command {msg_id}: {e}");
                consumer.reject(delivery, false)?;
                continue;
            }
        };
        let fp = Fingerprint::of("refunds.execute", &delivery.body);

        let claimed = store.claim(&sk, &fp)?;
        let guard = ClaimGuard::new(|| store.release(&sk));
        if let Claimed::Existing(_, _) = claimed {
            guard.complete();
            consumer.ack(delivery)?;
            continue;
        }

        let refund = gateway.refund(&cmd.tenant_id, &cmd.charge_id, cmd.amount_minor)?;
        store.complete(&sk, &serde_json::to_vec(&refund)?)?;
        guard.complete();
        consumer.ack(delivery)?;
    }
    connection.close()
}
