//! Replay cache on nebari; used by the CLI sync daemon (callers live in another crate).
use nebari::tree::{Root, Unversioned};
use nebari::{Config, Roots, Tree};

pub trait KvStore: Send + Sync {
    fn get(&self, key: &[u8]) -> Option<Vec<u8>>;
    fn set(&self, key: &[u8], value: Vec<u8>);
}

pub struct NebariStore {
    tree: Tree<Unversioned, nebari::io::fs::StdFile>,
}

impl KvStore for NebariStore {
    fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.tree.get(key).ok().flatten().map(|b| b.to_vec())
    }
    fn set(&self, key: &[u8], value: Vec<u8>) {
        let _ = self.tree.set(key.to_vec(), value);
    }
}

pub fn open(path: &std::path::Path) -> nebari::Result<NebariStore> {
    let roots = Config::default_for(path).open()?;
    let tree = roots.tree(Unversioned::tree("replay"))?;
    Ok(NebariStore { tree })
}

pub fn replayed(cache: &dyn KvStore, idem_key: &str) -> Option<Vec<u8>> {
    cache.get(idem_key.as_bytes())
}

pub fn checkpoint(cache: &dyn KvStore, device_id: &str, cursor: u64) {
    let key = [b"cursor/".as_slice(), device_id.as_bytes()].concat();
    cache.set(&key, cursor.to_be_bytes().to_vec());
}
