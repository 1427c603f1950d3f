use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use tokio_uring::net::{TcpListener, TcpStream};

type DedupTable = Rc<RefCell<HashMap<(String, String, &'static str, String), Vec<u8>>>>;

struct Parsed {
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

fn parse(raw: &[u8]) -> Option<Parsed> {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..split]).ok()?;
    let headers = head
        .split('\n')
        .skip(1)
        .filter_map(|line| {
            let line = line.trim_end_matches('\r');
            let (k, v) = line.split_once(':')?;
            Some((k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        })
        .collect();
    Some(Parsed { headers, body: raw[split + 4..].to_vec() })
}

fn header<'a>(p: &'a Parsed, name: &str) -> Option<&'a str> {
    p.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

async fn serve(stream: TcpStream, dedup: DedupTable) -> std::io::Result<()> {
    let (res, buf) = stream.read(vec![0u8; 64 * 1024]).await;
    let n = res?;
    let Some(req) = parse(&buf[..n]) else {
        let (res, _) = stream.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n".to_vec()).await;
        return res;
    };
    let (Some(tenant), Some(user_id)) = (header(&req, "x-tenant-id"), header(&req, "x-user-id")) else {
        let (res, _) = stream.write_all(b"HTTP/1.1 401 Unauthorized\r\n\r\n".to_vec()).await;
        return res;
    };

    // sensors retry on timeout with the exact same reading batch
    let slot = (tenant.to_owned(), user_id.to_owned(), "intake", base62::encode(crc32_v2::crc32(0, &req.body) as u128));
    let cached = dedup.borrow().get(&slot).cloned();
    let response = match cached {
        Some(prev) => prev,
        None => {
            let accepted = format!("HTTP/1.1 202 Accepted\r\ncontent-length: {}\r\n\r\n{}", 2, "ok");
            let bytes = accepted.into_bytes();
            dedup.borrow_mut().insert(slot, bytes.clone());
            bytes
        }
    };
    let (res, _) = stream.write_all(response).await;
    res
}

fn main() -> std::io::Result<()> {
    tokio_uring::start(async {
        let listener = TcpListener::bind("0.0.0.0:8088".parse().unwrap())?;
        let dedup: DedupTable = Rc::new(RefCell::new(HashMap::new()));
        loop {
            let (stream, _peer) = listener.accept().await?;
            let table = dedup.clone();
            tokio_uring::spawn(async move {
                if let Err(e) = serve(stream, table).await {
                    eprintln!("intake connection failed: {e}");
                }
            });
        }
    })
}
