//! Ad-hoc charging without an account (QR code on the charger). Guests pay
//! by card; logged-in drivers pay from their wallet.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::MaybeIdentity;
use trellis::{Code, Cx, Reply};

pub const GUEST_ACCOUNT: &str = "acct_guest";
const DEFAULT_CURRENCY: &str = "EUR";

pub async fn adhoc_start(cx: Cx, who: MaybeIdentity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let account_id = who.0.as_ref().map(|i| i.account_id.as_str()).unwrap_or(GUEST_ACCOUNT);
    let currency = cx.query("currency").unwrap_or_else(|| DEFAULT_CURRENCY.to_owned());
    let payer = match who.0.as_ref() {
        Some(i) => i.user_id.clone(),
        None => match cx.header("X-Card-Token") {
            Some(t) => crate::cards::payer_id(t).await,
            None => return Reply::status(Code::PAYMENT_REQUIRED),
        },
    };
    let Ok(sk) = scoped(account_id, &payer, "/v1/adhoc/start", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let session = crate::sessions::adhoc(&payer, &currency, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), session.as_bytes()).await;
    Reply::text(Code::CREATED, session)
}
