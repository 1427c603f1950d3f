use actix::prelude::*;
use ferrum::kv::Kv;
use relay::http::HeaderMap;
use relay::Delivery;

#[derive(Message)]
#[rtype(result = "bool")]
pub struct SendNotice {
    pub tenant_id: String,
    pub user_id: String,
    pub client_key: String,
    pub template: String,
}

impl SendNotice {
    pub fn from_headers(h: &HeaderMap, tenant_id: String, user_id: String, template: String) -> Option<Self> {
        let client_key = h.get("Idempotency-Key")?.to_str().ok()?.to_owned();
        Some(Self { tenant_id, user_id, client_key, template })
    }
}

pub struct NotificationActor {
    sent: Kv<u64>,
    mailer: mailer::Client,
}

impl Actor for NotificationActor {
    type Context = Context<Self>;
}

const ROUTE: &str = "notices.send";

impl Handler<SendNotice> for NotificationActor {
    type Result = bool;

    fn handle(&mut self, msg: SendNotice, _ctx: &mut Self::Context) -> bool {
        let key = (msg.tenant_id.as_str(), msg.user_id.as_str(), ROUTE, msg.client_key.as_str());
        if matches!(self.sent.get(&key), Ok(Some(_))) {
            return false;
        }
        let id = self.mailer.send(&msg.tenant_id, &msg.user_id, &msg.template);
        self.sent.put(&key, id).is_ok()
    }
}

impl StreamHandler<Delivery> for NotificationActor {
    fn handle(&mut self, d: Delivery, ctx: &mut Self::Context) {
        let Ok(notice) = d.json::<relay::events::NoticeRequested>() else {
            d.nack();
            return;
        };
        let key = (notice.tenant_id.as_str(), notice.user_id.as_str(), ROUTE, format!("replay:{}", d.delivery_id()));
        if matches!(self.sent.get(&key), Ok(Some(_))) {
            d.ack();
            return;
        }
        let id = self.mailer.send(&notice.tenant_id, &notice.user_id, &notice.template);
        if self.sent.put(&key, id).is_err() {
            ctx.notify_later(relay::Retry(d.delivery_id().to_owned()), std::time::Duration::from_secs(5));
            return;
        }
        d.ack();
    }
}
