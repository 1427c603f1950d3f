use std::sync::Arc;

use cistern::vat::Vat;
use dust_dds::domain::domain_participant_factory::DomainParticipantFactory;
use dust_dds::infrastructure::qos::QosKind;
use dust_dds::infrastructure::status::NO_STATUS;
use dust_dds::subscription::sample_info::{ANY_INSTANCE_STATE, ANY_SAMPLE_STATE, ANY_VIEW_STATE};
use dust_dds::topic_definition::type_support::DdsType;
use idem_scope::{scoped, scoped_server, Problem};
use wherry::auth::Caller;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

/// Published by the fleet scheduler; `message_id` is assigned by the scheduler.
#[derive(DdsType, Debug, Clone)]
pub struct FirmwareCommand {
    #[dust_dds(key)]
    pub device_id: String,
    pub message_id: String,
    pub tenant_id: String,
    pub actor: String,
    pub image: String,
}

/// Published by devices after a reboot; the sequence number is per device.
#[derive(DdsType, Debug, Clone)]
pub struct RebootNotice {
    #[dust_dds(key)]
    pub device_id: String,
    pub tenant_id: String,
    /// Device client id issued at enrolment.
    pub client_id: String,
    pub boot_seq: u64,
}

#[derive(Clone)]
pub struct Fleet {
    pub vat: Arc<Vat>,
    pub ota: Arc<ota::Pusher>,
}

/// Operators can also push an image from the console.
pub async fn push_firmware(ctx: Ctx, caller: Caller, State(f): State<Fleet>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let device_id = ctx.query("device").ok_or_else(|| Problem::invalid_key("device"))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "push_firmware", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = f.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let rollout = f.ota.push(&caller.tenant_id, device_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = f.vat.put(sk.storage_key(), rollout.to_json()).await;
    Ok(Reply::bytes(Status::ACCEPTED, rollout.to_json()))
}

pub async fn run_dds(f: Fleet, domain_id: i32) -> Result<(), dust_dds::infrastructure::error::DdsError> {
    let factory = DomainParticipantFactory::get_instance();
    let participant = factory.create_participant(domain_id, QosKind::Default, None, NO_STATUS)?;
    let subscriber = participant.create_subscriber(QosKind::Default, None, NO_STATUS)?;
    let cmd_topic = participant.create_topic::<FirmwareCommand>("FirmwareCommand", "FirmwareCommand", QosKind::Default, None, NO_STATUS)?;
    let boot_topic = participant.create_topic::<RebootNotice>("RebootNotice", "RebootNotice", QosKind::Default, None, NO_STATUS)?;
    let commands = subscriber.create_datareader::<FirmwareCommand>(&cmd_topic, QosKind::Default, None, NO_STATUS)?;
    let reboots = subscriber.create_datareader::<RebootNotice>(&boot_topic, QosKind::Default, None, NO_STATUS)?;

    loop {
        for sample in commands.take(16, ANY_SAMPLE_STATE, ANY_VIEW_STATE, ANY_INSTANCE_STATE).unwrap_or_default() {
            let Ok(cmd) = sample.data() else { continue };
            let Ok(sk) = scoped(&cmd.tenant_id, &cmd.actor, "push_firmware", &cmd.message_id) else { continue };
            if f.vat.get(sk.storage_key()).await.ok().flatten().is_none() {
                if let Ok(rollout) = f.ota.push(&cmd.tenant_id, &cmd.device_id, cmd.image.as_bytes()).await {
                    let _ = f.vat.put(sk.storage_key(), rollout.to_json()).await;
                }
            }
        }
        for sample in reboots.take(16, ANY_SAMPLE_STATE, ANY_VIEW_STATE, ANY_INSTANCE_STATE).unwrap_or_default() {
            let Ok(notice) = sample.data() else { continue };
            let boot_key = format!("{}#{}", notice.device_id, notice.boot_seq);
            let Ok(sk) = scoped_server(&notice.tenant_id, &notice.client_id, "reboot_resume", &boot_key) else { continue };
            if f.vat.get(sk.storage_key()).await.ok().flatten().is_none() {
                let _ = f.ota.resume_after_reboot(&notice.tenant_id, &notice.device_id).await;
                let _ = f.vat.put(sk.storage_key(), b"resumed".to_vec()).await;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
}
