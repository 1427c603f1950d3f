//! Pairing a new validator with the fleet service. The validator firmware
//! sends its own `X-Idempotency-Key` so a reboot mid-pairing does not create
//! a second device record.

use hopper::bay::Bay;
use idem_scope::{scoped, Problem, ScopeError};
use wharf::badge::DeviceCert;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

#[derive(Decode)]
pub struct PairRequest {
    pub vehicle_id: String,
    pub firmware: String,
    pub serial: String,
}

pub struct Pairing {
    replays: Bay,
    fleet: crate::fleet::FleetClient,
}

impl Pairing {
    pub async fn pair(&self, hail: Hail, cert: DeviceCert) -> Result<Answer, Fault> {
        let raw = hail.header("X-Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: PairRequest = hail.json()?;

        // Firmware 3.x left-pads the key field with NULs.
        let k = raw.trim_start_matches('\0');
        let serial = req.serial.trim_start_matches('0');

        let key = match scoped(&cert.tenant_id, &cert.client_id, "validators.pair", k) {
            Ok(key) => key,
            Err(ScopeError::ContainsSeparator(c)) => {
                return Ok(Answer::problem(Problem::invalid_key(&format!("{c:?} contains a separator"))));
            }
            Err(e) => return Err(e.into()),
        };
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let device = self.fleet.register(&cert.tenant_id, &req.vehicle_id, serial, &req.firmware).await?;
        let body = wharf::codec::to_vec(&device)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
