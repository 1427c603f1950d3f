//! Read side of the replay table, linked into the gateway and the batch importer.

use dunlin::kv::BlockingKv;
use dunlin::records::Records;

pub struct ReplayView<'a> {
    pub store: &'a BlockingKv,
}

impl<'a> ReplayView<'a> {
    pub fn lookup(&self, idempotency_key: &str) -> Option<Vec<u8>> {
        self.store.get(idempotency_key).ok().flatten()
    }

    pub fn shard_of(&self, idem_key: u64, shards: u64) -> Option<Vec<u8>> {
        let bucket = idem_key % shards;
        self.store.get(&bucket.to_string()).ok().flatten()
    }
}

pub trait ResponseArchive {
    fn fetch(&self, idem_key: &str) -> Option<Vec<u8>>;
}

impl ResponseArchive for Records {
    fn fetch(&self, idem_key: &str) -> Option<Vec<u8>> {
        self.load(idem_key).ok().flatten().map(|r| r.body)
    }
}

/// Page sizes accepted by list endpoints of this module.
pub(crate) fn clamp_page_size(requested: Option<u32>) -> u32 {
    match requested {
        Some(0) => 1,
        Some(n) if n > 200 => 200,
        Some(n) => n,
        None => 50,
    }
}

#[cfg(test)]
mod paging_tests {
    use super::clamp_page_size;

    #[test]
    fn page_size_bounds() {
        assert_eq!(clamp_page_size(Some(0)), 1);
        assert_eq!(clamp_page_size(Some(500)), 200);
    }

    #[test]
    fn page_size_default() {
        assert_eq!(clamp_page_size(None), 50);
        assert_eq!(clamp_page_size(Some(20)), 20);
    }
}
