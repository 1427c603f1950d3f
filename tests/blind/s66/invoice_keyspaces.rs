use std::sync::Arc;

use gannet::queue::{Consumer, Delivery};
use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::receivables::{PaymentNotice, Receivables};

/// One stash, two keyspaces: `req/` for API requests, `evt/` for bank events.
pub struct InvoicePayments {
    stash: Arc<Stash>,
    receivables: Arc<Receivables>,
}

impl InvoicePayments {
    pub async fn mark_paid(&self, call: Call, invoice_id: &str) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let slot = match scoped(&who.tenant_id, &who.user_id, "invoice_mark_paid", key) {
            Ok(s) => format!("req/{}", s.storage_key()),
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(&slot).await {
            return Answer::bytes(Code::OK, prev);
        }
        match self.receivables.mark_paid(&who.tenant_id, invoice_id, &who.user_id).await {
            Ok(inv) => {
                let body = inv.to_json().into_bytes();
                let _ = self.stash.put(&slot, &body).await;
                Answer::bytes(Code::OK, body)
            }
            Err(e) => Answer::text(Code::CONFLICT, &e.to_string()),
        }
    }

    pub async fn bank_notices(&self, consumer: &mut Consumer) {
        while let Some(delivery) = consumer.next().await {
            self.on_notice(&delivery).await;
            delivery.ack().await;
        }
    }

    async fn on_notice(&self, delivery: &Delivery) {
        let Ok(notice) = PaymentNotice::decode(delivery.payload()) else { return };
        let event_id = delivery.id();
        let slot = match scoped(&notice.tenant_id, &notice.user_id, "invoice_mark_paid", event_id) {
            Ok(s) => format!("evt/{}", s.storage_key()),
            Err(_) => return,
        };
        if let Ok(Some(_)) = self.stash.get(&slot).await {
            return;
        }
        let note = notice.reference.replace(['|', ':'], " ");
        if self.receivables.apply_notice(&notice.tenant_id, &notice.invoice_id, &note).await.is_ok() {
            let _ = self.stash.put(&slot, b"applied").await;
        }
    }
}
