//! Box-office kiosk schema: the lobby kiosks run a 4D v20 back office, and
//! the sync agent creates its tables through 4D's SQL server on first run.

use crate::fourd::SqlSession;

const REPLAY_LEDGER: &str = "CREATE TABLE IF NOT EXISTS Replay_Ledger (
    Idem_Key VARCHAR(255) NOT NULL,
    Station_Code VARCHAR(16) NOT NULL,
    Route VARCHAR(128) NOT NULL,
    Response BLOB,
    Created TIMESTAMP,
    PRIMARY KEY (Idem_Key)
);";

const DEDUP_LOG: &str = "CREATE TABLE IF NOT EXISTS Dedup_Log (
    Tenant_ID VARCHAR(64) NOT NULL,
    User_ID VARCHAR(64) NOT NULL,
    Route VARCHAR(128) NOT NULL,
    Idem_Key VARCHAR(255) NOT NULL,
    Fingerprint VARCHAR(64) NOT NULL,
    Response BLOB,
    PRIMARY KEY (Tenant_ID, User_ID, Route, Idem_Key)
);";

const STUDIO_SESSIONS: &str = "CREATE TABLE IF NOT EXISTS Studio_Sessions (
    Token VARCHAR(64) NOT NULL PRIMARY KEY,
    Operator VARCHAR(64) NOT NULL,
    Expires TIMESTAMP
);";

pub fn create_all(session: &mut SqlSession) -> Result<(), crate::fourd::Error> {
    for ddl in [REPLAY_LEDGER, DEDUP_LOG, STUDIO_SESSIONS] {
        session.execute_immediate(ddl)?;
    }
    session.execute_immediate("CREATE INDEX IF NOT EXISTS Dedup_Log_Route ON Dedup_Log (Route);")?;
    Ok(())
}
