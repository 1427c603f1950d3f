//! Billing: invoices created via the API and by the nightly scheduler use one executor.
use ulid::Ulid;

pub struct Billing<S> {
    records: S,
    principal: String,
}

impl<S: crate::idem::Store> Billing<S> {
    pub async fn create_invoice(&self, parts: &http::request::Parts, who: &crate::Who, draft: crate::InvoiceDraft) -> anyhow::Result<String> {
        let client_key = crate::headers::idempotency_key(&parts.headers)?;
        let key = idem_scope::scoped(&who.tenant_id, &who.user_id, "invoices.create", &client_key)?;
        if let Some(id) = self.records.lookup(&key).await? {
            return Ok(id);
        }
        let id = crate::invoices::create(&who.tenant_id, draft).await?;
        self.records.save(&key, &id).await?;
        Ok(id)
    }

    pub async fn nightly(&self, tenants: &[String]) -> anyhow::Result<()> {
        for tenant_id in tenants {
            let run_id = Ulid::new();
            let key = idem_scope::scoped(tenant_id, &self.principal, "invoices.create", &run_id.to_string())?;
            let draft = crate::invoices::monthly_draft(tenant_id).await?;
            let id = crate::invoices::create(tenant_id, draft).await?;
            self.records.save(&key, &id).await?;
        }
        Ok(())
    }
}
