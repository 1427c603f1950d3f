//! Local database of the pilot boat laptops (FrontBase, embedded). Boarding
//! confirmations are queued here while the boat has no connectivity and
//! sent to the pilot station later.

use frontbase::Connection;

const SCHEMA: &str = r#"
CREATE SCHEMA "PILOT" AUTHORIZATION "_SYSTEM";
SET SCHEMA "PILOT";

CREATE TABLE "IDEMPOTENCY_RECEIPTS" (
    "IDEM_KEY" CHARACTER VARYING(255) NOT NULL PRIMARY KEY,
    "ORG_ID" CHARACTER VARYING(64) NOT NULL,
    "UID" CHARACTER VARYING(64) NOT NULL,
    "ROUTE" CHARACTER VARYING(128) NOT NULL,
    "RECEIPT" BLOB,
    "STORED_AT" TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE "REPLAY_QUEUE" (
    "ROW_ID" INTEGER NOT NULL PRIMARY KEY,
    "ORG_ID" CHARACTER VARYING(64) NOT NULL,
    "UID" CHARACTER VARYING(64) NOT NULL,
    "ROUTE" CHARACTER VARYING(128) NOT NULL,
    "IDEM_KEY" CHARACTER VARYING(255) NOT NULL,
    "BODY" BLOB NOT NULL,
    "QUEUED_AT" TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE UNIQUE INDEX "REPLAY_QUEUE_SCOPE" ON "REPLAY_QUEUE" ("ORG_ID", "UID", "ROUTE", "IDEM_KEY");

CREATE TABLE "BOARDINGS" (
    "BOARDING_NO" CHARACTER VARYING(32) NOT NULL PRIMARY KEY,
    "IMO" CHARACTER(7) NOT NULL,
    "EVENT" CHARACTER VARYING(16) NOT NULL,
    "AT" TIMESTAMP WITH TIME ZONE NOT NULL
);

SET UNIQUE = (SELECT MAX("ROW_ID") FROM "REPLAY_QUEUE");
COMMIT;
"#;

pub fn install(conn: &mut Connection) -> Result<(), frontbase::Error> {
    for stmt in SCHEMA.split(";\n").map(str::trim).filter(|s| !s.is_empty()) {
        conn.execute(stmt)?;
    }
    Ok(())
}
