use std::sync::Arc;

use idem_scope::{decide, Decision, Fingerprint, Problem, Record};
use lintel::{Answer, Call, Code};
use skerry::blob::BlobStore;
use skerry::register::Register;

use crate::billing::{InvoiceDraft, Invoicer};

pub struct InvoiceApi {
    register: Arc<Register>,
    blobs: Arc<BlobStore>,
    invoicer: Arc<Invoicer>,
}

impl InvoiceApi {
    pub async fn issue(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let key = match call.header("Idempotency-Key") {
            Some(k) => k.to_owned(),
            None => return Answer::problem(Problem::missing_key()),
        };

        let compose = |k: &str| format!("{}#{}#{}#{}", who.tenant_id, who.user_id, "invoice_issue", k);
        let slot = compose(&key);
        let incoming = Fingerprint::of("invoice_issue", call.body());

        let existing = self.register.load(&slot).await.ok().flatten();
        match decide(existing.as_ref(), &incoming) {
            Decision::Replay => {
                let saved = existing.and_then(|r| r.response).unwrap_or_default();
                return Answer::bytes(Code::OK, saved);
            }
            Decision::InProgress => return Answer::problem(Problem::in_progress(&key)),
            Decision::Mismatch => return Answer::problem(Problem::mismatch(&key)),
            Decision::Proceed => {}
        }

        let draft: InvoiceDraft = match call.json() {
            Ok(d) => d,
            Err(_) => return Answer::status(Code::BAD_REQUEST),
        };
        let invoice = match self.invoicer.issue(&who.tenant_id, draft).await {
            Ok(i) => i,
            Err(e) => return Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        };

        let pdf_path = format!("invoices/{}/{}.pdf", who.tenant_id, invoice.number);
        let _ = self.blobs.put(&pdf_path, &invoice.pdf).await;

        let body = invoice.summary_json();
        let mut record = Record::completed(incoming);
        record.response = Some(body.clone());
        let _ = self.register.save(&slot, &record).await;
        Answer::bytes(Code::CREATED, body)
    }
}
