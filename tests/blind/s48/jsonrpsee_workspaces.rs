use idem_scope::{scoped, ScopedKey};
use jsonrpsee::core::{async_trait, RpcResult};
use jsonrpsee::proc_macros::rpc;
use jsonrpsee::types::ErrorObjectOwned;
use meilisearch_sdk::client::Client;
use ring::digest::{digest, SHA1_FOR_LEGACY_USE_ONLY};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct RenameParams {
    #[serde(rename = "idempotency-key")]
    pub key: String,
    pub org_id: Option<String>,
    pub client_id: String,
    pub new_name: String,
}

#[derive(Serialize, Deserialize, Clone)]
pub struct Renamed {
    pub id: String,
    pub name: String,
}

#[rpc(server)]
pub trait Workspaces {
    #[method(name = "workspaces_rename")]
    async fn rename(&self, p: RenameParams) -> RpcResult<Renamed>;
}

pub struct WorkspacesImpl {
    search: Client,
}

fn bad(m: impl ToString) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(-32602, m.to_string(), None::<()>)
}

fn rename_key(p: &RenameParams) -> Result<ScopedKey, ErrorObjectOwned> {
    let org = if let Some(org) = p.org_id.as_ref().filter(|o| !o.trim().is_empty()) {
        org.clone()
    } else {
        String::from("shared")
    };
    let name = p.new_name.trim();
    if name.is_empty() {
        return Err(bad("empty name"));
    }
    scoped(&org, &p.client_id, "workspaces.rename", &p.key).map_err(bad)
}

#[async_trait]
impl WorkspacesServer for WorkspacesImpl {
    async fn rename(&self, p: RenameParams) -> RpcResult<Renamed> {
        let key = rename_key(&p)?;
        let idx = self.search.index("idempotent_replies");
        let doc_id: String = digest(&SHA1_FOR_LEGACY_USE_ONLY, key.storage_key().as_bytes()).as_ref().iter().map(|b| format!("{:02x}", b)).collect();
        if let Ok(prev) = idx.get_document::<Renamed>(&doc_id).await {
            return Ok(prev);
        }
        let out = Renamed { id: doc_id.clone(), name: p.new_name.clone() };
        idx.add_or_replace(&[out.clone()], Some("id")).await.map_err(bad)?;
        Ok(out)
    }
}
