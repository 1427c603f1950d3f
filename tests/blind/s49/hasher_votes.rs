//! Poll voting endpoint. Dedup of repeated submissions via the shared cache.
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

#[derive(serde::Deserialize, Hash)]
pub struct VoteInput {
    pub poll_id: u64,
    pub choice: u32,
    pub comment: Option<String>,
}

pub struct Votes {
    pub dedup: crate::cache::SharedCache,
    pub experiments: crate::cache::SharedCache,
}

impl Votes {
    pub async fn cast(&self, team_id: &str, user_id: &str, req: &http::Request<Vec<u8>>) -> Result<u32, crate::Error> {
        let input: VoteInput = sonic_rs::from_slice(req.body())?;
        let mut hasher = DefaultHasher::new();
        input.hash(&mut hasher);
        let payload_hash = hasher.finish();
        let action = "poll.vote";
        let dedup_key = format!("{team_id}/{user_id}/{action}/{payload_hash:016x}");

        if self.dedup.contains_key(&dedup_key).await {
            return Err(crate::Error::Duplicate);
        }
        let tally = crate::polls::record(team_id, input.poll_id, input.choice).await?;
        self.dedup.insert(&dedup_key, tally.to_string()).await;
        Ok(tally)
    }

    pub async fn variant(&self, user_id: &str) -> u8 {
        let mut h = DefaultHasher::new();
        user_id.hash(&mut h);
        let bucket = (h.finish() % 2) as u8;
        self.experiments.insert(&format!("ab/{user_id}"), bucket.to_string()).await;
        bucket
    }
}
