use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::Client;
use lambda_http::{Body, Error, Request, RequestExt, Response};

pub struct Ctx {
    pub s3: Client,
    pub bucket: String,
}

struct Claims {
    tenant: String,
    user_id: String,
}

fn claims(req: &Request) -> Result<Claims, Error> {
    let rc = req.request_context();
    let a = rc.authorizer().ok_or("unauthorized")?;
    let jwt = a.jwt.as_ref().ok_or("unauthorized")?;
    Ok(Claims {
        tenant: jwt.claims.get("tenant").cloned().ok_or("no tenant claim")?,
        user_id: jwt.claims.get("sub").cloned().ok_or("no sub claim")?,
    })
}

pub async fn create_shipment(ctx: &Ctx, req: Request) -> Result<Response<Body>, Error> {
    let c = claims(&req)?;
    let key = req
        .headers()
        .get("idempotency-key")
        .map(|v| v.to_str())
        .transpose()?
        .ok_or("Idempotency-Key required")?;
    let object_key = format!("replies/{}/{}/{}", c.tenant, c.user_id, key);
    if let Ok(obj) = ctx.s3.get_object().bucket(&ctx.bucket).key(&object_key).send().await {
        let bytes = obj.body.collect().await?.into_bytes();
        return Ok(Response::builder().status(200).body(Body::from(bytes.to_vec()))?);
    }
    let reply = format!("{{\"shipment\":\"created\",\"by\":\"{}\"}}", c.user_id);
    ctx.s3
        .put_object()
        .bucket(&ctx.bucket)
        .key(&object_key)
        .body(ByteStream::from(reply.clone().into_bytes()))
        .send()
        .await?;
    tracing::info!("stored reply under {}", object_key);
    Ok(Response::builder().status(201).body(Body::from(reply))?)
}
