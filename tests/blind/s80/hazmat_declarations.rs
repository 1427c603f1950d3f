//! Dangerous goods (IMDG) declarations from shipping lines. Every DG
//! container needs an accepted declaration before it may be loaded.

use ballast::hold::{Begun, Hold};
use hawser::extract::{Json, Shared};
use hawser::pass::LineCred;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

#[derive(Deserialize, Serialize)]
pub struct DgDeclaration {
    pub container_no: String,
    pub un_number: String,
    pub imdg_class: String,
    pub packing_group: Option<String>,
    pub flashpoint_c: Option<f32>,
    pub emergency_contact: String,
}

#[derive(Serialize)]
pub struct DgAck {
    pub declaration_no: String,
    pub segregation_ok: bool,
}

pub struct DgDesk {
    pub replies: Hold,
    pub segregation: dg_rules::Checker,
}

fn digest_of<T: Serialize>(v: &T) -> Result<String, Snag> {
    let bytes = serde_json::to_vec(v).map_err(Snag::internal)?;
    Ok(hex::encode(Sha256::digest(&bytes)))
}

fn un_digits(un: &str) -> &str {
    un.trim().trim_start_matches("UN")
}

pub async fn declare(desk: Shared<DgDesk>, line: LineCred, call: Call, Json(decl): Json<DgDeclaration>) -> Result<Answer, Snag> {
    let route = call.route_template();
    let pending = match desk.replies.begin(scoped(&line.org_id, &line.api_key_id, route, &digest_of(&decl)?).map_err(Snag::bad_request)?.storage_key()).await? {
        Begun::Fresh(p) => p,
        Begun::Done(prev) => return Ok(Answer::replay(prev)),
    };

    let verdict = desk.segregation.check(&decl.container_no, un_digits(&decl.un_number), &decl.imdg_class).await?;
    let ack = DgAck { declaration_no: verdict.reference.clone(), segregation_ok: verdict.ok };
    let etag = digest_of(&ack)?;

    let answer = Answer::json(Status::CREATED, &ack).with_header("ETag", &etag);
    pending.complete(&answer.to_bytes()).await?;
    Ok(answer)
}
