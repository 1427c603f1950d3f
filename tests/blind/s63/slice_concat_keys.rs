use std::sync::atomic::{AtomicU64, Ordering};

use idem_scope::Problem;
use lsm_tree::{AbstractTree, Config, Tree};
use wherry::auth::Caller;
use wherry::{Ctx, Reply, Status};

pub struct BulkImports {
    replies: Tree,
    stats: Tree,
    seqno: AtomicU64,
    importer: importer::Pipeline,
}

impl BulkImports {
    pub fn open(dir: &std::path::Path, importer: importer::Pipeline) -> lsm_tree::Result<Self> {
        Ok(Self {
            replies: Config::new(dir.join("replies")).open()?,
            stats: Config::new(dir.join("stats")).open()?,
            seqno: AtomicU64::new(0),
            importer,
        })
    }

    fn next_seqno(&self) -> u64 {
        self.seqno.fetch_add(1, Ordering::AcqRel)
    }

    pub fn start_import(&self, ctx: &Ctx, caller: &Caller) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let route = "bulk_import";
        let key = [caller.team_id.as_bytes(), b"\x1e", caller.client_id.as_bytes(), b"\x1e", route.as_bytes(), b"\x1e", client_key.as_bytes()].concat();

        if let Ok(Some(done)) = self.replies.get(&key, None) {
            return Ok(Reply::bytes(Status::OK, done.to_vec()).header("Idempotent-Replayed", "true"));
        }
        let job = self
            .importer
            .submit(&caller.team_id, ctx.body())
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.replies.insert(key, job.to_json(), self.next_seqno());

        let counter_key = [caller.team_id.as_str(), "imports", "started"].concat();
        let current = self
            .stats
            .get(counter_key.as_bytes(), None)
            .ok()
            .flatten()
            .and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes))
            .unwrap_or(0);
        self.stats.insert(counter_key, (current + 1).to_be_bytes(), self.next_seqno());
        Ok(Reply::json(Status::ACCEPTED, &job))
    }
}
