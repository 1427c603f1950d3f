use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Deserialize)]
pub struct TransferCommand {
    pub account_id: String,
    pub user_id: String,
    #[serde(rename = "Idempotency-Key")]
    pub client_op: String,
    pub amount_cents: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub enum TransferEvent {
    Sent { op_key: String, amount_cents: i64 },
}

impl DomainEvent for TransferEvent {
    fn event_type(&self) -> String {
        "Sent".into()
    }
    fn event_version(&self) -> String {
        "1".into()
    }
}

#[derive(Default, Serialize, Deserialize)]
pub struct Transfers {
    applied: BTreeMap<String, i64>,
}

impl Transfers {
    pub fn handle_transfer(&mut self, cmd: TransferCommand) -> Vec<TransferEvent> {
        let op_key = serde_json::to_string(&(&cmd.account_id, &cmd.user_id, "transfer", &cmd.client_op)).unwrap();
        if self.applied.contains_key(&op_key) {
            return vec![];
        }
        self.applied.insert(op_key.clone(), cmd.amount_cents);
        vec![TransferEvent::Sent { op_key, amount_cents: cmd.amount_cents }]
    }

    pub fn handle_legacy(&mut self, cmd: TransferCommand) -> Vec<TransferEvent> {
        let op_key = serde_json::to_string(&(&cmd.account_id, &cmd.client_op)).unwrap();
        if self.applied.contains_key(&op_key) {
            return vec![];
        }
        self.applied.insert(op_key.clone(), cmd.amount_cents);
        vec![TransferEvent::Sent { op_key, amount_cents: cmd.amount_cents }]
    }
}
