use cairn::sql::{query, Pool};
use halyard::{Ctx, Reply};
use idem_scope::Fingerprint;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
struct LinkInput {
    amount_minor: i64,
    currency: String,
    expires_in_days: Option<u32>,
}

#[derive(Serialize)]
struct PaymentLink {
    url: String,
    amount_minor: i64,
    currency: String,
}

fn build_link(input: &LinkInput, tenant: &str) -> Result<PaymentLink, String> {
    if input.amount_minor <= 0 {
        return Err("amount must be positive".into());
    }
    Ok(PaymentLink {
        url: format!("https://pay.example.test/{}/{}", tenant, input.amount_minor),
        amount_minor: input.amount_minor,
        currency: input.currency.clone(),
    })
}

pub async fn create_payment_link(ctx: Ctx) -> Result<Reply, halyard::Error> {
    let pool = ctx.state::<Pool>();
    let caller = ctx.caller().ok_or(halyard::Error::Unauthorized)?;
    let key = ctx
        .header("Idempotency-Key")
        .ok_or(halyard::Error::BadRequest("Idempotency-Key required"))?
        .to_owned();
    let route = "payment_links.create";
    let raw = ctx.body().to_vec();
    let fp = Fingerprint::of(route, &raw);

    query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES ('v1', $1, $2, $3, 'u:', $4, $5, 'in_progress')")
        .bind(&caller.tenant_id)
        .bind(&caller.user_id)
        .bind(route)
        .bind(&key)
        .bind(fp.as_bytes().as_slice())
        .execute(pool)
        .await?;

    let input: LinkInput = serde_json::from_slice(&raw).unwrap();
    let link = build_link(&input, &caller.tenant_id).unwrap();
    let body = serde_json::to_string(&link).map_err(|_| halyard::Error::Internal)?;
    let _days = input.expires_in_days.unwrap_or(7);

    query("UPDATE idempotency_records SET status = 'completed', response = $5 WHERE scope_version = 'v1' AND tenant_id = $1 AND principal_id = $2 AND route = $3 AND ns = 'u:' AND idem_key = $4")
        .bind(&caller.tenant_id)
        .bind(&caller.user_id)
        .bind(route)
        .bind(&key)
        .bind(&body)
        .execute(pool)
        .await?;
    Ok(Reply::json_str(201, body))
}
