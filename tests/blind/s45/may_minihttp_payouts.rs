use std::io::{self, BufRead};
use std::sync::Arc;

use dashmap::DashMap;
use may_minihttp::{HttpServer, HttpService, Request, Response};

#[derive(Clone)]
struct PayoutService {
    replays: Arc<DashMap<String, Vec<u8>>>,
    auth: Arc<TokenVerifier>,
}

fn find_header<'r>(req: &'r Request, wanted: &str) -> Option<&'r str> {
    req.headers()
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case(wanted))
        .and_then(|h| std::str::from_utf8(h.value).ok())
}

impl HttpService for PayoutService {
    fn call(&mut self, req: Request, rsp: &mut Response) -> io::Result<()> {
        let endpoint = req.path().trim_start_matches('/').to_owned();
        if endpoint != "v2/payouts" {
            rsp.status_code(404, "Not Found");
            return Ok(());
        }
        let Some(claims) = find_header(&req, "Authorization").and_then(|h| self.auth.verify(h)) else {
            rsp.status_code(401, "Unauthorized");
            return Ok(());
        };
        let Some(raw_key) = find_header(&req, "idempotency-key") else {
            rsp.status_code(400, "Bad Request");
            return Ok(());
        };
        let op_id = raw_key.replace(':', "-");
        let route = "payouts.create";
        let slot = format!("{}:{}:{}:{}", claims.org_id, claims.sub, route, op_id);
        if let Some(cached) = self.replays.get(&slot) {
            rsp.header("Idempotent-Replayed: true");
            rsp.body_vec(cached.value().clone());
            return Ok(());
        }
        let mut body = req.body();
        let payload = body.fill_buf()?.to_vec();
        let receipt = submit_payout(&claims.org_id, &payload)?;
        self.replays.insert(slot, receipt.clone());
        rsp.body_vec(receipt);
        Ok(())
    }
}

fn main() {
    let svc = PayoutService { replays: Arc::new(DashMap::new()), auth: Arc::new(TokenVerifier::from_env()) };
    HttpServer(svc).start("0.0.0.0:8080").unwrap().join().unwrap();
}
