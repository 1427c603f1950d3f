use std::collections::HashMap;

use idem_scope::{scoped, Fingerprint};
use riker::actors::*;

#[derive(Clone, Debug)]
pub struct PrincipalRef {
    pub id: String,
    pub display: String,
}

#[derive(Clone, Debug)]
pub struct PostEntry {
    pub org_id: String,
    pub principal: Option<PrincipalRef>,
    pub idempotency_key: String,
    pub raw: Vec<u8>,
    pub reply_to: BasicActorRef,
}

#[derive(Clone, Debug)]
pub struct Posted(pub Result<Vec<u8>, String>);

struct Stored {
    fingerprint: Fingerprint,
    response: Vec<u8>,
}

#[derive(Default)]
pub struct LedgerActor {
    replays: HashMap<String, Stored>,
    books: crate::books::Books,
}

impl ActorFactory for LedgerActor {
    fn create() -> Self {
        LedgerActor::default()
    }
}

impl Actor for LedgerActor {
    type Msg = PostEntry;

    fn recv(&mut self, ctx: &Context<Self::Msg>, msg: Self::Msg, _sender: Sender) {
        let actor = msg.principal.as_ref().map_or("anon", |p| p.id.as_str());
        let sk = match scoped(&msg.org_id, actor, "ledger.post", &msg.idempotency_key) {
            Ok(sk) => sk,
            Err(e) => {
                let _ = msg.reply_to.try_tell(Posted(Err(e.to_string())), ctx.myself());
                return;
            }
        };
        let fp = Fingerprint::of("ledger.post", &msg.raw);

        if let Some(stored) = self.replays.get(sk.storage_key()) {
            let answer = if stored.fingerprint.as_bytes() == fp.as_bytes() {
                Ok(stored.response.clone())
            } else {
                Err("Idempotency-Key reused with a different entry".to_string())
            };
            let _ = msg.reply_to.try_tell(Posted(answer), ctx.myself());
            return;
        }

        let who = msg.principal.as_ref().map(|p| p.display.as_str()).unwrap_or("anonymous");
        log::info!("posting entry for {} in {}", who, msg.org_id);
        let result = self.books.post(&msg.org_id, &msg.raw);
        if let Ok(body) = &result {
            self.replays.insert(sk.storage_key().to_owned(), Stored { fingerprint: fp, response: body.clone() });
        }
        let _ = msg.reply_to.try_tell(Posted(result.map_err(|e| e.to_string())), ctx.myself());
    }
}

pub fn spawn(sys: &ActorSystem) -> Result<ActorRef<PostEntry>, CreateError> {
    sys.actor_of::<LedgerActor>("ledger")
}
