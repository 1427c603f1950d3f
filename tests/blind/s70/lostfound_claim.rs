//! Lost-and-found claim records; a library used by the concierge tools.
use coffer::drawer::Drawer;

pub struct ClaimDesk {
    pub kv: Drawer,
}

impl ClaimDesk {
    /// Remembers the answer for a claim form submission.
    pub async fn remember(&self, idem_key: &str, answer: &[u8]) -> anyhow::Result<()> {
        self.kv.put(idem_key, answer).await?;
        Ok(())
    }

    /// Looks up an item by its tag number printed on the bag.
    pub async fn item(&self, tag_number: &str) -> anyhow::Result<Option<Vec<u8>>> {
        Ok(self.kv.get(tag_number).await?)
    }

    pub fn describe(&self, idem_key: &str) -> String {
        format!("claim submission {idem_key}")
    }
}
