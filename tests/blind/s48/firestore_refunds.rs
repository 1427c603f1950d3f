use firestore::FirestoreDb;
use idem_scope::{scoped, IdempotencyKey, Problem};
use lambda_http::{Body, Error, Request, Response};
use serde::{Deserialize, Serialize};

const COLLECTION: &str = "idempotency_records";

#[derive(Serialize, Deserialize)]
struct RecordDoc {
    status: String,
    response: Option<String>,
}

#[derive(Deserialize)]
struct RefundReq {
    charge: String,
    amount: u64,
}

pub struct Tenancy {
    pub tenant_id: String,
}

fn tenancy(req: &Request) -> Result<Tenancy, Error> {
    let t = req.headers().get("x-tenant-id").ok_or("tenant required")?.to_str()?;
    Ok(Tenancy { tenant_id: t.to_owned() })
}

pub async fn refund(db: &FirestoreDb, req: Request) -> Result<Response<Body>, Error> {
    let ten = tenancy(&req)?;
    let Some(raw) = req.headers().get("Idempotency-Key") else {
        let p = Problem::missing_key();
        return Ok(Response::builder().status(p.status()).body(Body::from(p.to_json()))?);
    };
    let ck = IdempotencyKey::parse_lenient(raw.as_bytes()).map_err(|e| e.to_string())?;
    let key = scoped(&ten.tenant_id, "", "refund", ck.as_str())?;
    let existing: Option<RecordDoc> = db
        .fluent()
        .select()
        .by_id_in(COLLECTION)
        .obj()
        .one(key.storage_key())
        .await?;
    if let Some(RecordDoc { response: Some(r), .. }) = existing {
        return Ok(Response::builder().status(200).body(Body::from(r))?);
    }
    let input: RefundReq = serde_json::from_slice(req.body().as_ref())?;
    let reply = format!("{{\"refunded\":{},\"charge\":\"{}\"}}", input.amount, input.charge);
    let _: RecordDoc = db
        .fluent()
        .update()
        .in_col(COLLECTION)
        .document_id(key.storage_key())
        .object(&RecordDoc { status: "completed".into(), response: Some(reply.clone()) })
        .execute()
        .await?;
    Ok(Response::builder().status(201).body(Body::from(reply))?)
}
