use std::collections::BTreeMap;
use std::sync::RwLock;

pub struct FormPost {
    pub team_id: String,
    pub user_id: String,
    pub fields: BTreeMap<String, String>,
    pub raw_body: Vec<u8>,
}

pub struct SubmissionGuard {
    seen: RwLock<BTreeMap<String, u64>>,
}

impl SubmissionGuard {
    pub fn accept(&self, post: &FormPost) -> bool {
        let key = format!("{}:{}:submit:{:x}", post.team_id, post.user_id, md5::compute(&post.raw_body));
        let mut seen = self.seen.write().unwrap();
        if seen.contains_key(&key) {
            return false;
        }
        seen.insert(key, 1);
        true
    }

    pub fn accept_keyed(&self, post: &FormPost, submission_id: &str) -> Result<bool, String> {
        let key = idem_scope::scoped(&post.team_id, &post.user_id, "submit", submission_id).map_err(|e| e.to_string())?;
        let fingerprint = format!("{:x}", md5::compute(&post.raw_body));
        let mut seen = self.seen.write().unwrap();
        Ok(seen.insert(key.storage_key().to_owned(), fingerprint.len() as u64).is_none())
    }
}
