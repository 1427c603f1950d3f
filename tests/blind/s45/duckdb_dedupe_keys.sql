-- Analytics ingestion (DuckDB).
CREATE TABLE IF NOT EXISTS dedupe_keys (
    workspace_id VARCHAR NOT NULL,
    dedupe_key   VARCHAR NOT NULL,
    batch_id     VARCHAR NOT NULL,
    seen_at      TIMESTAMP DEFAULT current_timestamp,
    PRIMARY KEY (workspace_id, dedupe_key)
);

CREATE TABLE IF NOT EXISTS ingest_batches (
    batch_id VARCHAR PRIMARY KEY,
    workspace_id VARCHAR NOT NULL,
    rows_loaded BIGINT
);
