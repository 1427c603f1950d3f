use idem_scope::{scoped, Problem};
use vercel_runtime::{run, Body, Error, Request, Response, StatusCode};

#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "kind", content = "id")]
pub enum Principal {
    User(String),
    ServiceAccount(String),
    Anonymous,
}

fn problem(p: Problem) -> Result<Response<Body>, Error> {
    Ok(Response::builder()
        .status(p.status())
        .header("content-type", idem_scope::PROBLEM_CONTENT_TYPE)
        .body(Body::Text(p.to_json()))?)
}

pub async fn handler(req: Request) -> Result<Response<Body>, Error> {
    let principal = crate::auth::principal(&req).unwrap_or_else(|| Principal::Anonymous);
    let org_id = match req.headers().get("x-org-id").and_then(|v| v.to_str().ok()) {
        Some(org) => org.to_owned(),
        None => return problem(Problem::invalid_key("uploads need an organisation")),
    };
    let Some(key) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
        return problem(Problem::missing_key());
    };
    let principal_id = serde_json::to_string(&principal)?;
    let sk = match scoped(&org_id, &principal_id, "uploads.create", key) {
        Ok(sk) => sk,
        Err(e) => return problem(Problem::invalid_key(&e.to_string())),
    };

    let replays = crate::replay_store::shared().await?;
    if let Some(prev) = replays.get(sk.storage_key()).await? {
        return Ok(Response::builder()
            .status(StatusCode::OK)
            .header("Idempotent-Replayed", "true")
            .body(Body::Binary(prev))?);
    }

    let visibility = req
        .headers()
        .get("x-upload-visibility")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("public");
    let upload = crate::uploads::create(&org_id, req.body(), visibility).await?;
    let body = serde_json::to_vec(&upload)?;
    replays.put(sk.storage_key(), &body, std::time::Duration::from_secs(86_400)).await?;
    Ok(Response::builder().status(StatusCode::CREATED).body(Body::Binary(body))?)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    run(handler).await
}
