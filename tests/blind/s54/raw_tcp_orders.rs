use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};

use gatehouse::blocking::TokenIndex;
use ledgerkit::blocking::ResponseCache;

struct Head {
    method: String,
    path: String,
    headers: HashMap<String, String>,
}

fn read_head(reader: &mut BufReader<&TcpStream>) -> std::io::Result<Head> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("GET").to_owned();
    let path = parts.next().unwrap_or("/").to_owned();
    let mut headers = HashMap::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((name, value)) = l.split_once(':') {
            let value = value.trim_matches(|c: char| c == ' ' || c == '\t');
            headers.insert(name.to_ascii_lowercase(), value.to_owned());
        }
    }
    Ok(Head { method, path, headers })
}

fn handle(stream: TcpStream, tokens: &TokenIndex, cache: &ResponseCache) -> std::io::Result<()> {
    let mut reader = BufReader::new(&stream);
    let head = read_head(&mut reader)?;
    let len: usize = head.headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0u8; len];
    reader.read_exact(&mut body)?;

    let Some(identity) = head.headers.get("authorization").and_then(|a| tokens.resolve(a)) else {
        return respond(&stream, 401, b"{}");
    };
    let Some(client_key) = head.headers.get("idempotency-key") else {
        return respond(&stream, 400, br#"{"title":"missing Idempotency-Key"}"#);
    };

    let mut slot = String::with_capacity(128);
    slot.push_str(&identity.tenant_id);
    slot.push('\u{1e}');
    slot.push_str(&identity.user_id);
    slot.push('\u{1e}');
    slot.push_str(&head.method);
    slot.push_str(&head.path);
    slot.push('\u{1e}');
    slot.push_str(client_key);

    if let Some(saved) = cache.get(&slot) {
        return respond(&stream, 200, &saved);
    }
    let out = orders::place(&identity, &body);
    cache.insert(&slot, out.clone());
    respond(&stream, 201, &out)
}

fn respond(mut stream: &TcpStream, status: u16, body: &[u8]) -> std::io::Result<()> {
    write!(stream, "HTTP/1.1 {} X\r\ncontent-length: {}\r\n\r\n", status, body.len())?;
    stream.write_all(body)
}

pub fn serve(addr: &str, tokens: TokenIndex, cache: ResponseCache) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr)?;
    for conn in listener.incoming() {
        let conn = conn?;
        if let Err(e) = handle(conn, &tokens, &cache) {
            eprintln!("connection error: {e}");
        }
    }
    Ok(())
}
