use duckdb::{params, Connection};

pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS import_dedup (
    dedup_key VARCHAR PRIMARY KEY,
    job_id VARCHAR NOT NULL,
    created_at TIMESTAMP DEFAULT current_timestamp
);
CREATE TABLE IF NOT EXISTS import_jobs (
    job_id VARCHAR PRIMARY KEY,
    tenant_id VARCHAR NOT NULL,
    source_uri VARCHAR NOT NULL
);
"#;

pub struct ImportJobs {
    conn: Connection,
}

pub struct ImportRequest {
    pub headers: Vec<(String, String)>,
    pub tenant_id: String,
    pub user_id: String,
    pub source_uri: String,
}

impl ImportJobs {
    pub fn open(path: &str) -> duckdb::Result<Self> {
        let conn = Connection::open(path)?;
        conn.execute_batch(SCHEMA)?;
        Ok(ImportJobs { conn })
    }

    pub fn submit_import(&self, req: &ImportRequest) -> duckdb::Result<String> {
        let import_token = req.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone()).unwrap_or_default();
        let clean: String = import_token.chars().filter(|c| *c != '#').collect();
        let dedup_key = [req.tenant_id.as_str(), req.user_id.as_str(), "imports.submit", clean.as_str()].join("#");
        let existing: Option<String> = self.conn.query_row("SELECT job_id FROM import_dedup WHERE dedup_key = ?", params![dedup_key], |r| r.get(0)).ok();
        if let Some(job_id) = existing {
            return Ok(job_id);
        }
        let job_id = uuid::Uuid::new_v4().to_string();
        self.conn.execute("INSERT INTO import_jobs (job_id, tenant_id, source_uri) VALUES (?, ?, ?)", params![job_id, req.tenant_id, req.source_uri])?;
        self.conn.execute("INSERT INTO import_dedup (dedup_key, job_id) VALUES (?, ?)", params![dedup_key, job_id])?;
        Ok(job_id)
    }
}
