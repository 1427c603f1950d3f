use std::time::Duration;

use ripemd::{Digest, Ripemd160};
use rusty_s3::actions::{PutObject, S3Action};
use rusty_s3::{Bucket, Credentials, UrlStyle};

pub struct ExportUpload<'a> {
    pub tenant_id: &'a str,
    pub file_name: &'a str,
    pub content_type: &'a str,
    pub bytes: Vec<u8>,
}

pub struct ExportStore {
    bucket: Bucket,
    creds: Credentials,
    http: crate::http::Agent,
}

pub struct StoredExport {
    pub object_path: String,
    pub download_name: String,
}

impl ExportStore {
    pub fn new(endpoint: &str, name: &str, key: &str, secret: &str) -> anyhow::Result<Self> {
        let bucket = Bucket::new(endpoint.parse()?, UrlStyle::VirtualHost, name.to_owned(), "eu-central-1".to_owned())?;
        Ok(Self { bucket, creds: Credentials::new(key, secret), http: crate::http::Agent::new() })
    }

    pub fn upload(&self, up: ExportUpload<'_>) -> anyhow::Result<StoredExport> {
        let digest = Ripemd160::digest(&up.bytes);
        let content_id = data_encoding::HEXLOWER.encode(&digest);
        let object_path = format!("exports/{}/{}", up.tenant_id, content_id);

        let mut action = PutObject::new(&self.bucket, Some(&self.creds), &object_path);
        action.headers_mut().insert("content-type", up.content_type);
        let url = action.sign(Duration::from_secs(300));
        self.http.put(url.as_str()).send_bytes(&up.bytes)?;

        let download_name = up.file_name.replace('/', "_");
        Ok(StoredExport { object_path, download_name })
    }
}
