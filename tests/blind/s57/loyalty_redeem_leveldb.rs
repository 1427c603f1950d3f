use std::sync::{Arc, Mutex};

use async_h1::server;
use futures::io::{AsyncRead, AsyncWrite};
use http_types::{Request, Response, StatusCode};
use rusty_leveldb::{WriteBatch, DB};

use crate::loyalty::{Points, Redemption};
use crate::sso::{federated_identity, FederatedIdentity};

pub struct LoyaltyService {
    db: Arc<Mutex<DB>>,
    points: Points,
}

impl LoyaltyService {
    pub async fn serve<S>(self: Arc<Self>, stream: S) -> http_types::Result<()>
    where
        S: AsyncRead + AsyncWrite + Clone + Send + Sync + Unpin + 'static,
    {
        let svc = self.clone();
        server::accept(stream, move |req| {
            let svc = svc.clone();
            async move { svc.redeem(req).await }
        })
        .await
    }

    async fn redeem(&self, mut req: Request) -> http_types::Result<Response> {
        let ident: FederatedIdentity = federated_identity(&req)?;
        // Federated subjects look like "okta|00u1abc"; keep the key readable.
        let principal = ident.subject.replace('|', "");
        let client_key = match req.header("Idempotency-Key") {
            Some(v) => v.last().as_str().to_owned(),
            None => return Ok(Response::new(StatusCode::BadRequest)),
        };
        let sk = idem_scope::scoped(&ident.tenant_id, &principal, "loyalty.redeem", &client_key)?;

        {
            let mut db = self.db.lock().map_err(|_| http_types::Error::from_str(500, "db lock poisoned"))?;
            if let Some(prev) = db.get(sk.storage_key().as_bytes()) {
                let mut res = Response::new(StatusCode::Ok);
                res.set_body(prev);
                return Ok(res);
            }
        }

        let redemption: Redemption = req.body_json().await?;
        let receipt = self.points.redeem(&ident.tenant_id, &ident.subject, redemption).await?;
        let encoded = serde_json::to_vec(&receipt)?;
        let mut batch = WriteBatch::new();
        batch.put(sk.storage_key().as_bytes(), &encoded);
        self.db
            .lock()
            .map_err(|_| http_types::Error::from_str(500, "db lock poisoned"))?
            .write(batch, true)?;

        let mut res = Response::new(StatusCode::Created);
        res.set_body(encoded);
        Ok(res)
    }
}
