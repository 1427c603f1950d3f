use async_graphql::{Context, InputObject, Object, Result, SimpleObject};

#[derive(InputObject)]
pub struct PostEntryInput {
    pub account: String,
    pub amount_minor: i64,
    pub memo: Option<String>,
}

#[derive(SimpleObject, Clone)]
pub struct Entry {
    pub id: String,
    pub account: String,
    pub amount_minor: i64,
}

pub struct Viewer {
    pub org_id: String,
    pub user_id: String,
}

pub struct LedgerMutation;

#[Object]
impl LedgerMutation {
    async fn post_entry(
        &self,
        ctx: &Context<'_>,
        input: PostEntryInput,
        #[graphql(desc = "Client idempotency key; retries must reuse it")] client_mutation_id: String,
    ) -> Result<Entry> {
        let viewer = ctx.data::<Viewer>()?;
        let kv = ctx.data::<LedgerKv>()?;
        let slot = format!("{}{}", viewer.org_id, client_mutation_id);
        if let Some(prev) = kv.load(&slot).await? {
            return Ok(prev);
        }
        let entry = kv.append(&viewer.org_id, &input.account, input.amount_minor).await?;
        kv.save(&slot, &entry).await?;
        Ok(entry)
    }

    async fn reverse_entry(
        &self,
        ctx: &Context<'_>,
        entry_id: String,
        #[graphql(desc = "Client idempotency key; retries must reuse it")] client_mutation_id: String,
    ) -> Result<Entry> {
        let viewer = ctx.data::<Viewer>()?;
        let kv = ctx.data::<LedgerKv>()?;
        let key = idem_scope::scoped(&viewer.org_id, &viewer.user_id, "ledger.reverse", &client_mutation_id)?;
        if let Some(prev) = kv.load(key.storage_key()).await? {
            return Ok(prev);
        }
        let entry = kv.reverse(&viewer.org_id, &entry_id).await?;
        kv.save(key.storage_key(), &entry).await?;
        Ok(entry)
    }
}
