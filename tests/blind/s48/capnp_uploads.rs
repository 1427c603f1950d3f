use capnp::capability::Promise;
use capnp_rpc::pry;
use object_store::path::Path;
use object_store::{ObjectStore, PutPayload};
use sha1::{Digest, Sha1};
use std::sync::Arc;

pub mod blob_capnp {
    pub mod blob_store {
        pub trait Server {}
        pub struct PutParams;
        pub struct PutResults;
    }
}

pub struct BlobStoreImpl {
    objects: Arc<dyn ObjectStore>,
    prefix: String,
}

impl BlobStoreImpl {
    fn content_path(&self, data: &[u8]) -> Path {
        let digest = Sha1::digest(data);
        let hex: String = digest.iter().map(|b| format!("{:02x}", b)).collect();
        let trimmed = self.prefix.trim_end_matches('/');
        Path::from(format!("{}/{}/{}", trimmed, &hex[..2], hex))
    }

    pub fn put(&mut self, data: Vec<u8>) -> Promise<String, capnp::Error> {
        let path = self.content_path(&data);
        let objects = self.objects.clone();
        Promise::from_future(async move {
            let exists = objects.head(&path).await.is_ok();
            if !exists {
                objects
                    .put(&path, PutPayload::from(data))
                    .await
                    .map_err(|e| capnp::Error::failed(e.to_string()))?;
            }
            Ok(path.to_string())
        })
    }

    pub fn check(&self, data: &[u8]) -> Promise<bool, capnp::Error> {
        if data.is_empty() {
            return Promise::err(capnp::Error::failed("empty".into()));
        }
        let path = self.content_path(data);
        let _ = pry!(Ok::<(), capnp::Error>(()));
        let objects = self.objects.clone();
        Promise::from_future(async move { Ok(objects.head(&path).await.is_ok()) })
    }
}
