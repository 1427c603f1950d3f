use blake2b_rs::Blake2bBuilder;
use gimbal::{Ctx, RawBody, Reply};
use pyxis::sql::Stmt;

use crate::accounts::{Accounts, SignupError};

pub const SIGNUP_DEDUP_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS signup_dedup (
    tenant_id    TEXT        NOT NULL,
    client_id    TEXT        NOT NULL,
    route        TEXT        NOT NULL,
    request_key  TEXT        NOT NULL,
    account_id   TEXT        NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT signup_dedup_uq UNIQUE (tenant_id, client_id, route, request_key)
)"#;

struct SignupForm {
    email: String,
    company: String,
    plan: String,
}

impl SignupForm {
    fn from_pairs<'a>(pairs: form_urlencoded::Parse<'a>) -> Result<Self, SignupError> {
        let (mut email, mut company, mut plan) = (None, None, None);
        for (name, value) in pairs {
            match name.as_ref() {
                "email" => email = Some(value.into_owned()),
                "company" => company = Some(value.into_owned()),
                "plan" => plan = Some(value.into_owned()),
                _ => {}
            }
        }
        Ok(Self {
            email: email.ok_or(SignupError::Missing("email"))?,
            company: company.ok_or(SignupError::Missing("company"))?,
            plan: plan.ok_or(SignupError::Missing("plan"))?,
        })
    }
}

fn digest_hex(bytes: &[u8]) -> String {
    let mut hasher = Blake2bBuilder::new(32).personal(b"signup-form-v1").build();
    hasher.update(bytes);
    let mut out = [0u8; 32];
    hasher.finalize(&mut out);
    base16::encode_lower(&out)
}

fn signup_slot(tenant_id: &str, client_id: &str, raw: &[u8]) -> (String, String, &'static str, String) {
    (tenant_id.to_owned(), client_id.to_owned(), "signup", digest_hex(raw))
}

pub async fn signup(accounts: &Accounts, ctx: Ctx, RawBody(raw): RawBody) -> Result<Reply, SignupError> {
    let form = SignupForm::from_pairs(form_urlencoded::parse(&raw))?;
    let tenant_id = ctx.host_tenant().ok_or(SignupError::UnknownHost)?;
    let client_id = ctx.oauth_client_id().ok_or(SignupError::UnknownClient)?;
    let (t, c, route, k) = signup_slot(&tenant_id, &client_id, &raw);

    let existing = Stmt::new(
        "SELECT account_id FROM signup_dedup WHERE tenant_id = $1 AND client_id = $2 AND route = $3 AND request_key = $4",
    )
    .bind(&t)
    .bind(&c)
    .bind(route)
    .bind(&k)
    .fetch_optional(accounts.pool())
    .await?;
    if let Some(row) = existing {
        return Ok(Reply::see_other(&format!("/accounts/{}", row.get::<String>("account_id"))));
    }

    let account = accounts.create(&tenant_id, &form.email, &form.company, &form.plan).await?;
    Stmt::new("INSERT INTO signup_dedup (tenant_id, client_id, route, request_key, account_id) VALUES ($1, $2, $3, $4, $5)")
        .bind(&t)
        .bind(&c)
        .bind(route)
        .bind(&k)
        .bind(&account.id)
        .execute(accounts.pool())
        .await?;
    Ok(Reply::created_json(&account))
}
