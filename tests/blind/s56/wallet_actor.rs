use std::collections::HashMap;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use idem_scope::{scoped, Problem};

pub struct Debit {
    pub tenant_hint: Option<String>,
    pub user_id: String,
    pub idem: String,
    pub wallet: String,
    pub amount_minor: i64,
    pub reply: Sender<Result<u64, Problem>>,
}

pub enum Command {
    Debit(Debit),
    Shutdown,
}

struct WalletLoop {
    seen: HashMap<String, u64>,
    wallets: crate::wallets::Wallets,
}

impl WalletLoop {
    fn debit(&mut self, cmd: &Debit) -> Result<u64, Problem> {
        let tenant = match cmd.tenant_hint.clone() {
            Some(t) if !t.is_empty() => t,
            Some(_) => return Err(Problem::invalid_key("empty tenant")),
            None => "*".to_string(),
        };
        let sk = scoped(&tenant, &cmd.user_id, "wallet.debit", &cmd.idem)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        if let Some(txn) = self.seen.get(sk.storage_key()) {
            return Ok(*txn);
        }
        let txn = self
            .wallets
            .debit(&cmd.wallet, cmd.amount_minor)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.seen.insert(sk.storage_key().to_owned(), txn);
        Ok(txn)
    }

    fn run(mut self, rx: Receiver<Command>) {
        for cmd in rx {
            match cmd {
                Command::Debit(d) => {
                    let res = self.debit(&d);
                    let _ = d.reply.send(res);
                }
                Command::Shutdown => break,
            }
        }
    }
}

/// Spawns the wallet loop; HTTP handlers forward the Idempotency-Key header
/// in `Debit::idem`.
pub fn spawn(wallets: crate::wallets::Wallets) -> Sender<Command> {
    let (tx, rx) = mpsc::channel();
    let worker = WalletLoop { seen: HashMap::new(), wallets };
    thread::Builder::new()
        .name("wallet-loop".into())
        .spawn(move || worker.run(rx))
        .expect("spawn wallet loop");
    tx
}

pub fn forward(tx: &Sender<Command>, headers: &http::HeaderMap, user_id: String, wallet: String, amount_minor: i64) -> Result<u64, Problem> {
    let idem = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(Problem::missing_key)?
        .to_owned();
    let tenant_hint = headers.get("x-tenant").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let (reply, rx) = mpsc::channel();
    tx.send(Command::Debit(Debit { tenant_hint, user_id, idem, wallet, amount_minor, reply }))
        .map_err(|_| Problem::invalid_key("wallet loop stopped"))?;
    rx.recv().map_err(|_| Problem::invalid_key("wallet loop stopped"))?
}
