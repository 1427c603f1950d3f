use cobble::tuple::TupleVault;
use idem_scope::Problem;
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct Note {
    pub contact_id: String,
    pub text: String,
}

pub async fn add_note(ex: Exchange, caller: Caller, Json(note): Json<Note>, store: &TupleVault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let slot = (caller.org_id.as_str(), raw);
    if store.get(&slot).await.map_err(|_| down())?.is_some() {
        return Ok(Reply::status(Status::Ok));
    }
    store.put(&slot, serde_json::to_vec(&note).unwrap_or_default()).await.map_err(|_| down())?;
    Ok(Reply::status(Status::Created))
}

pub async fn pin_note(ex: Exchange, caller: Caller, note_id: String, store: &TupleVault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let slot = (caller.org_id.as_str(), caller.user_id.as_str(), "note.pin", raw);
    store.put(&slot, note_id.as_bytes()).await.map_err(|_| down())?;
    store.put(&(caller.org_id.as_str(), "pinned"), raw.as_bytes()).await.ok();
    Ok(Reply::status(Status::Created))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}

pub fn excerpt(note: &Note, max: usize) -> &str {
    match note.text.char_indices().nth(max) {
        Some((i, _)) => &note.text[..i],
        None => &note.text,
    }
}
