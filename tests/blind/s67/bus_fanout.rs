use bus::BusReader;
use dunlin::kv::BlockingKv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::blocking::{Request, Response};

#[derive(Clone)]
pub struct Broadcast {
    pub message_id: u64,
    pub tenant_id: String,
    pub author_id: String,
    pub text: String,
}

pub struct Announcements {
    pub posted: BlockingKv,
    pub inbox: BlockingKv,
}

impl Announcements {
    pub fn post(&self, req: &Request, caller: &Caller) -> Response {
        let Some(key) = req.header("Idempotency-Key") else { return Response::status(400) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "announcement.post", key) else {
            return Response::status(400);
        };
        if let Ok(Some(prev)) = self.posted.get(sk.storage_key()) {
            return Response::ok(prev);
        }
        let a = crate::announcements::post(caller, req.body());
        self.posted.put(sk.storage_key(), a.to_bytes()).ok();
        Response::created(a.to_bytes())
    }

    pub fn relay(&self, mut rx: BusReader<Broadcast>) {
        for msg in rx.iter() {
            let Ok(sk) = scoped(&msg.tenant_id, &msg.author_id, "announcement.post", &msg.message_id.to_string()) else { continue };
            if self.posted.exists(sk.storage_key()).unwrap_or(false) {
                continue;
            }
            crate::announcements::post_text(&msg.tenant_id, &msg.author_id, &msg.text);
            self.posted.put(sk.storage_key(), b"relayed".to_vec()).ok();
        }
    }

    pub fn mirror(&self, mut rx: BusReader<Broadcast>) {
        for msg in rx.iter() {
            let slot = format!("{}/{}", msg.tenant_id, msg.message_id);
            if self.inbox.exists(&slot).unwrap_or(false) {
                continue;
            }
            crate::mirror::copy(&msg.tenant_id, &msg.text);
            self.inbox.put(&slot, b"1".to_vec()).ok();
        }
    }
}
