use crate::store_impl::RecordStore;
use idem_scope::{scoped, Fingerprint, Problem};
use lambda_http::{run, service_fn, Body, Error, Request, RequestExt, Response};
use std::sync::Arc;

struct Ctx {
    records: Arc<RecordStore>,
    http: aws_sdk_sns::Client,
    topic: String,
}

fn scope_of(req: &Request) -> Result<(String, String), Error> {
    let rc = req.request_context();
    let a = rc.authorizer().ok_or("no authorizer")?;
    let org = a.fields.get("org_id").and_then(|v| v.as_str()).ok_or("no org")?;
    let sub = a.fields.get("sub").and_then(|v| v.as_str()).ok_or("no sub")?;
    Ok((org.to_owned(), sub.to_owned()))
}

async fn handle(ctx: Arc<Ctx>, req: Request) -> Result<Response<Body>, Error> {
    let (org_id, sub) = scope_of(&req)?;
    let Some(ck) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()).map(str::to_owned) else {
        return Ok(Response::builder().status(400).body(Body::from(Problem::missing_key().to_json()))?);
    };
    let key = scoped(&org_id, &sub, "notifications.send", &ck)?;
    let fp = Fingerprint::of("notifications.send", req.body().as_ref());
    let message = String::from_utf8(req.body().to_vec())?;
    let c = ctx.clone();
    let task = tokio::spawn(async move {
        c.records.begin(&key, &fp).await?;
        let out = c.http.publish().topic_arn(&c.topic).message(&message).send().await?;
        let id = out.message_id().unwrap_or_default().to_owned();
        c.records.finish(&key, id.as_bytes()).await?;
        Ok::<String, Error>(id)
    });
    let id = task.await??;
    Ok(Response::builder().status(202).body(Body::from(id))?)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let cfg = aws_config::load_from_env().await;
    let ctx = Arc::new(Ctx {
        records: Arc::new(RecordStore::connect().await?),
        http: aws_sdk_sns::Client::new(&cfg),
        topic: std::env::var("TOPIC_ARN")?,
    });
    run(service_fn(move |req| handle(ctx.clone(), req))).await
}
