use crate::idem::GraphRecords;
use idem_scope::{scoped, Fingerprint};
use neo4rs::{query, Graph};
use rama::http::{HeaderMap, StatusCode};
use std::sync::Arc;

pub struct Viewer {
    pub tenant_id: String,
    pub user_id: String,
}

pub async fn follow(graph: Arc<Graph>, records: Arc<GraphRecords>, v: Viewer, headers: HeaderMap, target: String) -> Result<(), StatusCode> {
    let ck = headers.get("Idempotency-Key").and_then(|h| h.to_str().ok()).ok_or(StatusCode::BAD_REQUEST)?;
    let key = scoped(&v.tenant_id, &v.user_id, "follows.create", ck).map_err(|_| StatusCode::BAD_REQUEST)?;
    let fp = Fingerprint::of("follows.create", target.as_bytes());
    records.claim(&key, &fp).await.map_err(|_| StatusCode::CONFLICT)?;
    let guard = scopeguard::guard((records.clone(), key.clone()), |(r, k)| {
        tokio::spawn(async move {
            let _ = r.release(&k).await;
        });
    });
    let q = query("MATCH (a:User {id: $a}), (b:User {id: $b}) MERGE (a)-[:FOLLOWS]->(b)")
        .param("a", v.user_id.as_str())
        .param("b", target.as_str());
    graph.run(q).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    let (r, k) = scopeguard::ScopeGuard::into_inner(guard);
    r.complete(&k, b"followed").await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(())
}

pub async fn recount(graph: Arc<Graph>, tenant_id: &str) -> anyhow::Result<i64> {
    let mut txn = graph.start_txn().await?;
    let mut rows = txn.execute(query("MATCH (u:User {tenant: $t})-[f:FOLLOWS]->() RETURN count(f) AS n").param("t", tenant_id)).await?;
    let n: i64 = match rows.next(txn.handle()).await? {
        Some(row) => row.get("n")?,
        None => 0,
    };
    txn.commit().await?;
    Ok(n)
}
