use memcache::Client;
use sha3::{Digest, Sha3_512};
use siphasher::sip::SipHasher13;
use std::hash::Hasher;

pub struct Sessions {
    pub memc: Client,
    pub pepper: [u8; 16],
}

#[derive(Debug)]
pub struct SessionData {
    pub user_id: String,
    pub org_id: String,
}

impl Sessions {
    fn token_slot(&self, token: &str) -> String {
        let mut h = Sha3_512::new();
        h.update(self.pepper);
        h.update(token.as_bytes());
        format!("sess:{}", hex::encode(h.finalize()))
    }

    pub fn load(&self, bearer: &str) -> Option<SessionData> {
        let raw: String = self.memc.get(&self.token_slot(bearer)).ok()??;
        let (user_id, org_id) = raw.split_once('|')?;
        Some(SessionData { user_id: user_id.into(), org_id: org_id.into() })
    }

    pub fn store(&self, bearer: &str, data: &SessionData) -> Result<(), memcache::MemcacheError> {
        let value = format!("{}|{}", data.user_id, data.org_id);
        self.memc.set(&self.token_slot(bearer), value.as_str(), 3_600)
    }

    pub fn bucket(&self, user_id: &str) -> u64 {
        let mut h = SipHasher13::new_with_keys(1, 2);
        h.write(user_id.as_bytes());
        h.finish() % 64
    }
}
