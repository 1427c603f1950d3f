use anyhow::{ensure, Context as _, Result};
use gimbal::{Ctx, Multipart, Reply};
use idem_scope::{scoped, ScopedKey};
use pyxis::book::Book;

use crate::kyc::{Document, Provider};

pub struct Kyc {
    book: Book,
    provider: Provider,
}

async fn collect(mut form: Multipart) -> Result<Vec<Document>> {
    let mut docs = Vec::new();
    while let Some(field) = form.next_field().await? {
        let kind = field.name().unwrap_or("unknown").to_owned();
        let bytes = field.bytes().await?;
        docs.push(Document { kind, bytes });
    }
    Ok(docs)
}

impl Kyc {
    fn key(ctx: &Ctx) -> Result<ScopedKey> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").context("Idempotency-Key required")?;
        Ok(scoped(&auth.tenant_id, &auth.user_id, "kyc.submit", k)?)
    }

    pub async fn submit(&self, ctx: Ctx, form: Multipart) -> Result<Reply> {
        let key = Self::key(&ctx)?;
        if let Some(prev) = self.book.lookup(&key).await? {
            return Ok(Reply::replay(prev));
        }
        let docs = collect(form).await?;

        self.book.reserve(&key).await?;
        ensure!(docs.len() >= 2, "at least two documents are required");
        ensure!(docs.iter().any(|d| d.kind == "selfie"), "a selfie is required");

        let case = self.provider.open_case(&ctx.auth().tenant_id, &docs).await?;
        self.book.commit(&key, case.to_json().as_bytes()).await?;
        Ok(Reply::accepted(case.to_json()))
    }

    pub async fn resubmit(&self, ctx: Ctx, form: Multipart) -> Result<Reply> {
        let key = Self::key(&ctx)?;
        let docs = collect(form).await?;
        ensure!(docs.len() >= 2, "at least two documents are required");

        self.book.reserve(&key).await?;
        let case = self.provider.reopen_case(&ctx.auth().tenant_id, &docs).await;
        match case {
            Ok(case) => {
                self.book.commit(&key, case.to_json().as_bytes()).await?;
                Ok(Reply::accepted(case.to_json()))
            }
            Err(e) => {
                self.book.cancel(&key).await?;
                Err(e.into())
            }
        }
    }
}
