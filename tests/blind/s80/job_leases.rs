//! Demurrage invoicing: the nightly invoicing run (one node at a time, under
//! a lease) and the on-demand invoice regeneration endpoint.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use ballast::hold::{Claimed, Hold};
use ballast::lease::Leases;
use ballast::logbook::Logbook;
use futures::FutureExt;
use hawser::extract::Shared;
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use tokio::sync::{Mutex, Semaphore};

pub struct Jobs {
    pub leases: Leases,
    pub runs: Logbook,
    pub replies: Hold,
    pub pdf_slots: Arc<Semaphore>,
    pub printer: Mutex<print_room::Printer>,
    pub billing: billing::Engine,
}

pub async fn nightly_invoicing(j: &Jobs) -> anyhow::Result<usize> {
    let lease = j.leases.acquire("demurrage-invoicing", Duration::from_secs(3600)).await?;
    let run_key = format!("invoice-run:{}", jiff::Zoned::now().date());
    j.runs.mark_in_progress(&run_key).await?;

    let due = j.billing.due_containers().await?;
    let mut issued = 0;
    for container in &due {
        let _permit = j.pdf_slots.acquire().await?;
        let invoice = j.billing.invoice(container).await?;
        if invoice.paper_copy {
            let printer = j.printer.lock().await;
            printer.print(&invoice.pdf)?;
        }
        issued += 1;
    }

    j.runs.mark_done(&run_key, issued.to_string().as_bytes()).await?;
    j.leases.release(lease).await?;
    Ok(issued)
}

pub async fn regenerate_invoice(j: Shared<Jobs>, a: Agent, call: Call) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let invoice_no = call.param("invoice").ok_or_else(|| Snag::bad_request("invoice"))?.to_owned();
    let key = scoped(&a.account_id, &a.user_id, call.route_template(), k).map_err(Snag::bad_request)?;

    if let Claimed::Existing(prev) = j.replies.claim(key.storage_key(), Duration::from_secs(300)).await? {
        return Ok(Answer::replay(prev));
    }
    let outcome = AssertUnwindSafe(j.billing.regenerate(&a.account_id, &invoice_no)).catch_unwind().await;
    match outcome {
        Ok(Ok(pdf)) => {
            let answer = Answer::bytes(Status::OK, "application/pdf", pdf);
            j.replies.complete(key.storage_key(), &answer.to_bytes()).await?;
            Ok(answer)
        }
        Ok(Err(e)) => {
            j.replies.release(key.storage_key()).await?;
            Err(Snag::unprocessable(e.to_string()))
        }
        Err(panic) => {
            let _ = j.replies.release(key.storage_key()).await;
            std::panic::resume_unwind(panic)
        }
    }
}
