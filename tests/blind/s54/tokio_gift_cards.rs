use std::sync::Arc;

use gatehouse::tokens::TokenVerifier;
use idem_scope::scoped;
use ledgerkit::idem::AsyncKv;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

struct Shared {
    verifier: TokenVerifier,
    kv: AsyncKv,
}

async fn serve_conn(stream: TcpStream, shared: Arc<Shared>) -> anyhow::Result<()> {
    let (rd, mut wr) = stream.into_split();
    let mut rd = BufReader::new(rd);
    let mut request_line = String::new();
    rd.read_line(&mut request_line).await?;
    let (method, path) = request_line
        .split_once(' ')
        .map(|(m, rest)| (m.to_owned(), rest.split(' ').next().unwrap_or("/").to_owned()))
        .ok_or_else(|| anyhow::anyhow!("bad request line"))?;

    let mut bearer = None;
    let mut key = None;
    let mut tenant = None;
    let mut content_length = 0usize;
    loop {
        let mut line = String::new();
        if rd.read_line(&mut line).await? <= 2 {
            break;
        }
        let Some((name, value)) = line.trim_end().split_once(": ") else { continue };
        match name.to_ascii_lowercase().as_str() {
            "authorization" => bearer = value.strip_prefix("Bearer ").map(str::to_owned),
            "idempotency-key" => key = Some(value.to_owned()),
            "x-tenant" => tenant = Some(value.to_owned()),
            "content-length" => content_length = value.parse()?,
            _ => {}
        }
    }
    let mut body = vec![0; content_length];
    rd.read_exact(&mut body).await?;

    let (Some(key), Some(tenant)) = (key, tenant) else {
        wr.write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n").await?;
        return Ok(());
    };
    let user_id = match bearer {
        Some(tok) => shared.verifier.verify(&tok)?.user_id,
        None => "anonymous".to_string(),
    };
    let route = format!("{method} {path}");
    let sk = scoped(&tenant, &user_id, &route, &key)?;

    let reply = match shared.kv.get(sk.storage_key()).await? {
        Some(saved) => saved,
        None => {
            let issued = giftcards::issue(&tenant, &user_id, &body).await?;
            shared.kv.put(sk.storage_key(), &issued).await?;
            issued
        }
    };
    let status_line = format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n", reply.len());
    wr.write_all(status_line.as_bytes()).await?;
    wr.write_all(&reply).await?;
    Ok(())
}

pub async fn run(listener: TcpListener, shared: Arc<Shared>, mut stop: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _peer)) = accepted else { continue };
                let shared = shared.clone();
                tokio::spawn(async move {
                    if let Err(e) = serve_conn(stream, shared).await {
                        tracing::warn!(error = %e, "connection failed");
                    }
                });
            }
            _ = stop.changed() => break,
        }
    }
}
