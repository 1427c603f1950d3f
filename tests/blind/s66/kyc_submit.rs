use std::sync::Arc;

use idem_scope::Problem;
use lintel::{Answer, Call, Code};
use miniserde::{json, Deserialize, Serialize};
use skerry::stash::Stash;

use crate::kyc::{KycProvider, Submission};

#[derive(Deserialize)]
struct KycForm {
    full_name: String,
    document_number: String,
    document_country: Option<String>,
    birth_date: String,
}

#[derive(Serialize)]
struct KycReply {
    case_id: String,
    status: String,
}

pub struct KycApi {
    stash: Arc<Stash>,
    provider: Arc<KycProvider>,
}

impl KycApi {
    pub async fn submit(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let packed = match rmp_serde::to_vec(&(who.user_id.as_str(), "kyc_submit", key)) {
            Ok(p) => p,
            Err(_) => return Answer::status(Code::INTERNAL_SERVER_ERROR),
        };
        if let Ok(Some(prev)) = self.stash.get(&packed).await {
            return Answer::bytes(Code::OK, prev);
        }

        let text = String::from_utf8_lossy(call.body());
        let Ok(form) = json::from_str::<KycForm>(&text) else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let document_number = form.document_number.replace(['-', ' ', '/'], "");
        let country = form.document_country.as_deref().unwrap_or("ZZ");
        let submission = Submission {
            full_name: form.full_name.clone(),
            document_number,
            country: country.to_owned(),
            birth_date: form.birth_date.clone(),
        };
        let case = match self.provider.open_case(&who.tenant_id, &who.user_id, submission).await {
            Ok(c) => c,
            Err(e) => return Answer::text(Code::BAD_GATEWAY, &e.to_string()),
        };
        let body = json::to_string(&KycReply { case_id: case.id, status: case.status }).into_bytes();
        let _ = self.stash.put(&packed, &body).await;
        Answer::bytes(Code::ACCEPTED, body)
    }
}
