use std::collections::HashMap;

use idem_scope::{decide, scoped, Decision, Fingerprint, Record};
use wasmbus_rpc::actor::prelude::*;
use wasmcloud_interface_httpserver::{HttpRequest, HttpResponse, HttpServer, HttpServerReceiver};
use wasmcloud_interface_keyvalue::{KeyValue, KeyValueSender, SetRequest};

const MERCHANT_NONE: &str = "merchant-none";

#[derive(Debug, Default, Actor, HealthResponder)]
#[services(Actor, HttpServer)]
struct PosCapture {
    terminals: HashMap<String, String>,
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.header
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .and_then(|(_, v)| v.first())
        .map(String::as_str)
}

impl PosCapture {
    fn merchant_of(&self, terminal: &str) -> Option<&str> {
        self.terminals.get(terminal).map(String::as_str)
    }
}

#[async_trait]
impl HttpServer for PosCapture {
    async fn handle_request(&self, ctx: &Context, req: &HttpRequest) -> RpcResult<HttpResponse> {
        let Some(caller_id) = header(req, "x-terminal-id") else {
            return Ok(HttpResponse { status_code: 401, ..Default::default() });
        };
        let merchant_id = header(req, "x-merchant-id")
            .and_then(|_| self.merchant_of(caller_id))
            .unwrap_or(MERCHANT_NONE);
        let currency = header(req, "x-currency").unwrap_or("EUR");
        let Some(idem) = header(req, "Idempotency-Key") else {
            return Ok(HttpResponse { status_code: 400, ..Default::default() });
        };

        let key = scoped(merchant_id, caller_id, "pos.capture", idem)
            .map_err(|e| RpcError::InvalidParameter(e.to_string()))?;
        let fp = Fingerprint::of("pos.capture", &req.body);
        let kv = KeyValueSender::new();

        let prior = kv.get(ctx, key.storage_key()).await?;
        let record: Option<Record> = prior.exists.then(|| serde_json::from_str(&prior.value).ok()).flatten();
        match decide(record.as_ref(), &fp) {
            Decision::Replay => return Ok(HttpResponse { status_code: 200, body: prior.value.into_bytes(), ..Default::default() }),
            Decision::InProgress => return Ok(HttpResponse { status_code: 409, ..Default::default() }),
            Decision::Mismatch => return Ok(HttpResponse { status_code: 422, ..Default::default() }),
            Decision::Proceed => {}
        }

        let done = serde_json::to_string(&Record::completed(fp)).map_err(|e| RpcError::Ser(e.to_string()))?;
        kv.set(ctx, &SetRequest { key: key.storage_key().to_owned(), value: done, expires: 86_400 }).await?;
        let body = format!("{{\"captured\":true,\"currency\":\"{currency}\"}}");
        Ok(HttpResponse { status_code: 201, body: body.into_bytes(), ..Default::default() })
    }
}
