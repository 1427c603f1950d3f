use std::sync::Arc;

use idem_scope::Problem;
use serde::Deserialize;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

pub trait ReplayStore: Send + Sync {
    fn load(&self, owner: &str, key: &str) -> Option<Vec<u8>>;
    fn save(&self, owner: &str, key: &str, value: Vec<u8>);
}

pub trait QuadStore: Send + Sync {
    fn load(&self, tenant: &str, principal: &str, route: &str, key: &str) -> Option<Vec<u8>>;
    fn save(&self, tenant: &str, principal: &str, route: &str, key: &str, value: Vec<u8>);
}

struct PostingCtx {
    org_id: String,
    user_id: String,
    client_key: String,
}

#[derive(Deserialize)]
pub struct Posting {
    debit: String,
    credit: String,
    amount_minor: i64,
}

pub struct LedgerApi {
    postings: Arc<dyn ReplayStore>,
    reversals: Arc<dyn QuadStore>,
    books: books::Books,
}

fn posting_ctx(ctx: &Ctx) -> Result<PostingCtx, Problem> {
    let caller = ctx.caller().ok_or_else(|| Problem::invalid_key("unauthenticated"))?;
    let org_id = caller.org_id.clone().ok_or_else(|| Problem::invalid_key("caller has no organisation"))?;
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
    Ok(PostingCtx { org_id, user_id: caller.user_id.clone(), client_key })
}

fn journal_coords(p: &PostingCtx) -> (String, String) {
    (p.org_id.clone(), p.client_key.clone())
}

fn reversal_coords(p: &PostingCtx) -> (String, String, &'static str, String) {
    (p.org_id.clone(), p.user_id.clone(), "ledger.reverse", p.client_key.clone())
}

impl LedgerApi {
    pub fn post(&self, ctx: &Ctx, Json(posting): Json<Posting>) -> Reply {
        let pctx = match posting_ctx(ctx) {
            Ok(p) => p,
            Err(problem) => return Reply::problem(problem),
        };
        let (owner, k) = journal_coords(&pctx);
        if let Some(prev) = self.postings.load(&owner, &k) {
            return Reply::bytes(Status::OK, prev);
        }
        let entry = self.books.post(&posting.debit, &posting.credit, posting.amount_minor);
        self.postings.save(&owner, &k, entry.to_bytes());
        Reply::bytes(Status::CREATED, entry.to_bytes())
    }

    pub fn reverse(&self, ctx: &Ctx, entry_id: u64) -> Reply {
        let pctx = match posting_ctx(ctx) {
            Ok(p) => p,
            Err(problem) => return Reply::problem(problem),
        };
        let (t, p, r, k) = reversal_coords(&pctx);
        if let Some(prev) = self.reversals.load(&t, &p, r, &k) {
            return Reply::bytes(Status::OK, prev);
        }
        let entry = self.books.reverse(entry_id);
        self.reversals.save(&t, &p, r, &k, entry.to_bytes());
        Reply::bytes(Status::CREATED, entry.to_bytes())
    }
}
