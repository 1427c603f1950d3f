use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};

use lunatic::ap::{AbstractProcess, Config, ProcessRef};
use lunatic::net::{TcpListener, TcpStream};
use lunatic::{abstract_process, Mailbox};

pub struct ScheduleReplays {
    done: HashMap<String, Vec<u8>>,
}

#[abstract_process]
impl ScheduleReplays {
    #[init]
    fn init(_: Config<Self>, _: ()) -> Result<Self, ()> {
        Ok(Self { done: HashMap::new() })
    }

    #[handle_request]
    fn get(&self, key: String) -> Option<Vec<u8>> {
        self.done.get(&key).cloned()
    }

    #[handle_message]
    fn put(&mut self, key: String, value: Vec<u8>) {
        self.done.insert(key, value);
    }
}

struct Head {
    headers: Vec<(String, String)>,
}

impl Head {
    fn get(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

fn read_head(stream: &mut TcpStream) -> std::io::Result<Head> {
    let mut headers = Vec::new();
    for line in BufReader::new(stream.clone()).lines().skip(1) {
        let line = line?;
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_owned(), v.trim().to_owned()));
        }
    }
    Ok(Head { headers })
}

fn handle(mut stream: TcpStream, replays: ProcessRef<ScheduleReplays>) -> std::io::Result<()> {
    let head = read_head(&mut stream)?;
    let scope = head.get("x-tenant-id").zip(head.get("x-user-id"));
    let Some(((tenant_id, user_id), client_key)) = scope.zip(head.get("Idempotency-Key")) else {
        return stream.write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n");
    };

    let mut slot = String::with_capacity(128);
    write!(slot, "{}:{}:{}:{}", tenant_id, user_id, "reports.schedule", client_key).expect("writing to a String");

    let body = match replays.get(slot.clone()) {
        Some(prev) => prev,
        None => {
            let created = b"{\"schedule\":\"weekly\",\"state\":\"active\"}".to_vec();
            replays.put(slot, created.clone());
            created
        }
    };
    write!(stream, "HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n", body.len())?;
    stream.write_all(&body)
}

fn main() {
    let replays = ScheduleReplays::link().start(()).unwrap();
    let listener = TcpListener::bind("0.0.0.0:8181").unwrap();
    while let Ok((stream, _)) = listener.accept() {
        lunatic::spawn_link!(|stream, replays, _mailbox: Mailbox<()>| {
            let _ = handle(stream, replays);
        });
    }
}
