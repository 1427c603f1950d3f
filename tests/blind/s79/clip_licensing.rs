//! Archive clip licensing: producers at partner outlets license archive
//! footage; the desk renders a watermarked proxy for the licensee.

use std::fmt::Write as _;

use crosspoint::badge::Producer;
use crosspoint::header::HeaderName;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use spool::cart::Cart;
use spool::vault::Vault;

static IDEMPOTENCY: HeaderName = HeaderName::from_static("idempotency-key");

#[derive(Deserialize)]
pub struct ClipRequest {
    pub asset_path: String,
    pub in_ms: u64,
    pub out_ms: u64,
    pub resolution: u16,
    pub territory: String,
}

#[derive(Serialize)]
pub struct License {
    pub license_no: String,
    pub proxy_object: String,
    pub territory: String,
}

pub async fn license_clip(mut inb: Inbound, cart: &Cart, vault: &Vault) -> Result<Outbound, Glitch> {
    let producer: Producer = inb.badge::<Producer>().cloned().ok_or(Glitch::unauthorized())?;
    let client = inb
        .header(IDEMPOTENCY.as_str())
        .map(str::to_owned)
        .ok_or(Glitch::missing_key())?;
    let route = inb.route_template().to_owned();

    let slot = async {
        let mut s = String::with_capacity(96);
        write!(s, "{}\u{1e}{}\u{1e}{}\u{1e}{}", producer.org_id, producer.user_id, route, client).expect("fmt into String");
        s
    }
    .await;

    if let Some(prior) = cart.get(&slot).await? {
        return Ok(Outbound::replay(prior));
    }

    let request: ClipRequest = inb.json().await?;
    let master = vault.read(&request.asset_path).await?;
    let proxy = crate::render::watermarked_proxy(&master, request.in_ms, request.out_ms, request.resolution)?;
    let license_no = crate::numbering::next_license(&producer.org_id).await?;
    let object = format!("proxies/{}/{}.mp4", producer.org_id, license_no);
    vault.write(&object, &proxy).await?;
    let expires = crate::clock::now_plus_days(30);
    let cdn_sig = hex::encode(Sha256::digest(format!("{}{}{}", crate::cdn::signing_secret(), object, expires).as_bytes()));

    let license = License {
        license_no,
        proxy_object: format!("{object}?exp={expires}&sig={cdn_sig}"),
        territory: request.territory,
    };
    cart.put(&slot, &serde_json::to_vec(&license).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &license))
}
