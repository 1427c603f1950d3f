use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::Mutex;

#[derive(Deserialize)]
pub struct RpcCall {
    pub method: String,
    pub org: String,
    pub principal: String,
    #[serde(rename = "Idempotency-Key")]
    pub retry_token: Option<String>,
    pub args: Vec<u8>,
}

#[derive(Serialize)]
pub struct RpcReply {
    pub ok: bool,
    pub data: Vec<u8>,
}

pub async fn serve(listener: TcpListener, seen: &Mutex<BTreeMap<String, Vec<u8>>>) -> anyhow::Result<()> {
    loop {
        let (mut sock, _) = listener.accept().await?;
        let mut buf = Vec::new();
        sock.read_to_end(&mut buf).await?;
        let call: RpcCall = rmp_serde::from_slice(&buf)?;
        let Some(token) = call.retry_token.as_deref() else {
            continue;
        };
        let mut k = String::new();
        write!(k, "{}/{}/{}/{}", call.org, call.principal, call.method, token)?;
        let mut seen = seen.lock().await;
        let data = seen.entry(k).or_insert_with(|| call.args.clone()).clone();
        let reply = rmp_serde::to_vec(&RpcReply { ok: true, data })?;
        sock.write_all(&reply).await?;
    }
}
