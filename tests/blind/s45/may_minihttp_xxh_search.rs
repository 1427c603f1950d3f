use std::io::{self, BufRead};
use std::sync::Arc;
use std::time::Duration;

use may_minihttp::{HttpService, Request, Response};
use moka::sync::Cache;
use xxhash_rust::xxh3::xxh3_64;

#[derive(Clone)]
pub struct ReportService {
    /// Saved report runs (dedup), so a double-clicked "Run" does not bill twice.
    run_dedup: Cache<(String, String, String, u64), Arc<Vec<u8>>>,
    /// Read-through cache for the public catalogue; keyed by the request target (path and query string).
    catalogue: Cache<u64, Arc<Vec<u8>>>,
    engine: Arc<ReportEngine>,
}

impl ReportService {
    pub fn new(engine: Arc<ReportEngine>) -> Self {
        ReportService {
            run_dedup: Cache::builder().time_to_live(Duration::from_secs(600)).build(),
            catalogue: Cache::new(10_000),
            engine,
        }
    }
}

impl HttpService for ReportService {
    fn call(&mut self, req: Request, rsp: &mut Response) -> io::Result<()> {
        let path = req.path().to_owned(); // includes the query string
        let who = self.engine.authenticate(req.headers());
        let mut body = req.body();
        let bytes = body.fill_buf()?.to_vec();
        match (path.as_str(), who) {
            ("/reports/run", Some(who)) => {
                let route = "reports.run";
                let run_key = (who.tenant_id.clone(), who.user_id.clone(), route.to_owned(), xxh3_64(&bytes));
                let out = match self.run_dedup.get(&run_key) {
                    Some(hit) => hit,
                    None => {
                        let out = Arc::new(self.engine.run(&who.tenant_id, &bytes));
                        self.run_dedup.insert(run_key, out.clone());
                        out
                    }
                };
                rsp.body_vec(out.to_vec());
            }
            ("/catalogue/search", _) => {
                let q_hash = xxh3_64(path.as_bytes());
                let out = self.catalogue.get_with(q_hash, || Arc::new(self.engine.search_public(&path)));
                rsp.body_vec(out.to_vec());
            }
            _ => {
                rsp.status_code(404, "Not Found");
            }
        }
        Ok(())
    }
}
