pub struct Migration {
    pub id: u32,
    pub sql: String,
}

pub fn migrations() -> Vec<Migration> {
    vec![
        Migration {
            id: 7,
            sql: "CREATE TABLE IF NOT EXISTS idempotency_cache (cache_key VARCHAR(255) NOT NULL, tenant_id VARCHAR(64) NOT NULL, response TEXT, CONSTRAINT idempotency_cache_pk PRIMARY KEY (tenant_id, cache_key))".to_string(),
        },
        Migration {
            id: 8,
            sql: "CREATE TABLE audit_events (id BIGSERIAL PRIMARY KEY, idempotency_key TEXT, body JSONB)".to_string(),
        },
    ]
}
