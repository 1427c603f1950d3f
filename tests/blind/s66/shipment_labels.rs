use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use lintel::blocking::{Answer, Call, Code};
use lintel::extract::{FromRequestParts, Parts};
use threadpool::ThreadPool;
use uuid::Uuid;

use crate::carrier::{LabelPrinter, ShipmentSpec};

/// Retry token sent by warehouse terminals.
pub struct RetryToken(pub String);

impl FromRequestParts<()> for RetryToken {
    type Rejection = Answer;

    fn from_request_parts(parts: &Parts, _: &()) -> Result<Self, Answer> {
        match parts.header("Idempotency-Key") {
            Some(v) if !v.is_empty() && v.len() <= 128 => Ok(RetryToken(v.to_owned())),
            _ => Err(Answer::text(Code::BAD_REQUEST, "Idempotency-Key required")),
        }
    }
}

#[derive(Clone)]
pub struct Label {
    pub label_id: String,
    pub tracking: String,
    pub zpl: Vec<u8>,
}

pub struct LabelDesk {
    printer: Arc<LabelPrinter>,
    issued: Mutex<HashMap<String, Label>>,
    by_label: Mutex<HashMap<String, String>>,
    spool: ThreadPool,
}

impl LabelDesk {
    pub fn create(&self, token: RetryToken, call: Call) -> Answer {
        let Some(terminal) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Ok(spec) = call.json::<ShipmentSpec>() else {
            return Answer::status(Code::BAD_REQUEST);
        };

        let mut issued = self.issued.lock().unwrap_or_else(|p| p.into_inner());
        let label = match issued.entry(token.0.clone()) {
            Entry::Occupied(e) => e.get().clone(),
            Entry::Vacant(v) => {
                let printed = match self.printer.print(&terminal.tenant_id, &spec) {
                    Ok(p) => p,
                    Err(e) => return Answer::text(Code::BAD_GATEWAY, &e.to_string()),
                };
                let label = Label {
                    label_id: Uuid::new_v4().to_string(),
                    tracking: printed.tracking,
                    zpl: printed.zpl,
                };
                v.insert(label).clone()
            }
        };
        drop(issued);

        self.by_label
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(label.label_id.clone(), label.tracking.clone());

        let zpl = label.zpl.clone();
        self.spool.execute(move || crate::carrier::send_to_spool(zpl));
        Answer::bytes(Code::CREATED, label.tracking.into_bytes())
    }
}
