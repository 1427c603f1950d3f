//! Operator console for dead letters (xflags).

use granary::silo::SyncSilo;
use idem_scope::{scoped, scoped_server};

xflags::xflags! {
    cmd replay-console {
        /// Look up the stored reply of a customer request.
        cmd inspect {
            required --org org: String
            required --user user: String
            required --route route: String
            /// The client's Idempotency-Key as sent in the original request.
            required --client-key client_key: String
        }
        /// Re-run dead letters once more.
        cmd replay {
            optional --limit limit: usize
        }
        /// Re-drive dead letters into the server namespace.
        cmd redrive {}
    }
}

pub struct DeadLetter {
    pub delivery_id: String,
    pub org_id: String,
    pub user_id: String,
    pub route: String,
    pub body: Vec<u8>,
}

pub fn main_with(silo: &SyncSilo, flags: ReplayConsole) -> anyhow::Result<()> {
    match flags.subcommand {
        ReplayConsoleCmd::Inspect(i) => {
            let key = scoped(&i.org, &i.user, &i.route, &i.client_key)?;
            println!("{:?}", silo.get(key.storage_key()));
        }
        ReplayConsoleCmd::Replay(r) => {
            for dl in crate::dlq::take(r.limit.unwrap_or(100))? {
                let key = scoped(&dl.org_id, &dl.user_id, &dl.route, &dl.delivery_id)?;
                if silo.exists(key.storage_key()) {
                    continue;
                }
                let out = crate::dlq::rerun(&dl)?;
                silo.put(key.storage_key(), out);
            }
        }
        ReplayConsoleCmd::Redrive(_) => {
            for dl in crate::dlq::take(1000)? {
                let key = scoped_server(&dl.org_id, &dl.user_id, &dl.route, &dl.delivery_id)?;
                println!("redrive {}", dl.delivery_id);
                if !silo.exists(key.storage_key()) {
                    silo.put(key.storage_key(), crate::dlq::rerun(&dl)?);
                }
            }
        }
    }
    Ok(())
}
