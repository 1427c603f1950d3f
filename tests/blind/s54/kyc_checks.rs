use std::sync::mpsc::Receiver;
use std::sync::Arc;

use idem_scope::scoped;
use ledgerkit::blocking::IdemTable;

pub enum Verdict {
    Pass,
    Fail(String),
    Unknown,
}

pub struct KycRequest {
    pub tenant_id: String,
    pub principal_id: String,
    pub idempotency_key: String,
    pub document: Vec<u8>,
    pub reply: std::sync::mpsc::Sender<Result<Vec<u8>, String>>,
}

pub struct KycWorker {
    table: Arc<IdemTable>,
    provider: Arc<dyn kyc_provider::Verify + Send + Sync>,
}

impl KycWorker {
    fn check(&self, req: &KycRequest) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&req.tenant_id, &req.principal_id, "kyc.check", &req.idempotency_key)?;
        if let Some(done) = self.table.completed(&sk)? {
            return Ok(done);
        }
        self.table.begin(&sk)?;

        let verdict = self.provider.verify(&req.document);
        let body = match verdict {
            Ok(Verdict::Pass) => br#"{"status":"pass"}"#.to_vec(),
            Ok(Verdict::Fail(reason)) => serde_json::to_vec(&serde_json::json!({ "status": "fail", "reason": reason }))?,
            Ok(Verdict::Unknown) => unreachable!("provider never answers Unknown for documents"),
            Err(e) => {
                self.table.abandon(&sk)?;
                return Err(e);
            }
        };
        self.table.commit(&sk, &body)?;
        Ok(body)
    }

    pub fn run(self, rx: Receiver<KycRequest>) {
        for req in rx {
            let res = self.check(&req).map_err(|e| e.to_string());
            let _ = req.reply.send(res);
        }
    }
}
