use fjall::{Config, Keyspace, PartitionCreateOptions, PartitionHandle};
use tiny_http::{Request, Response};

pub struct DedupStore {
    keyspace: Keyspace,
    dedup: PartitionHandle,
}

fn hdr(req: &Request, name: &str) -> Option<String> {
    req.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str().to_owned())
}

impl DedupStore {
    pub fn open(dir: &str) -> fjall::Result<Self> {
        let keyspace = Config::new(dir).open()?;
        let dedup = keyspace.open_partition("dedup_responses", PartitionCreateOptions::default())?;
        Ok(DedupStore { keyspace, dedup })
    }

    /// Read-only lookup used by the status endpoint.
    pub fn status(&self, req: &Request) -> fjall::Result<Response<std::io::Cursor<Vec<u8>>>> {
        let Some(token) = hdr(req, "X-Idempotency-Key") else {
            return Ok(Response::from_string("missing key").with_status_code(400));
        };
        let Some(tenant_id) = hdr(req, "X-Tenant") else {
            return Ok(Response::from_string("missing tenant").with_status_code(401));
        };
        let k = [tenant_id.as_bytes(), b"\0", token.as_bytes()].concat();
        match self.dedup.get(&k)? {
            Some(v) => Ok(Response::from_data(v.to_vec())),
            None => Ok(Response::from_string("unknown").with_status_code(404)),
        }
    }

    pub fn record_response(&self, req: &Request, user: &AuthedUser, resp: &[u8]) -> fjall::Result<()> {
        let Some(token) = hdr(req, "X-Idempotency-Key") else {
            return Ok(());
        };
        let route = req.url().to_owned();
        let mut buf = Vec::with_capacity(96);
        buf.extend_from_slice(user.tenant_id.as_bytes());
        buf.push(0);
        buf.extend_from_slice(user.user_id.as_bytes());
        buf.push(0);
        buf.extend_from_slice(route.as_bytes());
        buf.push(0);
        buf.extend_from_slice(token.as_bytes());
        self.dedup.insert(&buf, resp)?;
        self.keyspace.persist(fjall::PersistMode::SyncAll)
    }
}
