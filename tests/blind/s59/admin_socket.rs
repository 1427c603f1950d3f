use std::path::Path;

use sluice::kv::Kv;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};

use crate::config::OpsConfig;
use crate::refunds::operator_refund;

pub async fn serve(path: &Path, cfg: OpsConfig, replays: Kv) -> std::io::Result<()> {
    let listener = UnixListener::bind(path)?;
    loop {
        let (stream, _) = listener.accept().await?;
        let cfg = cfg.clone();
        let replays = replays.clone();
        tokio::spawn(async move {
            if let Err(e) = session(stream, &cfg, &replays).await {
                tracing::warn!(error = %e, "admin session ended");
            }
        });
    }
}

async fn session(stream: UnixStream, cfg: &OpsConfig, replays: &Kv) -> std::io::Result<()> {
    let uid = stream.peer_cred()?.uid();
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let org_id: String = match cfg.org_for_uid(uid) {
        Some(org) => org.to_owned(),
        None => Default::default(),
    };
    let user_id = format!("uid-{uid}");

    while let Some(raw) = lines.next_line().await? {
        let line = raw.trim_end_matches(['\r', '\n']);
        let mut parts = line.splitn(3, ' ');
        let (Some("REFUND"), Some(idem_key), Some(json)) = (parts.next(), parts.next(), parts.next()) else {
            write.write_all(b"ERR usage: REFUND <key> <json>\n").await?;
            continue;
        };
        if idem_key.len() > 255 {
            write.write_all(format!("ERR key {idem_key} is too long\n").as_bytes()).await?;
            continue;
        }
        let slot = (org_id.as_str(), user_id.as_str(), "ops.refund", idem_key);
        if let Ok(Some(prev)) = replays.get::<String>(&slot).await {
            write.write_all(format!("OK {prev} (replayed)\n").as_bytes()).await?;
            continue;
        }
        let refund_id = match operator_refund(&org_id, json).await {
            Ok(id) => id,
            Err(e) => {
                write.write_all(format!("ERR {e}\n").as_bytes()).await?;
                continue;
            }
        };
        let _ = replays.put(&slot, &refund_id).await;
        write.write_all(format!("OK {refund_id}\n").as_bytes()).await?;
    }
    Ok(())
}
