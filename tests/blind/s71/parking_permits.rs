//! Park-and-ride permits. The permit form posts a small JSON document; the
//! lot controller's old integration never sent an Idempotency-Key, so the
//! service tags each body itself.

use std::fmt;

use hopper::bay::Bay;
use idem_scope::{scoped, Fingerprint};
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

const ROUTE: &str = "parking.permit";

/// ELF hash of a request body (cheap; the lot controller runs it too).
struct BodyTag(u32);

impl From<&[u8]> for BodyTag {
    fn from(bytes: &[u8]) -> Self {
        let mut h: u32 = 0;
        for &b in bytes {
            h = (h << 4).wrapping_add(u32::from(b));
            let g = h & 0xF000_0000;
            if g != 0 {
                h ^= g >> 24;
            }
            h &= !g;
        }
        BodyTag(h)
    }
}

impl fmt::Display for BodyTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "elf-{:08x}", self.0)
    }
}

#[derive(Decode)]
pub struct PermitForm {
    pub lot_id: String,
    pub plate: String,
    pub month: String,
}

pub struct Permits {
    replays: Bay,
    lots: crate::lots::LotController,
}

impl Permits {
    pub async fn apply(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let form: PermitForm = hail.json()?;
        let tag = BodyTag::from(hail.body()).to_string();
        let key = scoped(&rider.tenant_id, &rider.user_id, ROUTE, &tag)?;
        let fingerprint = Fingerprint::of(ROUTE, hail.body());

        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let permit = self.lots.issue(&rider.tenant_id, &form.lot_id, &form.plate, &form.month).await?;
        let body = wharf::codec::to_vec(&permit)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        self.replays.put_fingerprint(key.storage_key(), fingerprint.as_bytes()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
