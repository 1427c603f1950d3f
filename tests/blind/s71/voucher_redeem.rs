//! Voucher redemption: employers and social services hand out fare vouchers
//! that riders redeem into their wallet. Requests can carry a scanned
//! voucher sheet, so the body can be large.

use hopper::bay::Bay;
use idem_scope::scoped;
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

#[derive(Decode)]
pub struct Redemption {
    pub code: String,
    pub wallet_id: String,
    pub scan: Option<String>,
}

pub struct Vouchers {
    replays: Bay,
    vouchers: Bay,
    wallets: crate::wallets::WalletBook,
}

impl Vouchers {
    pub async fn redeem(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let req: Redemption = hail.json()?;

        let body = hail.body().to_vec();
        let digest = tokio::task::spawn_blocking(move || iroh_blake3::hash(&body)).await?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "vouchers.redeem", digest.to_hex().as_str())?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }

        let code_hash = iroh_blake3::hash(req.code.trim().as_bytes());
        let Some(voucher) = self.vouchers.get(code_hash.as_bytes()).await? else {
            return Ok(Answer::status(Code::NotFound));
        };
        let credited = self.wallets.redeem(&rider.tenant_id, &req.wallet_id, &voucher).await?;
        let out = wharf::codec::to_vec(&credited)?;
        self.replays.put(key.storage_key(), out.clone()).await?;
        Ok(Answer::bytes(Code::Ok, out))
    }
}
