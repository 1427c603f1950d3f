use std::time::Duration;

use chrono::{NaiveDate, Utc};
use clokwerk::{AsyncScheduler, TimeUnits};

use crate::locks::JobLocks;

pub struct Dunning {
    locks: JobLocks,
    billing: crate::billing::Billing,
    mailer: crate::mail::Mailer,
}

impl Dunning {
    async fn run_for(&self, day: NaiveDate) -> anyhow::Result<usize> {
        let run_id = format!("dunning/{day}");
        self.locks.try_lock(&run_id, Duration::from_secs(900)).await?;
        let overdue = self.billing.overdue_on(day).await?;
        let mut sent = 0;
        for invoice in &overdue {
            self.mailer.send_reminder(&invoice.tenant_id, &invoice.id).await?;
            sent += 1;
        }
        self.locks.finish(&run_id).await?;
        Ok(sent)
    }

    pub fn schedule(self: std::sync::Arc<Self>) -> AsyncScheduler {
        let mut scheduler = AsyncScheduler::new();
        scheduler.every(1.day()).at("06:15").run(move || {
            let me = self.clone();
            async move {
                let day = Utc::now().date_naive();
                match me.run_for(day).await {
                    Ok(n) => log::info!("dunning for {day}: {n} reminders"),
                    Err(e) => log::warn!("dunning for {day} failed: {e:#}"),
                }
            }
        });
        scheduler
    }
}
