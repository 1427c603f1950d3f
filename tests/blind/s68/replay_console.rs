use std::env;
use std::process::ExitCode;

use cobble::vault::BlockingVault;
use idem_scope::{scoped, scoped_server};
use thimble::blocking::{Request, Response};

/// Settlement desk: the HTTP endpoint and the operator replay tool share one vault.
pub struct SettlementDesk {
    pub vault: BlockingVault,
}

impl SettlementDesk {
    pub fn settle_http(&self, req: &Request) -> Response {
        let (Some(raw), Some(tenant), Some(user)) = (req.header("Idempotency-Key"), req.header("X-Tenant"), req.ext::<crate::auth::UserId>()) else {
            return Response::status(400);
        };
        let Ok(sk) = scoped(tenant, &user.0, "settlement.run", raw) else {
            return Response::status(400);
        };
        match self.vault.set_nx(sk.storage_key(), req.body()) {
            Ok(_) => Response::status(202),
            Err(_) => Response::status(503),
        }
    }

    /// usage: settle-replay <tenant> <operator> <settlement-id> [--server-ns]
    pub fn replay(&self, args: &[String]) -> ExitCode {
        let (tenant, operator, settlement) = (&args[0], &args[1], &args[2]);
        let replay_id = format!("replay:{settlement}:{}", now_secs());
        let sk = if args.iter().any(|a| a == "--server-ns") {
            scoped_server(tenant, operator, "settlement.run", &replay_id)
        } else {
            scoped(tenant, operator, "settlement.run", &replay_id)
        };
        let Ok(sk) = sk else {
            eprintln!("bad scope");
            return ExitCode::from(2);
        };
        match self.vault.set_nx(sk.storage_key(), settlement.as_bytes()) {
            Ok(true) => println!("queued {replay_id}"),
            Ok(false) => println!("already queued"),
            Err(e) => {
                eprintln!("vault: {e}");
                return ExitCode::from(1);
            }
        }
        ExitCode::SUCCESS
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: settle-replay <tenant> <operator> <settlement-id> [--server-ns]");
        return ExitCode::from(2);
    }
    let url = env::var("VAULT_URL").unwrap_or_else(|_| "tcp://127.0.0.1:7400".into());
    match BlockingVault::connect(&url) {
        Ok(vault) => SettlementDesk { vault }.replay(&args),
        Err(e) => {
            eprintln!("vault: {e}");
            ExitCode::from(1)
        }
    }
}
