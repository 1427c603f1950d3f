use bytes::Bytes;
use idem_scope::{scoped, Problem};
use salvo::prelude::*;

use crate::auth::EdiPartner;
use crate::edi::{parse_x12, EdiProcessor};
use crate::replay::EdiReplays;

struct ParsedHeaders {
    client_key: String,
    control_number: String,
}

fn parse_headers(req: &Request) -> Result<ParsedHeaders, Problem> {
    let client_key = req
        .headers()
        .get("Idempotency-Key")
        .ok_or_else(Problem::missing_key)?
        .to_str()
        .map_err(|_| Problem::invalid_key("not visible ASCII"))?
        .trim_end_matches('\0')
        .to_owned();
    let control_number = req
        .headers()
        .get("X-Interchange-Control")
        .and_then(|v| v.to_str().ok())
        .map(|s| s.trim_start_matches('0').to_owned())
        .unwrap_or_default();
    Ok(ParsedHeaders { client_key, control_number })
}

#[handler]
pub async fn receive_edi(req: &mut Request, depot: &mut Depot, res: &mut Response) {
    let partner = depot.obtain::<EdiPartner>().expect("partner auth hoop").clone();
    let hdrs = match parse_headers(req) {
        Ok(h) => h,
        Err(p) => {
            res.status_code(StatusCode::from_u16(p.status()).unwrap_or(StatusCode::BAD_REQUEST));
            res.render(Text::Plain(p.to_json()));
            return;
        }
    };
    let Ok(key) = scoped(&partner.account_id, &partner.api_key_id, "edi.inbound", &hdrs.client_key) else {
        res.status_code(StatusCode::BAD_REQUEST);
        return;
    };
    let replays = depot.obtain::<EdiReplays>().expect("replays");
    if let Some(ack) = replays.get(&key).await {
        res.render(Text::Plain(ack));
        return;
    }
    let raw: Bytes = req.payload().await.cloned().unwrap_or_default();
    let doc = match parse_x12(&raw) {
        Ok(d) => d,
        Err(e) => {
            res.status_code(StatusCode::UNPROCESSABLE_ENTITY);
            res.render(Text::Plain(e.to_string()));
            return;
        }
    };
    let processor = depot.obtain::<EdiProcessor>().expect("processor");
    let ack = processor.process(&partner.account_id, &hdrs.control_number, doc).await;
    replays.set(&key, &ack).await;
    res.render(Text::Plain(ack));
}
