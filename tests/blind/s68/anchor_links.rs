use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use nyquest::r#async::Request;
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub struct LinkShortener {
    pub vault: Vault,
    pub upstream: nyquest::AsyncClient,
}

impl LinkShortener {
    pub async fn shorten(&self, ex: Exchange, caller: Caller, url: String) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        // Browser extension appends "#" when copying from the address bar.
        let key = raw.trim_end_matches('#');
        let sk = scoped(&caller.tenant_id, &caller.user_id, "link.shorten", key)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        if let Some(code) = self.vault.get(sk.storage_key()).await.map_err(|_| down())? {
            return Ok(Reply::bytes(Status::Ok, code));
        }

        let req = Request::post("/v2/short")
            .with_header("Idempotency-Key", raw)
            .with_body_json(&serde_json::json!({ "url": url }))
            .map_err(|_| Reply::status(Status::BadRequest))?;
        let resp = self.upstream.request(req).await.map_err(|_| Reply::status(Status::BadGateway))?;
        let code = resp.text().await.map_err(|_| Reply::status(Status::BadGateway))?;
        let clean_url = url.trim_end_matches('/');
        self.vault.put(sk.storage_key(), code.as_bytes()).await.map_err(|_| down())?;
        self.vault.put(&format!("link:{}", clean_url), code.as_bytes()).await.ok();
        Ok(Reply::text(Status::Created, code))
    }
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
