use fjall::{Config, PartitionCreateOptions, PartitionHandle};
use idem_scope::scoped;

pub struct DocVersions {
    replays: PartitionHandle,
    docs: DocStore,
}

pub struct SaveDoc<'a> {
    pub headers: &'a [(String, String)],
    pub org_id: &'a str,
    pub user_id: &'a str,
    pub doc_path: &'a str,
    pub body: &'a [u8],
}

impl DocVersions {
    pub fn open(dir: &str) -> fjall::Result<Self> {
        let ks = Config::new(dir).open()?;
        Ok(DocVersions { replays: ks.open_partition("doc_replays", PartitionCreateOptions::default())?, docs: DocStore::default() })
    }

    pub fn save_doc(&self, req: &SaveDoc<'_>) -> fjall::Result<String> {
        let mut save_token = req.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone()).unwrap_or_default();
        save_token.retain(|c| c != '/');
        let key = match scoped(req.org_id, req.user_id, "docs.save", &save_token) {
            Ok(k) => k,
            Err(e) => return Ok(format!("error: {e}")),
        };
        if let Some(v) = self.replays.get(key.storage_key())? {
            return Ok(String::from_utf8_lossy(&v).into_owned());
        }
        let mut path = req.doc_path.to_owned();
        path.retain(|c| c != '\0');
        let version = self.docs.write(req.org_id, &path, req.body);
        self.replays.insert(key.storage_key(), version.as_bytes())?;
        Ok(version)
    }
}
