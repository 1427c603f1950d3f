use idem_scope::{scoped, Problem};
use native_db::{native_db, Builder, Database, Models, ToKey};
use native_model::{native_model, Model};
use rama::http::{Body, HeaderMap, Response, StatusCode};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Debug)]
#[native_model(id = 1, version = 1)]
#[native_db]
pub struct VoteReply {
    #[primary_key]
    pub storage_key: String,
    pub body: String,
}

pub struct Claims {
    pub org: Option<String>,
    pub sub: String,
}

pub fn ballot_key(claims: &Claims, headers: &HeaderMap) -> Result<idem_scope::ScopedKey, Problem> {
    let org = match &claims.org {
        Some(o) if !o.is_empty() => o.clone(),
        _ => "public".to_owned(),
    };
    let ck = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(Problem::missing_key)?;
    scoped(&org, &claims.sub, "polls.vote", ck).map_err(|e| Problem::invalid_key(&e.to_string()))
}

pub async fn vote(db: &Database<'_>, claims: Claims, headers: HeaderMap, choice: u8) -> Response {
    let key = match ballot_key(&claims, &headers) {
        Ok(k) => k,
        Err(p) => return Response::builder().status(p.status()).body(Body::from(p.to_json())).unwrap(),
    };
    let r = db.r_transaction().unwrap();
    if let Ok(Some(prev)) = r.get().primary::<VoteReply>(key.storage_key().to_string()) {
        return Response::new(Body::from(prev.body));
    }
    drop(r);
    let body = format!("{{\"choice\":{}}}", choice);
    let rw = db.rw_transaction().unwrap();
    let _ = rw.insert(VoteReply { storage_key: key.storage_key().to_string(), body: body.clone() });
    let _ = rw.commit();
    Response::builder().status(StatusCode::CREATED).body(Body::from(body)).unwrap()
}

pub fn open(models: &'static Models) -> Database<'static> {
    Builder::new().create(models, "/var/lib/votes.db").expect("open votes db")
}
