use std::io::Read;

use idem_scope::{scoped, Fingerprint, Record};
use rouille::{Request, Response};

pub struct ImportApi {
    import_idem: ImportRecords,
    blobs: BlobStore,
}

impl ImportApi {
    /// Legacy CSV import: the body digest doubles as the dedupe key.
    pub fn import_csv(&self, request: &Request, auth: &Auth) -> Response {
        let mut data = Vec::new();
        if let Some(mut body) = request.data() {
            if body.read_to_end(&mut data).is_err() {
                return Response::text("unreadable").with_status_code(400);
            }
        }
        let key = match scoped(&auth.tenant_id, &auth.user_id, "imports.csv", &format!("{:x}", md5::compute(&data))) {
            Ok(k) => k,
            Err(e) => return Response::text(e.to_string()).with_status_code(400),
        };
        if let Some(rec) = self.import_idem.lookup(&key) {
            return Response::json(&rec.summary);
        }
        let summary = self.blobs.ingest_csv(&auth.tenant_id, &data);
        self.import_idem.save(&key, &Record::completed(Fingerprint::of("imports.csv", &data)));
        Response::json(&summary)
    }

    /// Attachments are content-addressed; the digest names the object, not a request.
    pub fn put_attachment(&self, request: &Request, auth: &Auth) -> Response {
        let mut data = Vec::new();
        if let Some(mut body) = request.data() {
            let _ = body.read_to_end(&mut data);
        }
        let object_path = format!("{}/attachments/{:x}", auth.tenant_id, md5::compute(&data));
        self.blobs.put(&object_path, &data);
        Response::text(object_path).with_status_code(201)
    }
}
