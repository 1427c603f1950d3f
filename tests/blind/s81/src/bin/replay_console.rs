//! Operator console for the replay tanks: inspect a client's record,
//! purge a stuck claim, or re-drive a webhook delivery.
//!
//!   replay-console --org tza --user u_123 --route tickets.purchase --key 7f3c... [--purge]
//!   replay-console --org tza --route payments.capture --redrive-delivery dlv_9a1

use std::process::ExitCode;

use argparse::{ArgumentParser, Store, StoreTrue};
use idem_scope::{scoped, scoped_server};
use lagoon::tank::SyncTank;
use ulid::Ulid;

fn main() -> ExitCode {
    let mut org_id = String::new();
    let mut user_id = String::new();
    let mut route = String::new();
    let mut client_key = String::new();
    let mut delivery = String::new();
    let mut purge = false;
    let mut dsn = String::from("lagoon://replays.internal:7400");
    {
        let mut ap = ArgumentParser::new();
        ap.set_description("Inspect and repair idempotency replay records.");
        ap.refer(&mut org_id).add_option(&["--org"], Store, "tenant (org id)").required();
        ap.refer(&mut user_id).add_option(&["--user"], Store, "principal (user id)");
        ap.refer(&mut route).add_option(&["--route"], Store, "route name").required();
        ap.refer(&mut client_key).add_option(&["--key"], Store, "the client's Idempotency-Key");
        ap.refer(&mut delivery).add_option(&["--redrive-delivery"], Store, "webhook delivery id to re-drive");
        ap.refer(&mut purge).add_option(&["--purge"], StoreTrue, "delete the record");
        ap.refer(&mut dsn).add_option(&["--dsn"], Store, "replay tank address");
        ap.parse_args_or_exit();
    }

    let run_id = Ulid::new();
    eprintln!("replay-console run {run_id} against {dsn}");
    let tank = match SyncTank::connect(&dsn) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot connect: {e}");
            return ExitCode::from(2);
        }
    };

    if !client_key.is_empty() {
        let slot = match scoped(&org_id, &user_id, &route, &client_key) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("invalid scope: {e}");
                return ExitCode::from(2);
            }
        };
        println!("record for {org_id}/{user_id}/{route}/{client_key}:");
        match tank.get(slot.storage_key()) {
            Ok(Some(body)) => println!("{}", String::from_utf8_lossy(&body)),
            Ok(None) => println!("(none)"),
            Err(e) => eprintln!("read failed: {e}"),
        }
        if purge {
            if let Err(e) = tank.del(slot.storage_key()) {
                eprintln!("purge failed: {e}");
                return ExitCode::FAILURE;
            }
        }
    }

    if !delivery.is_empty() {
        let slot = match scoped_server(&org_id, "svc-console", &route, &delivery) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("invalid delivery scope: {e}");
                return ExitCode::from(2);
            }
        };
        if let Err(e) = tank.del(slot.storage_key()) {
            eprintln!("re-drive failed: {e}");
            return ExitCode::FAILURE;
        }
        println!("delivery {delivery} will be processed again on the next webhook retry");
    }
    ExitCode::SUCCESS
}
