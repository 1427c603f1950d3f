use idem_scope::{scoped, Problem};
use lambda_http::{Body, Error, Request, RequestExt, Response};
use polodb_core::bson::doc;
use polodb_core::{Collection, Database};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Stored {
    _id: String,
    body: String,
}

struct Scope {
    team_id: String,
    uid: String,
}

fn scope(req: &Request) -> Result<Scope, Error> {
    let rc = req.request_context();
    let auth = rc.authorizer().ok_or("401")?;
    Ok(Scope {
        team_id: auth.fields.get("team_id").and_then(|v| v.as_str()).ok_or("401")?.to_owned(),
        uid: auth.fields.get("uid").and_then(|v| v.as_str()).ok_or("401")?.to_owned(),
    })
}

pub async fn enroll(db: &Database, req: Request) -> Result<Response<Body>, Error> {
    let s = scope(&req)?;
    let mut client_key = match req.headers().get("Idempotency-Key").map(|v| v.to_str()) {
        Some(Ok(v)) => v.to_owned(),
        _ => {
            let p = Problem::missing_key();
            return Ok(Response::builder().status(p.status()).body(Body::from(p.to_json()))?);
        }
    };
    client_key.retain(|c| c != ':');
    let key = scoped(&s.team_id, &s.uid, "courses.enroll", &client_key)?;
    let coll: Collection<Stored> = db.collection("idempotency");
    if let Some(prev) = coll.find_one(doc! { "_id": key.storage_key() })? {
        return Ok(Response::builder().status(200).body(Body::from(prev.body))?);
    }
    let body = String::from("{\"enrolled\":true}");
    coll.insert_one(Stored { _id: key.storage_key().to_owned(), body: body.clone() })?;
    Ok(Response::builder().status(201).body(Body::from(body))?)
}
