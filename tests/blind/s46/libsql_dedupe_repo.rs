use libsql::{params, Connection};

pub struct DedupeRepo {
    conn: Connection,
}

pub struct Caller {
    pub org_id: String,
    pub uid: String,
}

impl DedupeRepo {
    pub async fn lookup(&self, who: &Caller, route: &str, headers: &[(String, String)]) -> libsql::Result<Option<String>> {
        let dedupe_ref = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("x-idempotency-key"))
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        let mut rows = self
            .conn
            .query(
                "SELECT response FROM idempotency_records WHERE tenant_id = ?1 AND principal_id = ?2 AND route = ?3 AND idem_key = ?4",
                params![who.org_id.clone(), who.uid.clone(), route, dedupe_ref.clone()],
            )
            .await?;
        match rows.next().await? {
            Some(row) => Ok(Some(row.get::<String>(0)?)),
            None => Ok(None),
        }
    }

    pub async fn lookup_by_ref(&self, headers: &[(String, String)]) -> libsql::Result<bool> {
        let dedupe_ref = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("x-idempotency-key"))
            .map(|(_, v)| v.clone());
        let Some(dedupe_ref) = dedupe_ref else { return Ok(false) };
        let mut rows = self
            .conn
            .query("SELECT 1 FROM idempotency_records WHERE idem_key = ?1", params![dedupe_ref])
            .await?;
        Ok(rows.next().await?.is_some())
    }
}
