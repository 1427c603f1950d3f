//! Lobby payment kiosks: card-present payments and voids.

use std::time::Instant;

use aquifer::tank::Tank;
use idem_scope::{scoped, Fingerprint};
use penstock::badge::Kiosk;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct KioskPay {
    service_no: String,
    amount_cents: i64,
    emv_blob: String,
}

struct InFlight<'a> {
    key: &'a str,
    started: Instant,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        tracing::debug!(key = self.key, elapsed_ms = self.started.elapsed().as_millis() as u64, "kiosk request finished");
    }
}

pub async fn kiosk_pay(intake: Intake, kiosk: Kiosk, tank: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&kiosk.tenant_id, &kiosk.client_id, "kiosk-pay", key)?;
    let pay: KioskPay = intake.json()?;
    tank.claim(ck.storage_key(), &Fingerprint::of("kiosk-pay", intake.body())).await?;
    let _timer = InFlight { key: ck.storage_key(), started: Instant::now() };
    let auth = crate::terminal::gateway()
        .authorize(&kiosk.client_id, &pay.emv_blob, pay.amount_cents)
        .await?;
    let posted = crate::billing::payments().post_card(&kiosk.tenant_id, &pay.service_no, pay.amount_cents, &auth.token).await?;
    let out = Outflow::json(Code::OK, &posted);
    tank.complete(ck.storage_key(), &out).await?;
    Ok(out)
}

pub async fn kiosk_void(intake: Intake, kiosk: Kiosk, tank: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&kiosk.tenant_id, &kiosk.client_id, "kiosk-void", key)?;
    tank.claim(ck.storage_key(), &Fingerprint::of("kiosk-void", intake.body())).await?;
    let held = scopeguard::guard(ck.clone(), |k| {
        let t = tank.clone();
        tokio::spawn(async move {
            let _ = t.release(k.storage_key()).await;
        });
    });
    let auth_code = intake.param("auth_code").unwrap_or_default();
    let voided = crate::terminal::gateway().void(&kiosk.client_id, auth_code).await?;
    let out = Outflow::json(Code::OK, &voided);
    tank.complete(held.storage_key(), &out).await?;
    scopeguard::ScopeGuard::into_inner(held);
    Ok(out)
}
