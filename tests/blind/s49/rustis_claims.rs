//! Subscription renewals: claim with SET NX PX on rustis, then store the response.
use rustis::client::Client;
use rustis::commands::{GenericCommands, SetCondition, SetExpiration, StringCommands};

const HDR: &str = "Idempotency-Key";

pub struct Renewals {
    kv: Client,
}

impl Renewals {
    pub async fn renew(&self, parts: &http::request::Parts, who: &crate::Who) -> Result<Vec<u8>, crate::Error> {
        let raw = parts.headers.get(HDR).ok_or(crate::Error::MissingKey)?;
        let key = idem_scope::scoped(&who.org_id, &who.user_id, "subscription.renew", raw.to_str()?)?;
        let k = key.storage_key();

        let claimed: bool = self
            .kv
            .set_with_options(k, "in_progress", SetCondition::NX, SetExpiration::Px(60_000), false)
            .await?;
        if !claimed {
            return Err(crate::Error::InProgress);
        }
        let invoice = crate::billing::renew(&who.org_id).await;
        let body = serde_json::to_vec(&invoice).unwrap();
        self.kv.set(k, body.clone()).await?;
        Ok(body)
    }

    pub async fn cancel(&self, parts: &http::request::Parts, who: &crate::Who) -> Result<Vec<u8>, crate::Error> {
        let raw = parts.headers.get(HDR).ok_or(crate::Error::MissingKey)?;
        let key = idem_scope::scoped(&who.org_id, &who.user_id, "subscription.cancel", raw.to_str()?)?;
        let k = key.storage_key();

        let claimed: bool = self
            .kv
            .set_with_options(k, "in_progress", SetCondition::NX, SetExpiration::Px(60_000), false)
            .await?;
        if !claimed {
            return Err(crate::Error::InProgress);
        }
        let result = match crate::billing::cancel(&who.org_id).await {
            Ok(r) => r,
            Err(e) => {
                let _: usize = self.kv.del(k).await?;
                return Err(e.into());
            }
        };
        let body = match serde_json::to_vec(&result) {
            Ok(b) => b,
            Err(e) => {
                let _: usize = self.kv.del(k).await?;
                return Err(e.into());
            }
        };
        self.kv.set(k, body.clone()).await?;
        Ok(body)
    }
}
