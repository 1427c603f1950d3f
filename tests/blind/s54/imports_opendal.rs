use gatehouse::http::{Request, Response, StatusCode};
use gatehouse::Auth;
use opendal::Operator;
use serde::Serialize;
use uuid::Uuid;

#[derive(Serialize)]
struct ImportAccepted {
    import_id: Uuid,
    file_name: String,
    bytes: usize,
}

pub struct Imports {
    op: Operator,
    queue: importer::Queue,
}

impl Imports {
    pub async fn create(&self, auth: &Auth, req: Request) -> anyhow::Result<Response> {
        let Some(raw_key) = req.headers().get("idempotency-key").and_then(|v| v.to_str().ok()) else {
            return Ok(Response::status(StatusCode::BAD_REQUEST));
        };
        let key: String = raw_key.chars().filter(|c| *c != '/').collect();
        let route = "imports.create";
        let path = format!("idem/{}/{}/{}/{}", auth.tenant_id, auth.user_id, route, key);

        if self.op.exists(&path).await? {
            let stored = self.op.read(&path).await?;
            return Ok(Response::bytes(StatusCode::OK, stored.to_vec()).header("Idempotent-Replayed", "true"));
        }

        let file_name = req
            .header_str("x-file-name")
            .map(|n| n.replace('/', "_"))
            .unwrap_or_else(|| "upload.csv".to_owned());
        let body = req.into_body().collect_bytes().await?;
        let import_id = Uuid::new_v4();
        self.op
            .write(&format!("imports/{}/{}.csv", auth.tenant_id, import_id), body.clone())
            .await?;
        self.queue.enqueue(&auth.tenant_id, import_id).await?;

        let accepted = ImportAccepted { import_id, file_name, bytes: body.len() };
        let json = serde_json::to_vec(&accepted)?;
        self.op.write(&path, json.clone()).await?;
        Ok(Response::bytes(StatusCode::ACCEPTED, json))
    }
}
