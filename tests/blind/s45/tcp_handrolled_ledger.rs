//! Minimal HTTP/1.1 ledger endpoint on raw tokio sockets (no framework).

use std::collections::HashMap;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

const IDEMPOTENCY_HEADER: &str = "idempotency-key";

struct RawRequest {
    method: String,
    path: String,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

async fn read_request(stream: &mut BufReader<TcpStream>) -> std::io::Result<RawRequest> {
    let mut line = String::new();
    stream.read_line(&mut line).await?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("GET").to_owned();
    let path = parts.next().unwrap_or("/").to_owned();
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        stream.read_line(&mut h).await?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((name, value)) = h.split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_owned());
        }
    }
    let len: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0u8; len];
    stream.read_exact(&mut body).await?;
    Ok(RawRequest { method, path, headers, body })
}

fn http_response(status: u16, text: &str) -> Vec<u8> {
    format!("HTTP/1.1 {status} X\r\ncontent-length: {}\r\n\r\n{text}", text.len()).into_bytes()
}

async fn serve_post(req: RawRequest, kv: &LedgerKv) -> Vec<u8> {
    let trace = req.headers.get("x-request-id").cloned().unwrap_or_default();
    eprintln!("[{trace}] {} {}", req.method, req.path);
    let Some(entry_ref) = req.headers.get(IDEMPOTENCY_HEADER) else {
        return http_response(400, "missing idempotency-key");
    };
    let Some(tenant) = req.headers.get("x-tenant") else {
        return http_response(401, "no tenant");
    };
    let Some(user_id) = req.headers.get("x-user") else {
        return http_response(401, "no user");
    };
    let route = req.path.clone();
    let mut storage_key = String::with_capacity(128);
    storage_key.push_str(tenant);
    storage_key.push('\u{1e}');
    storage_key.push_str(user_id);
    storage_key.push('\u{1e}');
    storage_key.push_str(&route);
    storage_key.push('\u{1e}');
    storage_key.push_str(entry_ref);
    if let Some(prev) = kv.get(storage_key.as_bytes()).await {
        return prev;
    }
    let resp = match kv.post_entry(tenant, &req.body).await {
        Ok(id) => http_response(201, &id),
        Err(e) => http_response(422, &e.to_string()),
    };
    kv.put(storage_key.as_bytes(), &resp).await;
    resp
}

pub async fn run(addr: &str, kv: LedgerKv) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    loop {
        let (sock, _) = listener.accept().await?;
        let kv = kv.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::new(sock);
            if let Ok(req) = read_request(&mut reader).await {
                let out = serve_post(req, &kv).await;
                let _ = reader.get_mut().write_all(&out).await;
            }
        });
    }
}
