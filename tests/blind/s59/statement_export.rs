use brindle::auth::Caller;
use brindle::{Ctx, Reply, Status};
use idem_scope::{scoped, ClaimGuard, Problem};
use sluice::journal::Journal;

use crate::statements::{build_statement, close_period, Statement};

pub struct Exports {
    journal: Journal,
}

impl Exports {
    pub async fn export(&self, ctx: Ctx, caller: Caller, period: String) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "statements.export", client_key) {
            Ok(k) => k,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Some(done) = self.journal.lookup(sk.storage_key()) {
            return Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true");
        }
        if let Err(e) = self.journal.begin(sk.storage_key()) {
            return Reply::status(Status::CONFLICT).text(e.to_string());
        }
        let render = |s: &Statement| -> Vec<u8> { serde_json::to_vec(s).expect("statement serializes") };
        let stmt = build_statement(&caller, &period).await;
        let body = render(&stmt);
        self.journal.commit(sk.storage_key(), &body);
        Reply::bytes(Status::CREATED, body)
            .header("Content-Disposition", format!("attachment; filename=statement-{period}.json"))
    }

    pub async fn close(&self, ctx: Ctx, caller: Caller, period: String) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "statements.close", client_key) {
            Ok(k) => k,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Err(e) = self.journal.begin(sk.storage_key()) {
            return Reply::status(Status::CONFLICT).text(e.to_string());
        }
        let journal = self.journal.clone();
        let key_for_release = sk.storage_key().to_owned();
        let guard = ClaimGuard::new(move || journal.abandon(&key_for_release));
        let closed = match close_period(&caller, &period).await {
            Ok(c) => c,
            Err(e) => return Reply::status(Status::UNPROCESSABLE_ENTITY).text(e.to_string()),
        };
        let body = serde_json::to_vec(&closed).expect("period serializes");
        self.journal.commit(sk.storage_key(), &body);
        guard.complete();
        Reply::bytes(Status::OK, body)
    }
}
