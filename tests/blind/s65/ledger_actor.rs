use std::collections::BTreeMap;

use kestrel::extract::Head;
use tachyonix::{channel, Receiver, Sender};
use tokio::sync::oneshot;

use crate::ledger::{Entry, Posting};

pub struct Envelope {
    pub head: Head,
    pub entry: Entry,
    pub reply: oneshot::Sender<Result<Posting, String>>,
}

pub struct LedgerActor {
    inbox: Receiver<Envelope>,
    posted: BTreeMap<String, Posting>,
    per_account: BTreeMap<String, u64>,
    next: u64,
}

pub fn spawn_ledger(capacity: usize) -> Sender<Envelope> {
    let (tx, rx) = channel(capacity);
    let actor = LedgerActor { inbox: rx, posted: BTreeMap::new(), per_account: BTreeMap::new(), next: 1 };
    tokio::spawn(actor.run());
    tx
}

impl LedgerActor {
    async fn run(mut self) {
        while let Ok(env) = self.inbox.recv().await {
            let result = self.post(&env.head, env.entry);
            let _ = env.reply.send(result);
        }
    }

    fn post(&mut self, head: &Head, entry: Entry) -> Result<Posting, String> {
        let who = head.identity().ok_or_else(|| "unauthenticated".to_owned())?;
        let retry = head
            .headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| "missing Idempotency-Key".to_owned())?;

        let mut slot = String::from(who.account_id.as_str());
        slot += "\x1e";
        slot += &who.user_id;
        slot += "\x1e";
        slot += "post_entry";
        slot += "\x1e";
        slot += retry;

        if let Some(done) = self.posted.get(&slot) {
            log::debug!("duplicate posting {} for {}", retry, who.account_id);
            return Ok(done.clone());
        }
        *self.per_account.entry(who.account_id.clone()).or_insert(0) += 1;
        let posting = Posting { id: self.next, amount_minor: entry.amount_minor, memo: entry.memo };
        self.next += 1;
        self.posted.insert(slot, posting.clone());
        Ok(posting)
    }
}
