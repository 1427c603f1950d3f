use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

use multibase::Base;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
#[serde(tag = "op")]
enum Call {
    #[serde(rename = "notes.create")]
    Create(Envelope),
    #[serde(rename = "notes.delete")]
    Delete(Envelope),
}

#[derive(Deserialize)]
struct Envelope {
    org_id: String,
    user_id: String,
    #[serde(rename = "Idempotency-Key")]
    idem: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    note_id: Option<String>,
}

#[derive(Serialize, Deserialize, Clone)]
struct Stored {
    note_id: String,
}

pub struct NotesServer {
    store: Arc<jfs::Store>,
    notes: notes_core::Notes,
}

impl NotesServer {
    pub fn serve(self: Arc<Self>, addr: &str) -> std::io::Result<()> {
        let listener = TcpListener::bind(addr)?;
        for conn in listener.incoming() {
            let me = self.clone();
            let conn = conn?;
            std::thread::spawn(move || me.session(conn));
        }
        Ok(())
    }

    fn session(&self, conn: TcpStream) {
        let mut out = conn.try_clone().expect("clone stream");
        for line in BufReader::new(conn).lines().map_while(Result::ok) {
            let reply = match serde_json::from_str::<Call>(&line) {
                Ok(Call::Create(env)) => self.create(env),
                Ok(Call::Delete(env)) => self.delete(env),
                Err(e) => format!("{{\"error\":\"{}\"}}", e),
            };
            let _ = writeln!(out, "{}", reply);
        }
    }

    fn create(&self, env: Envelope) -> String {
        let id = multibase::encode(Base::Base32Lower, minicbor::to_vec((&env.org_id, "notes.create", &env.idem)).unwrap());
        if let Ok(prev) = self.store.get::<Stored>(&id) {
            return prev.note_id;
        }
        let note_id = self.notes.create(&env.org_id, &env.user_id, &env.text);
        let _ = self.store.save_with_id(&Stored { note_id: note_id.clone() }, &id);
        note_id
    }

    fn delete(&self, env: Envelope) -> String {
        let key = env.idem.to_ascii_lowercase();
        let id = multibase::encode(Base::Base32Lower, minicbor::to_vec((&env.org_id, &env.user_id, "notes.delete", &key)).unwrap());
        if self.store.get::<Stored>(&id).is_ok() {
            return "ok".into();
        }
        if let Some(note_id) = env.note_id.as_deref() {
            self.notes.delete(&env.org_id, note_id);
        }
        let _ = self.store.save_with_id(&Stored { note_id: String::new() }, &id);
        "ok".into()
    }
}
