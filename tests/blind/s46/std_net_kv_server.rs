use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

struct Request {
    tenant: String,
    principal: String,
    route: String,
    headers: Vec<(String, String)>,
}

fn read_request(reader: &mut impl BufRead) -> Option<Request> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    Some(Request { tenant: String::new(), principal: String::new(), route: line, headers: vec![] })
}

pub fn serve(addr: &str) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr)?;
    let mut responses: BTreeMap<String, String> = BTreeMap::new();
    for stream in listener.incoming() {
        let mut stream = stream?;
        let mut reader = BufReader::new(stream.try_clone()?);
        let Some(req) = read_request(&mut reader) else { continue };
        let x_req_key = req
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(IDEMPOTENCY_HEADER))
            .map(|(_, v)| v.trim().to_string());
        let Some(x_req_key) = x_req_key else {
            stream.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n")?;
            continue;
        };
        let principal = req.principal.replace(':', "_");
        let storage = idem_scope::scoped(&req.tenant, &principal, &req.route, &x_req_key);
        let Ok(storage) = storage else { continue };
        if let Some(prev) = responses.get(storage.storage_key()) {
            stream.write_all(prev.as_bytes())?;
            continue;
        }
        let body = "HTTP/1.1 201 Created\r\n\r\n".to_string();
        responses.insert(storage.storage_key().to_string(), body.clone());
        stream.write_all(body.as_bytes())?;
    }
    Ok(())
}
