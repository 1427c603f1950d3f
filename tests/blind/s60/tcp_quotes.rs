use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, RwLock};
use std::thread;

use crate::pricing::{Pricer, Quote};

type Headers = HashMap<String, String>;

pub struct QuoteServer {
    quotes: RwLock<HashMap<String, Quote>>,
    pricer: Pricer,
}

fn read_head(reader: &mut BufReader<&TcpStream>) -> std::io::Result<(String, Headers)> {
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut headers = Headers::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_owned());
        }
    }
    Ok((request_line, headers))
}

fn write_response(stream: &mut TcpStream, status: &str, body: &str) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

impl QuoteServer {
    fn serve_one(&self, mut stream: TcpStream) -> std::io::Result<()> {
        let mut reader = BufReader::new(&stream);
        let (request_line, headers) = read_head(&mut reader)?;
        if !request_line.starts_with("POST /quotes ") {
            return write_response(&mut stream, "404 Not Found", "{}");
        }
        let len: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
        let mut body = vec![0u8; len.min(64 * 1024)];
        reader.read_exact(&mut body)?;

        let cached = headers
            .get("idempotency-key")
            .and_then(|k| self.quotes.read().ok()?.get(k.as_str()).cloned());
        if let Some(quote) = cached {
            return write_response(&mut stream, "200 OK", &quote.to_json());
        }

        let quote = match self.pricer.quote(&body) {
            Ok(q) => q,
            Err(e) => return write_response(&mut stream, "422 Unprocessable Entity", &e.to_json()),
        };
        self.pricer.remember(&headers, &quote);
        write_response(&mut stream, "201 Created", &quote.to_json())
    }

    pub fn run(self: Arc<Self>, addr: &str) -> std::io::Result<()> {
        let listener = TcpListener::bind(addr)?;
        for stream in listener.incoming() {
            let stream = stream?;
            let this = Arc::clone(&self);
            thread::spawn(move || {
                if let Err(e) = this.serve_one(stream) {
                    eprintln!("quote connection failed: {e}");
                }
            });
        }
        Ok(())
    }
}
