//! Content-addressed storage for scanned receipts. Identical scans share one
//! object.

use granary::silo::Silo;
use portcullis::{Call, Reply, Status};

pub async fn put_scan(objects: &Silo, call: Call) -> Reply {
    let body = call.body();
    if body.len() > 8 * 1024 * 1024 {
        return Reply::status(Status::PayloadTooLarge);
    }
    let digest = hacl_star::sha2::sha256(body);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let path = format!("scans/{}/{}", &hex[..2], hex);
    if !objects.exists(&path).await.unwrap_or(false) {
        let _ = objects.put(&path, body.to_vec()).await;
    }
    Reply::json(Status::Created, &serde_json::json!({ "object": path }))
}

pub async fn get_scan(objects: &Silo, call: Call) -> Reply {
    let Some(hex) = call.param("hash") else { return Reply::status(Status::BadRequest) };
    match objects.get(&format!("scans/{}/{}", &hex[..2.min(hex.len())], hex)).await {
        Ok(Some(b)) => Reply::bytes(Status::Ok, b),
        _ => Reply::status(Status::NotFound),
    }
}
