use std::sync::Arc;

use ckb_rocksdb::prelude::*;
use ckb_rocksdb::DB;
use crc_fast::{checksum, CrcAlgorithm};
use idem_scope::{scoped, Problem};
use wicket::auth::Caller;
use wicket::extract::RawBody;
use wicket::{Ctx, Reply, Status};

const SHARDS: u64 = 16;

pub struct DeviceGateway {
    db: Arc<DB>,
    links: Vec<mqtt_link::Link>,
}

fn command_key(tenant: &str, caller_id: &str, client_key: &[u8]) -> Vec<u8> {
    let mut buf = Vec::with_capacity(tenant.len() + caller_id.len() + client_key.len() + 24);
    buf.extend_from_slice(tenant.as_bytes());
    buf.push(0x1f);
    buf.extend_from_slice(caller_id.as_bytes());
    buf.push(0x1f);
    buf.extend_from_slice(b"devices.command");
    buf.push(0x1f);
    buf.extend_from_slice(client_key);
    buf
}

impl DeviceGateway {
    pub fn send_command(&self, ctx: &Ctx, caller: &Caller, device_id: &str, RawBody(cmd): RawBody) -> Reply {
        let Some(client_key) = ctx.headers().get("Idempotency-Key").map(|v| v.as_bytes().to_vec()) else {
            return Reply::problem(Problem::missing_key());
        };
        let key = command_key(&caller.tenant_id, &caller.user_id, &client_key);
        if let Ok(Some(prev)) = self.db.get(&key) {
            return Reply::bytes(Status::OK, prev.to_vec());
        }

        let shard = checksum(CrcAlgorithm::Crc32IsoHdlc, device_id.as_bytes()) % SHARDS;
        let receipt = match self.links[shard as usize].publish(device_id, &cmd) {
            Ok(r) => r,
            Err(e) => return Reply::text(Status::BAD_GATEWAY, e.to_string()),
        };
        let _ = self.db.put(&key, receipt.as_bytes());
        Reply::bytes(Status::ACCEPTED, receipt.into_bytes())
    }

    pub fn ack(&self, ctx: &Ctx, caller: &Caller, device_id: &str) -> Reply {
        let Some(ack_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "devices.ack", ack_key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let mut ack = Vec::with_capacity(96);
        ack.extend_from_slice(b"ack/");
        ack.extend_from_slice(sk.storage_key().as_bytes());
        if self.db.get(&ack).ok().flatten().is_some() {
            return Reply::status(Status::OK);
        }
        let _ = self.db.put(&ack, device_id.as_bytes());
        Reply::status(Status::ACCEPTED)
    }
}
