use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code, State};
use skerry::stash::Stash;

use crate::contacts::{AddressBook, ImportFile};
use crate::partners::PartnerClient;

#[derive(Clone)]
pub struct ImportState {
    pub stash: Arc<Stash>,
    pub book: Arc<AddressBook>,
}

/// Contact imports from partner integrations and from the web app.
pub async fn import_contacts(st: State<ImportState>, call: Call) -> Answer {
    let partner: Option<&PartnerClient> = call.partner_client();
    let Some(user_id) = call.identity().map(|w| w.user_id.clone()) else {
        return Answer::status(Code::UNAUTHORIZED);
    };
    let account_id = partner.map_or("public", |p| p.account_id.as_str());
    let Some(key) = call.header("Idempotency-Key") else {
        return Answer::problem(Problem::missing_key());
    };

    let slot = match scoped(account_id, &user_id, "contact_import", key) {
        Ok(s) => s,
        Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = st.stash.get(slot.storage_key()).await {
        return Answer::bytes(Code::OK, prev);
    }

    let Ok(file) = call.multipart_file::<ImportFile>("contacts") else {
        return Answer::status(Code::BAD_REQUEST);
    };
    let delimiter = file.delimiter.unwrap_or(',');
    let encoding = file.encoding.as_deref().unwrap_or("utf-8");
    let report = match st.book.import(account_id, &user_id, &file.bytes, delimiter, encoding).await {
        Ok(r) => r,
        Err(e) => return Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
    };
    let body = report.to_json().into_bytes();
    let _ = st.stash.put(slot.storage_key(), &body).await;
    Answer::bytes(Code::CREATED, body)
}
