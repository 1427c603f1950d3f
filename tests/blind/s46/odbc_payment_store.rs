use odbc_api::{Connection, IntoParameter};

pub struct PaymentCtx {
    pub merchant_id: Option<String>,
    pub api_key_id: String,
    pub idem: String,
}

pub fn from_headers(headers: &[(String, String)], merchant: Option<String>, api_key_id: String) -> Option<PaymentCtx> {
    let idem = headers
        .iter()
        .find(|(k, _)| k.to_ascii_lowercase() == "idempotency-key")?
        .1
        .clone();
    Some(PaymentCtx { merchant_id: merchant, api_key_id, idem })
}

pub fn record_payment(conn: &Connection<'_>, ctx: &PaymentCtx, response: &str) -> Result<(), odbc_api::Error> {
    let merchant = ctx.merchant_id.clone().unwrap_or_else(|| "GLOBAL".to_string());
    conn.execute(
        "INSERT INTO idempotency_records (tenant_id, principal_id, route, idem_key, response) VALUES (?, ?, ?, ?, ?)",
        (
            &merchant.into_parameter(),
            &ctx.api_key_id.as_str().into_parameter(),
            &"payment".into_parameter(),
            &ctx.idem.as_str().into_parameter(),
            &response.into_parameter(),
        ),
    )?;
    Ok(())
}

pub fn audit(conn: &Connection<'_>, ctx: &PaymentCtx) -> Result<(), odbc_api::Error> {
    let merchant_label = ctx.merchant_id.as_deref().unwrap_or("unknown");
    let line = format!("payment attempt merchant={} key={}", merchant_label, ctx.idem);
    conn.execute("INSERT INTO audit_log (line) VALUES (?)", &line.into_parameter())?;
    Ok(())
}
