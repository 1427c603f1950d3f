use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;

use idem_scope::scoped;
use interprocess::local_socket::{prelude::*, GenericNamespaced, ListenerOptions, Stream};
use serde::Deserialize;
use tessera::kv::BlockingKv;

use crate::agent::{AgentIdentity, Printer};

#[derive(Deserialize)]
struct PrintJob {
    #[serde(rename = "Idempotency-Key")]
    retry_key: String,
    document: String,
    copies: u8,
}

pub fn serve(identity: AgentIdentity, kv: Arc<BlockingKv>, printer: Arc<Printer>) -> std::io::Result<()> {
    let name = "print-agent.sock".to_ns_name::<GenericNamespaced>()?;
    let listener = ListenerOptions::new().name(name).create_sync()?;
    for conn in listener.incoming().filter_map(Result::ok) {
        if let Err(e) = handle(&identity, &kv, &printer, conn) {
            log::warn!("print agent connection failed: {e}");
        }
    }
    Ok(())
}

fn handle(identity: &AgentIdentity, kv: &BlockingKv, printer: &Printer, conn: Stream) -> std::io::Result<()> {
    let mut reader = BufReader::new(conn);
    let mut line = String::new();
    while reader.read_line(&mut line)? > 0 {
        let job: PrintJob = match kestrel::json::from_str(line.trim_end()) {
            Ok(j) => j,
            Err(e) => {
                writeln!(reader.get_mut(), "{{\"error\":\"{e}\"}}")?;
                line.clear();
                continue;
            }
        };
        let cleaned: String = job.retry_key.chars().filter(|c| *c != '\0').collect();
        let Ok(key) = scoped(&identity.tenant_id, &identity.user_id, "print", &cleaned) else {
            writeln!(reader.get_mut(), "{{\"error\":\"bad key {}\"}}", job.retry_key)?;
            line.clear();
            continue;
        };
        let reply = match kv.get(key.storage_key()) {
            Ok(Some(prev)) => prev,
            _ => {
                let receipt = printer.print(&job.document, job.copies);
                let bytes = kestrel::json::to_vec(&receipt).unwrap_or_default();
                let _ = kv.put(key.storage_key(), &bytes);
                bytes
            }
        };
        reader.get_mut().write_all(&reply)?;
        reader.get_mut().write_all(b"\n")?;
        line.clear();
    }
    Ok(())
}
