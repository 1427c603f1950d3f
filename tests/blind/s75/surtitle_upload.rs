//! Surtitle files for opera and foreign-language productions. Technicians
//! upload WebVTT files; identical files are stored once.
use loft::wings::Wings;
use proscenium::draw::RawPart;
use proscenium::pass::Staff;
use proscenium::{Curtain, Cue, Flub, House};
use sha2::{Digest, Sha256};

const PART: usize = 8 * 1024 * 1024;

pub struct Surtitles {
    pub wings: Wings,
    pub catalogue: crate::productions::Catalogue,
}

pub async fn upload_surtitles(cue: Cue, staff: Staff, RawPart(file): RawPart, house: House<Surtitles>) -> Result<Curtain, Flub> {
    let production = cue.param("production").ok_or_else(|| Flub::not_found("production"))?;
    let language = cue.param("lang").unwrap_or("en");
    let digest = format!("{:x}", Sha256::digest(&file));
    let object_path = format!("surtitles/{production}/{language}/{digest}.vtt");

    if !house.wings.exists(&object_path).await? {
        let mut upload = house.wings.begin_upload(&object_path).await?;
        for chunk in file.chunks(PART) {
            upload.part(chunk.to_vec()).await?;
        }
        upload.complete().await?;
    }
    house.catalogue.attach_surtitles(&staff.org_id, production, language, &object_path).await?;
    Ok(Curtain::json(201, &serde_json::json!({ "path": object_path })))
}
