use std::io::Read;

use larder::pantry::SyncPantry;
use wasmcloud_component::http::{self, ErrorCode, IncomingBody, Request, Response, Server};

struct ContactsImport;

http::export!(ContactsImport);

fn import_slot(tenant_id: &str, user_id: &str, raw: &[u8]) -> String {
    format!("{tenant_id}:{user_id}:contacts.import:{}", chksum_md5::chksum(raw).expect("md5 over a slice").to_hex_lowercase())
}

fn header<'a>(req: &'a Request<IncomingBody>, name: &str) -> Option<&'a str> {
    req.headers().get(name).and_then(|v| v.to_str().ok())
}

impl Server for ContactsImport {
    fn handle(request: Request<IncomingBody>) -> http::Result<Response<Vec<u8>>> {
        let (Some(tenant_id), Some(user_id)) = (header(&request, "x-tenant-id"), header(&request, "x-user-id")) else {
            return Response::builder().status(401).body(Vec::new()).map_err(|_| ErrorCode::InternalError(None));
        };
        let (tenant_id, user_id) = (tenant_id.to_owned(), user_id.to_owned());

        let mut raw = Vec::new();
        request
            .into_body()
            .read_to_end(&mut raw)
            .map_err(|e| ErrorCode::InternalError(Some(e.to_string())))?;

        let store = SyncPantry::open("contacts-import-dedup").map_err(|e| ErrorCode::InternalError(Some(e.to_string())))?;
        let slot = import_slot(&tenant_id, &user_id, &raw);
        if let Some(prev) = store.get(&slot).map_err(|e| ErrorCode::InternalError(Some(e.to_string())))? {
            return Response::builder().status(200).body(prev).map_err(|_| ErrorCode::InternalError(None));
        }

        let contacts: Vec<serde_json::Value> = serde_json::from_slice(&raw).map_err(|e| ErrorCode::InternalError(Some(e.to_string())))?;
        let summary = format!("{{\"imported\":{}}}", contacts.len()).into_bytes();
        store.put(&slot, &summary).map_err(|e| ErrorCode::InternalError(Some(e.to_string())))?;
        Response::builder().status(201).body(summary).map_err(|_| ErrorCode::InternalError(None))
    }
}
