//! Clinical notes dictated after a telehealth consult.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use sha2::{Digest, Sha224};
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Notes {
    pub idem: Bunker,
    pub records: crate::records::MedicalRecord,
    pub transcripts: Bunker,
}

#[derive(Deserialize)]
pub struct NoteIn {
    pub consult_id: String,
    pub soap: String,
    pub attachments: Vec<String>,
}

pub async fn save_note(inb: Inbound, staff: Staff, st: Shared<Notes>) -> Result<Sendback, Fault> {
    let note: NoteIn = serde_json::from_slice(inb.body()).map_err(|_| Fault::problem(Problem::invalid_key("body")))?;
    let key = scoped(
        &staff.org_id,
        &staff.user_id,
        "/v1/consult-notes",
        &format!("{:x}", Sha224::digest(inb.body())),
    )?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let saved = st.records.append_soap(&staff.org_id, &note.consult_id, &note.soap, &note.attachments).await?;
    let body = serde_json::to_vec(&saved)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

/// The transcription service stores audio transcripts by the audio file's
/// digest so that the same recording is never transcribed twice.
pub async fn cache_transcript(st: &Notes, audio: &[u8], text: &str) -> Result<(), Fault> {
    let audio_digest = format!("{:x}", Sha224::digest(audio));
    st.transcripts.put(&audio_digest, text.as_bytes().to_vec()).await?;
    Ok(())
}
