use idem_scope::{scoped, ScopedKey};
use relay::http::HeaderMap;
use tokio_rusqlite::{params, Connection};

pub struct IdemStore {
    kv: ferrum::kv::SharedKv,
}

impl IdemStore {
    pub async fn contains_key(&self, sk: &ScopedKey) -> anyhow::Result<bool> {
        Ok(self.kv.get(sk.storage_key()).await?.is_some())
    }
    pub async fn put(&self, sk: &ScopedKey, location: &str) -> anyhow::Result<()> {
        Ok(self.kv.put(sk.storage_key(), location.as_bytes()).await?)
    }
}

struct DueJob {
    id: i64,
    tenant_id: String,
    owner_id: String,
    report: String,
}

pub struct Exports {
    idem: IdemStore,
    conn: Connection,
    renderer: reports::Renderer,
}

impl Exports {
    pub async fn request_export(&self, tenant_id: &str, user_id: &str, headers: &HeaderMap, report: &str) -> anyhow::Result<String> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 Idempotency-Key required"))?;
        let sk = scoped(tenant_id, user_id, "exports.request", key)?;
        if self.idem.contains_key(&sk).await? {
            return Ok("duplicate".into());
        }
        let location = self.renderer.render_to_blob(tenant_id, report).await?;
        self.idem.put(&sk, &location).await?;
        Ok(location)
    }

    pub async fn run_due(&self) -> anyhow::Result<usize> {
        let due: Vec<DueJob> = self
            .conn
            .call(|c| {
                let mut st = c.prepare(
                    "SELECT id, tenant_id, owner_id, report FROM scheduled_exports WHERE due_at <= unixepoch() LIMIT 50",
                )?;
                let rows = st.query_map(params![], |r| {
                    Ok(DueJob { id: r.get(0)?, tenant_id: r.get(1)?, owner_id: r.get(2)?, report: r.get(3)? })
                })?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            })
            .await?;

        let mut done = 0;
        for job in due {
            let sk = scoped(&job.tenant_id, &job.owner_id, "exports.request", &job.id.to_string())?;
            if self.idem.contains_key(&sk).await? {
                continue;
            }
            let location = self.renderer.render_to_blob(&job.tenant_id, &job.report).await?;
            self.idem.put(&sk, &location).await?;
            done += 1;
        }
        Ok(done)
    }
}
