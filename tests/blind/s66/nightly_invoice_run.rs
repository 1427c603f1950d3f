use std::sync::Arc;
use std::time::Duration;

use error_chain::error_chain;
use skerry::lease::Leases;
use skerry::sql::{Link, SqlError};
use slog::{info, Logger};

use crate::billing::{Invoicer, RunSummary};

error_chain! {
    foreign_links {
        Sql(SqlError);
    }
    errors {
        LeaseHeld(holder: String) {
            description("invoice run lease held elsewhere")
            display("invoice run lease held by {}", holder)
        }
    }
}

pub struct NightlyInvoiceRun {
    leases: Arc<Leases>,
    link: Arc<Link>,
    invoicer: Arc<Invoicer>,
    log: Logger,
}

impl NightlyInvoiceRun {
    pub async fn run(&self, worker: &str, run_date: &str, triggered_by: Option<&str>) -> Result<RunSummary> {
        let lease = match self.leases.acquire("invoice-run", worker, Duration::from_secs(3600)).await {
            Ok(Some(l)) => l,
            Ok(None) => bail!(ErrorKind::LeaseHeld(self.leases.holder("invoice-run").await.unwrap_or_default())),
            Err(e) => bail!(e.to_string()),
        };
        let result = self.run_leased(run_date, triggered_by).await;
        self.leases.release(lease).await.ok();
        result
    }

    async fn run_leased(&self, run_date: &str, triggered_by: Option<&str>) -> Result<RunSummary> {
        let actor = triggered_by.unwrap_or("system");
        let accounts = self.invoicer.due_accounts(run_date).await?;
        let mut summary = RunSummary::default();
        for account in accounts {
            let tx = self.link.begin().await?;
            let lines = self.invoicer.collect_lines(&tx, &account, run_date).await?;
            if lines.is_empty() {
                continue;
            }
            let invoice_no = self.invoicer.issue(&tx, &account, &lines).await?;
            tx.query("INSERT INTO invoice_audit (invoice_no, actor, run_date) VALUES ($1, $2, $3)")
                .bind(&invoice_no)
                .bind(actor)
                .bind(run_date)
                .execute()
                .await?;
            tx.commit().await?;
            summary.issued += 1;
        }
        info!(self.log, "invoice run finished"; "date" => run_date, "issued" => summary.issued, "actor" => actor);
        Ok(summary)
    }
}
