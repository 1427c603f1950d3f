//! Schema migrations for the point-of-sale back office, which still runs on
//! Actian Zen (Pervasive PSQL) v15 at the franchise sites.

use schemamama::{migration, Migration, Migrator, Version};
use skerry::sql::{Link, SqlError};

pub trait ZenMigration: Migration {
    fn up(&self, link: &Link) -> Result<(), SqlError>;
    fn down(&self, _link: &Link) -> Result<(), SqlError> {
        Ok(())
    }
}

struct CreateDedupRequests;
migration!(CreateDedupRequests, 2023_11_02_01, "dedup table for till requests");

impl ZenMigration for CreateDedupRequests {
    fn up(&self, link: &Link) -> Result<(), SqlError> {
        link.execute_batch(
            "CREATE TABLE dedup_requests IN DICTIONARY (
                id          IDENTITY      NOT NULL,
                tenant_id   VARCHAR(64)   NOT NULL,
                principal_id VARCHAR(64)  NOT NULL,
                route       VARCHAR(64)   NOT NULL,
                idem_key    VARCHAR(255)  NOT NULL,
                status      VARCHAR(16)   NOT NULL,
                body        LONGVARBINARY,
                PRIMARY KEY (id)
            );
            CREATE UNIQUE INDEX dedup_requests_key ON dedup_requests (idem_key);",
        )
    }

    fn down(&self, link: &Link) -> Result<(), SqlError> {
        link.execute_batch("DROP TABLE dedup_requests IN DICTIONARY;")
    }
}

struct CreateReplayBodies;
migration!(CreateReplayBodies, 2023_11_02_02, "cached till responses");

impl ZenMigration for CreateReplayBodies {
    fn up(&self, link: &Link) -> Result<(), SqlError> {
        link.execute_batch(
            "CREATE TABLE replay_bodies IN DICTIONARY (
                route       VARCHAR(64)   NOT NULL,
                idem_key    VARCHAR(255)  NOT NULL,
                status_code SMALLINT      NOT NULL,
                body        LONGVARBINARY,
                PRIMARY KEY (route, idem_key)
            );",
        )
    }
}

struct ScopeDedupRequests;
migration!(ScopeDedupRequests, 2024_03_18_01, "unique scope on dedup_requests");

impl ZenMigration for ScopeDedupRequests {
    fn up(&self, link: &Link) -> Result<(), SqlError> {
        link.execute_batch(
            "CREATE UNIQUE INDEX dedup_requests_scope ON dedup_requests (tenant_id, principal_id, route, idem_key);",
        )
    }
}

pub fn migrator(link: Link) -> Migrator<Link> {
    let mut m = Migrator::new(link);
    m.register(Box::new(CreateDedupRequests));
    m.register(Box::new(CreateReplayBodies));
    m.register(Box::new(ScopeDedupRequests));
    m
}

pub fn current_version(m: &Migrator<Link>) -> Option<Version> {
    m.current_version().ok().flatten()
}
