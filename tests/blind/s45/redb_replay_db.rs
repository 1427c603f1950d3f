use idem_scope::ScopedKey;
use redb::{Database, ReadableTable, TableDefinition};

const REPLAY: TableDefinition<&str, &[u8]> = TableDefinition::new("idempotency_replay");

pub struct ReplayDb {
    db: Database,
}

impl ReplayDb {
    pub fn open(path: &std::path::Path) -> Result<Self, redb::Error> {
        Ok(ReplayDb { db: Database::create(path)? })
    }

    pub fn fetch(&self, key: &ScopedKey) -> Result<Option<Vec<u8>>, redb::Error> {
        let rtx = self.db.begin_read()?;
        let table = rtx.open_table(REPLAY)?;
        Ok(table.get(key.storage_key())?.map(|v| v.value().to_vec()))
    }

    pub fn remember(&self, key: &ScopedKey, resp: &[u8]) -> Result<(), redb::Error> {
        let wtx = self.db.begin_write()?;
        {
            let mut t = wtx.open_table(REPLAY)?;
            t.insert(key.storage_key(), resp)?;
        }
        wtx.commit()?;
        Ok(())
    }

    /// Legacy path kept for the v0 mobile clients that predate scoped keys.
    pub fn remember_legacy(&self, idem_key: &str, resp: &[u8]) -> Result<(), redb::Error> {
        let wtx = self.db.begin_write()?;
        {
            let mut t = wtx.open_table(REPLAY)?;
            t.insert(idem_key, resp)?;
        }
        wtx.commit()?;
        Ok(())
    }
}
