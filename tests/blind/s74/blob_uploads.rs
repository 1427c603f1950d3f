//! Large uploads (radiograph archives, referral PDFs) in resumable parts.

use easy_hasher::easy_hasher::raw_sha256;
use silage::blob::{Blobs, MultipartUpload};
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};
use uuid::Uuid;

pub struct Uploads {
    pub blobs: Blobs,
    /// upload id -> in-flight multipart state
    pub sessions: Bunker,
}

/// `POST /v1/uploads`: opens an upload and returns its id.
pub async fn open_upload(staff: Staff, st: Shared<Uploads>) -> Result<Sendback, Fault> {
    let upload_id = Uuid::new_v4().to_string();
    let upload: MultipartUpload = st.blobs.begin(&format!("uploads/{}/{}", staff.org_id, upload_id)).await?;
    st.sessions.put(&upload_id, upload.to_state()).await?;
    Ok(Sendback::json(Code::Created, &serde_json::json!({ "upload_id": upload_id })))
}

/// `PUT /v1/uploads/{id}/parts/{n}` then `POST /v1/uploads/{id}/finish`.
pub async fn finish_upload(inb: Inbound, staff: Staff, st: Shared<Uploads>, upload_id: String) -> Result<Sendback, Fault> {
    let Some(state) = st.sessions.get(&upload_id).await? else {
        return Ok(Sendback::status(Code::NotFound));
    };
    let mut upload = MultipartUpload::from_state(&state)?;
    let manifest: Vec<u32> = serde_json::from_slice(inb.body())?;
    upload.check_parts(&manifest)?;
    let object = st.blobs.complete(upload).await?;
    st.sessions.del(&upload_id).await?;
    tracing::info!(org = %staff.org_id, %upload_id, object = %object.path, "upload finished");
    Ok(Sendback::status(Code::Ok))
}

/// Small single-shot uploads are stored content-addressed.
pub async fn put_small(inb: Inbound, staff: Staff, st: Shared<Uploads>) -> Result<Sendback, Fault> {
    let digest = raw_sha256(inb.body().to_vec()).to_hex_string();
    let path = format!("small/{}/{}", staff.org_id, digest);
    st.blobs.put(&path, inb.body().to_vec()).await?;
    Ok(Sendback::json(Code::Created, &serde_json::json!({ "path": path })))
}

/// Copies a finished archive to the cold bucket in 8 MiB parts.
pub async fn mirror_archive(st: &Uploads, cold: &Blobs, path: &str) -> Result<(), Fault> {
    let mut upload = cold.begin(path).await?;
    let mut reader = st.blobs.reader(path).await?;
    while let Some(chunk) = reader.next_chunk(8 << 20).await? {
        upload.put_part(chunk).await?;
    }
    cold.complete(upload).await?;
    Ok(())
}
