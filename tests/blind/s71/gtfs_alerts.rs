//! Service alerts. A poller reads the agency's GTFS-realtime alert feed and
//! pushes each alert to riders whose saved trips it affects; a rider can ask
//! for an alert to be re-delivered to a new phone.

use std::time::Duration;

use gtfs_realtime::FeedMessage;
use hopper::bay::Bay;
use idem_scope::{scoped, scoped_server, Problem};
use wharf::badge::Rider;
use wharf::{Answer, Code, Fault, Hail};

use crate::push::PushSender;
use crate::subscriptions::Subscriptions;

const DELIVER_ROUTE: &str = "alerts.deliver";
const DELIVERY_TTL: Duration = Duration::from_secs(3 * 86_400);

pub struct Alerts {
    pub tenant_id: String,
    pub feed_url: String,
    pub bay: Bay,
    pub subs: Subscriptions,
    pub push: PushSender,
    pub http: crate::fetch::Fetcher,
}

impl Alerts {
    /// `POST /v1/alerts/{id}/redeliver`
    pub async fn redeliver(&self, hail: Hail, rider: Rider, alert_id: String) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let key = scoped(&rider.tenant_id, &rider.user_id, DELIVER_ROUTE, k)?;
        if self.bay.set_nx(key.storage_key(), alert_id.as_bytes(), DELIVERY_TTL).await? {
            self.push.alert(&rider.tenant_id, &rider.user_id, &alert_id).await?;
        }
        Ok(Answer::status(Code::Accepted))
    }

    pub async fn poll_once(&self) -> anyhow::Result<usize> {
        let bytes = self.http.get(&self.feed_url).await?;
        let feed = FeedMessage::decode(bytes.as_slice())?;
        let mut pushed = 0;
        for entity in &feed.entity {
            let Some(alert) = entity.alert.as_ref() else { continue };
            for user_id in self.subs.affected(&self.tenant_id, alert).await? {
                let key = scoped(&self.tenant_id, &user_id, DELIVER_ROUTE, &entity.id)?;
                if !self.bay.set_nx(key.storage_key(), entity.id.as_bytes(), DELIVERY_TTL).await? {
                    continue;
                }
                self.push.alert(&self.tenant_id, &user_id, &entity.id).await?;
                pushed += 1;
            }
            for tr in alert.header_text.iter().flat_map(|t| t.translation.iter()) {
                let lang = tr.language.clone().unwrap_or_else(|| "en".to_owned());
                let tkey = scoped_server(&self.tenant_id, "gtfs-poller", "alerts.translate", &format!("{}.{}", entity.id, lang))?;
                self.bay.put(tkey.storage_key(), tr.text.as_bytes().to_vec()).await?;
            }
        }
        Ok(pushed)
    }
}
