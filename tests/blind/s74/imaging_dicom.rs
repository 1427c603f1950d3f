//! Imaging intake: X-ray and ultrasound studies pushed by the clinic's DICOM
//! router (STOW-style HTTP), and manual uploads from the imaging room PC.

use dicom_object::from_reader;
use easy_hasher::easy_hasher::raw_sha256;
use idem_scope::{scoped, Problem};
use silage::blob::Blobs;
use silage::bunker::Bunker;
use stirrup::creds::{Modality, Staff};
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Imaging {
    /// Stored-instance records, by scoped key.
    pub stored: Bunker,
    pub blobs: Blobs,
    pub studies: crate::imaging::StudyIndex,
}

fn sop_instance_uid(bytes: &[u8]) -> Result<String, Fault> {
    let obj = from_reader(bytes).map_err(|e| Fault::bad_request(&e.to_string()))?;
    let uid = obj
        .element_by_name("SOPInstanceUID")
        .map_err(|e| Fault::bad_request(&e.to_string()))?
        .to_str()
        .map_err(|e| Fault::bad_request(&e.to_string()))?;
    // DICOM pads UIDs with a trailing NUL to an even length.
    Ok(uid.trim_end_matches('\0').to_owned())
}

/// Object path for the pixel data; content addressed, no request identity.
async fn store_pixels(blobs: &Blobs, org_id: &str, bytes: &[u8]) -> Result<String, Fault> {
    let digest = raw_sha256(bytes.to_vec()).to_hex_string();
    let path = format!("dicom/{org_id}/{digest}.dcm");
    blobs.put(&path, bytes.to_vec()).await?;
    Ok(path)
}

/// `POST /v1/imaging/router`: the DICOM router forwards each instance once and
/// re-sends it with the same `X-Router-Delivery-Id` after a timeout.
pub async fn router_push(inb: Inbound, modality: Modality, st: Shared<Imaging>) -> Result<Sendback, Fault> {
    let delivery_id = inb
        .header("X-Router-Delivery-Id")
        .ok_or_else(|| Fault::bad_request("X-Router-Delivery-Id"))?
        .to_owned();
    let key = scoped(&modality.org_id, &modality.caller_id, "/v1/imaging/router", &delivery_id)?;
    if st.stored.exists(key.storage_key()).await? {
        return Ok(Sendback::status(Code::Ok));
    }
    let uid = sop_instance_uid(inb.body())?;
    let path = store_pixels(&st.blobs, &modality.org_id, inb.body()).await?;
    st.studies.index(&modality.org_id, &uid, &path).await?;
    st.stored.put(key.storage_key(), uid.into_bytes()).await?;
    Ok(Sendback::status(Code::Created))
}

/// `POST /v1/imaging/upload`: a technician uploads a file exported from a
/// standalone ultrasound unit.
pub async fn manual_upload(inb: Inbound, staff: Staff, st: Shared<Imaging>) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/imaging/upload", k)?;
    if st.stored.exists(key.storage_key()).await? {
        return Ok(Sendback::status(Code::Ok));
    }
    let uid = sop_instance_uid(inb.body())?;
    let path = store_pixels(&st.blobs, &staff.org_id, inb.body()).await?;
    st.studies.index(&staff.org_id, &uid, &path).await?;
    st.stored.put(key.storage_key(), uid.into_bytes()).await?;
    Ok(Sendback::status(Code::Created))
}
