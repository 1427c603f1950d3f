use std::sync::Arc;

use idem_scope::Problem;
use serde_pickle::SerOptions;
use speedb::{Options, DB};
use wherry::auth::Caller;
use wherry::{Ctx, Reply, Status};

pub struct Shipments {
    db: Arc<DB>,
    carrier: Arc<carrier::Gateway>,
}

fn pickled<T: serde::Serialize>(value: &T) -> Vec<u8> {
    serde_pickle::to_vec(value, SerOptions::new()).expect("tuples of strings always pickle")
}

impl Shipments {
    pub fn open(path: &str, carrier: Arc<carrier::Gateway>) -> Result<Self, speedb::Error> {
        let mut opts = Options::default();
        opts.create_if_missing(true);
        Ok(Self { db: Arc::new(DB::open(&opts, path)?), carrier })
    }

    pub fn book_label(&self, ctx: &Ctx, caller: &Caller) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let db_key = pickled(&(caller.org_id.as_str(), caller.user_id.as_str(), client_key));

        if let Ok(Some(done)) = self.db.get(&db_key) {
            return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
        }
        let label = self.carrier.book(&caller.org_id, ctx.body()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.db.put(&db_key, label.pdf()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        Ok(Reply::bytes(Status::CREATED, label.pdf()))
    }

    pub fn void_label(&self, ctx: &Ctx, caller: &Caller) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let route = "void_label";
        let db_key = pickled(&(caller.org_id.as_str(), caller.user_id.as_str(), route, client_key));

        if let Ok(Some(done)) = self.db.get(&db_key) {
            return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
        }
        let ack = self.carrier.void(&caller.org_id, ctx.body()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.db.put(&db_key, ack.to_json()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        Ok(Reply::bytes(Status::OK, ack.to_json()))
    }
}
