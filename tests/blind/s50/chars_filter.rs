//! Attachment metadata endpoint; file names are slugged for the object store.
use http::HeaderMap;
use idem_scope::scoped;
use std::collections::BTreeMap;
use std::path::PathBuf;

pub struct Attachments {
    root: PathBuf,
    idem: BTreeMap<String, String>,
}

impl Attachments {
    pub fn attach(&mut self, h: &HeaderMap, org_id: &str, uid: &str, file_name: &str, bytes: &[u8]) -> std::io::Result<String> {
        let Some(k) = h.get("idempotency-key").and_then(|v| v.to_str().ok()) else {
            return Err(std::io::Error::other("400"));
        };
        let k: String = k.chars().filter(|c| *c != '\u{1e}').collect::<String>();
        let slug: String = file_name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '.').collect();
        let key = scoped(org_id, uid, "attachments.create", &k).map_err(|e| std::io::Error::other(e.to_string()))?;
        if let Some(prev) = self.idem.get(key.storage_key()) {
            return Ok(prev.clone());
        }
        std::fs::write(self.root.join(&slug), bytes)?;
        let out = format!("{{\"file\":\"{slug}\"}}");
        self.idem.insert(key.storage_key().to_owned(), out.clone());
        Ok(out)
    }
}

impl Attachments {
    pub fn list(&self) -> std::io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(&self.root)? {
            names.push(entry?.file_name().to_string_lossy().into_owned());
        }
        names.sort();
        Ok(names)
    }
}
