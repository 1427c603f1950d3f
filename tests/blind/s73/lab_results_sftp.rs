//! Soil-lab results arrive as CSV files on the lab's SFTP server; this
//! poller imports each report once. Agronomists can also order a re-test
//! from the portal; both write to the same crock.

use std::io::Read;
use std::net::TcpStream;
use std::path::Path;

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Agronomist;
use furrow::{Petition, Ruling, Shared};
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use ssh2::Session;

pub struct LabSync {
    pub crock: Crock,
    pub host: String,
    pub user: String,
    pub key_path: String,
    pub lab_org: String,
    pub importer: ResultImporter,
}

#[derive(Deserialize)]
pub struct Retest {
    pub report_id: String,
    pub analytes: Vec<String>,
}

impl LabSync {
    pub async fn poll(&self) -> anyhow::Result<usize> {
        let tcp = TcpStream::connect((self.host.as_str(), 22))?;
        let mut sess = Session::new()?;
        sess.set_tcp_stream(tcp);
        sess.handshake()?;
        sess.userauth_pubkey_file(&self.user, None, Path::new(&self.key_path), None)?;
        let sftp = sess.sftp()?;
        let mut imported = 0;
        for (path, _stat) in sftp.readdir(Path::new("/outbound/results"))? {
            let Some(delivery_id) = path.file_stem().and_then(|s| s.to_str()).map(str::to_owned) else { continue };
            let mut csv = String::new();
            sftp.open(&path)?.read_to_string(&mut csv)?;
            let meta = self.importer.header(&csv)?;
            let key = scoped(&meta.org_id, &meta.user_id, "lab_result", &delivery_id)?;
            if self.crock.exists(key.storage_key()).await? {
                continue;
            }
            self.importer.import(&csv).await?;
            self.crock.put(key.storage_key(), Vec::new()).await?;
            let archived = format!("s:lab-archive:{delivery_id}");
            self.crock.put(&archived, csv.into_bytes()).await?;
            imported += 1;
        }
        Ok(imported)
    }
}

pub async fn order_retest(p: Petition, Shared(ls): Shared<LabSync>, a: Agronomist, Json(r): Json<Retest>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let key = match scoped(&a.org_id, &a.sub, "lab_retest", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = ls.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let order = ls.importer.request_retest(&r.report_id, &r.analytes).await;
    let body = furrow::codec::to_vec(&order).unwrap_or_default();
    let _ = ls.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}
