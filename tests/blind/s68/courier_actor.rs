use std::sync::Arc;
use std::thread;

use cobble::vault::BlockingVault;
use crossfire::mpsc;
use idem_scope::{scoped, Namespace};

pub enum Msg {
    /// A courier status push, redelivered by the courier until acked.
    Delivery { delivery_id: String, tenant_id: String, courier: String, status: String },
    /// A client request forwarded by the HTTP layer.
    Client { key: String, tenant_id: String, user_id: String, status: String },
    Stop,
}

pub fn spawn(vault: Arc<BlockingVault>) -> mpsc::TxBlocking<Msg> {
    let (tx, rx) = mpsc::bounded_blocking::<Msg>(256);
    thread::Builder::new()
        .name("courier-actor".into())
        .spawn(move || {
            while let Ok(msg) = rx.recv() {
                match msg {
                    Msg::Delivery { delivery_id, tenant_id, courier, status } => {
                        let Ok(sk) = scoped(&tenant_id, &courier, "parcel.status", &delivery_id) else {
                            continue;
                        };
                        let _ = vault.set_nx(sk.storage_key(), status.as_bytes());
                    }
                    Msg::Client { key, tenant_id, user_id, status } => {
                        let Ok(sk) = scoped(&tenant_id, &user_id, "parcel.status", &key) else {
                            continue;
                        };
                        debug_assert!(matches!(sk.namespace(), Namespace::Client));
                        let _ = vault.set_nx(sk.storage_key(), status.as_bytes());
                    }
                    Msg::Stop => break,
                }
            }
        })
        .expect("spawn courier actor");
    tx
}

pub fn forward_http(tx: &mpsc::TxBlocking<Msg>, req: &thimble::blocking::Request, tenant_id: String, user_id: String) -> u16 {
    let Some(key) = req.header("Idempotency-Key") else {
        return 400;
    };
    let status = String::from_utf8_lossy(req.body()).into_owned();
    match tx.send(Msg::Client { key: key.to_owned(), tenant_id, user_id, status }) {
        Ok(()) => 202,
        Err(_) => 503,
    }
}
