//! Redeeming printed vouchers. Vouchers are printed as `VC|XXXX|YYYY`; the
//! app sends the scanned text as the idempotency key.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub async fn redeem(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(hdr) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let mut key = hdr.to_owned();
    key.retain(|c| c != '|');
    let mut code = cx.query("code").unwrap_or_default();
    code.retain(|c| c.is_ascii_alphanumeric());
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/vouchers/redeem", &key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let credit = crate::vouchers::redeem(&who, &code).await;
    let _ = bin.put(sk.storage_key(), credit.as_bytes()).await;
    Reply::text(Code::OK, credit)
}
