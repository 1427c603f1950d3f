//! Box-office tills: walk-up sales and voids at the window.
//! Tills authenticate with an API key bound to one venue group.
use std::time::Duration;

use anyhow::{ensure, Context};
use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::Batten;
use proscenium::pass::Terminal;
use proscenium::{Curtain, Cue, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(36 * 3600);
const MAX_LINES: usize = 40;

#[derive(Deserialize)]
pub struct TillSale {
    pub lines: Vec<crate::pos::Line>,
    pub tender: crate::pos::Tender,
}

#[derive(Deserialize)]
pub struct VoidRequest {
    pub receipt_no: String,
    pub reason: String,
}

pub struct Window {
    pub batten: Batten,
    pub pos: crate::pos::Register,
    pub supervisors: crate::pos::Supervisors,
}

pub async fn till_sale(cue: Cue, term: Terminal, house: House<Window>) -> anyhow::Result<Curtain> {
    let key = cue
        .header("Idempotency-Key")
        .context("till did not send an Idempotency-Key")?;
    let till_no = term.till.unwrap_or(1);
    let sale: TillSale = serde_json::from_slice(cue.body()).context("bad sale body")?;
    let sk = scoped(&term.org_id, &term.api_key_id, "till_sale", key)?;
    let fp = Fingerprint::of("till_sale", cue.body());
    if !house.batten.try_claim(sk.storage_key(), &fp, LEASE).await? {
        return Ok(Curtain::problem(Problem::in_progress(key)));
    }
    ensure!(sale.lines.len() <= MAX_LINES, "a till sale holds at most {MAX_LINES} lines");
    let receipt = match house.pos.ring_up(&term.org_id, till_no, &sale.lines, &sale.tender).await {
        Ok(r) => r,
        Err(e) => {
            house.batten.release(sk.storage_key()).await?;
            return Err(e.into());
        }
    };
    house.batten.complete(sk.storage_key(), receipt.to_bytes(), KEEP).await?;
    Ok(Curtain::json(201, &receipt))
}

pub async fn void_sale(cue: Cue, term: Terminal, house: House<Window>) -> anyhow::Result<Curtain> {
    let key = cue
        .header("Idempotency-Key")
        .context("till did not send an Idempotency-Key")?;
    let pin = cue.header("X-Supervisor-Pin").context("supervisor pin required")?;
    let pin_hash = house.supervisors.pin_hash(&term.org_id).await?;
    ensure!(sha_crypt::sha512_check(pin, &pin_hash).is_ok(), "wrong supervisor pin");
    let req: VoidRequest = serde_json::from_slice(cue.body()).context("bad void body")?;
    ensure!(!req.reason.trim().is_empty(), "a void needs a reason");

    let sk = scoped(&term.org_id, &term.api_key_id, "void_sale", key)?;
    let fp = Fingerprint::of("void_sale", cue.body());
    if !house.batten.try_claim(sk.storage_key(), &fp, LEASE).await? {
        return Ok(Curtain::problem(Problem::in_progress(key)));
    }
    match house.pos.void(&term.org_id, &req.receipt_no, &req.reason).await {
        Ok(voided) => {
            house.batten.complete(sk.storage_key(), voided.to_bytes(), KEEP).await?;
            Ok(Curtain::json(200, &voided))
        }
        Err(e) => {
            house.batten.release(sk.storage_key()).await?;
            Err(e.into())
        }
    }
}
