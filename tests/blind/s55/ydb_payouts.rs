use idem_scope::{scoped, ScopedKey};
use relay::http::HeaderMap;
use ydb::{ydb_params, Query, TableClient, YdbResult};

pub struct YdbIdem {
    table: TableClient,
}

pub struct GatewayCtx {
    pub org_id: Option<String>,
    pub user_id: String,
    pub region: Option<String>,
}

impl YdbIdem {
    pub async fn load(&self, key: &ScopedKey) -> YdbResult<Option<Vec<u8>>> {
        let c = key.columns();
        let params = ydb_params!(
            "$tenant_id" => c.tenant_id.to_owned(),
            "$principal_id" => c.principal_id.to_owned(),
            "$route" => c.route.to_owned(),
            "$idem_key" => c.idem_key.to_owned()
        );
        self.table
            .retry_transaction(|tx| {
                let params = params.clone();
                async move {
                    let mut tx = tx;
                    let res = tx
                        .query(
                            Query::new(
                                "DECLARE $tenant_id AS Utf8; DECLARE $principal_id AS Utf8; \
                                 DECLARE $route AS Utf8; DECLARE $idem_key AS Utf8; \
                                 SELECT response FROM idempotency_records \
                                 WHERE tenant_id = $tenant_id AND principal_id = $principal_id \
                                 AND route = $route AND idem_key = $idem_key;",
                            )
                            .with_params(params),
                        )
                        .await?;
                    let row = res.into_only_result()?.rows().next();
                    Ok(row.map(|mut r| r.remove_field_by_name("response")).transpose()?.map(|v| v.try_into()).transpose()?)
                }
            })
            .await
            .map_err(Into::into)
    }
}

pub async fn replay_or_run(
    store: &YdbIdem,
    ctx: &GatewayCtx,
    headers: &HeaderMap,
    run: impl std::future::Future<Output = anyhow::Result<Vec<u8>>>,
) -> anyhow::Result<Vec<u8>> {
    let key = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
    let region = ctx.region.clone().unwrap_or_default();
    tracing::debug!(%region, "payout request");

    let org = ctx.org_id.clone().unwrap_or_else(|| "global".to_string());
    let sk = scoped(&org, &ctx.user_id, "payouts.create", key)?;
    if let Some(hit) = store.load(&sk).await? {
        return Ok(hit);
    }
    run.await
}
