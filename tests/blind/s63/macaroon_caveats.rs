use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use macaroon::{ByteString, Caveat, Macaroon, MacaroonKey, Verifier};
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

#[derive(Clone)]
pub struct Printing {
    pub vat: Arc<Vat>,
    pub root_key: MacaroonKey,
    pub queue: Arc<print::Queue>,
}

fn caveat_value(m: &Macaroon, prefix: &str) -> Option<String> {
    m.first_party_caveats().iter().find_map(|c| match c {
        Caveat::FirstParty(fp) => {
            let text = String::from_utf8(fp.predicate().0.clone()).ok()?;
            text.strip_prefix(prefix).map(|v| v.trim().to_owned())
        }
        _ => None,
    })
}

/// Print jobs from kiosks: each kiosk holds a macaroon minted by the tenant admin.
pub async fn submit_print_job(ctx: Ctx, State(p): State<Printing>) -> Result<Reply, Problem> {
    let token = ctx.header("X-Kiosk-Macaroon").ok_or_else(|| Problem::invalid_key("kiosk macaroon required"))?;
    let mac = Macaroon::deserialize(token).map_err(|_| Problem::invalid_key("bad macaroon"))?;
    let mut verifier = Verifier::default();
    verifier.satisfy_general(|c: &ByteString| c.0.starts_with(b"tenant = ") || c.0.starts_with(b"kiosk = ") || c.0.starts_with(b"ttl = "));
    verifier.verify(&mac, &p.root_key, Vec::new()).map_err(|_| Problem::invalid_key("macaroon rejected"))?;

    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let tenant_caveat = caveat_value(&mac, "tenant = ");
    let tenant_id = tenant_caveat.as_deref().map_or("public", |t| t);
    let client_id = caveat_value(&mac, "kiosk = ").ok_or_else(|| Problem::invalid_key("kiosk caveat required"))?;
    let ttl_s: u64 = caveat_value(&mac, "ttl = ").map_or(3600, |v| v.parse().unwrap_or(3600));

    let sk = scoped(tenant_id, &client_id, "submit_print_job", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = p.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let job = p.queue.enqueue(tenant_id, &client_id, ctx.body(), ttl_s).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = p.vat.put(sk.storage_key(), job.to_json()).await;
    Ok(Reply::bytes(Status::ACCEPTED, job.to_json()))
}
