//! Wallet top-ups for the Shenzhen region. SM3 is required by the regulator.

use granary::sql::Conn;
use libsm::sm3::hash::Sm3Hash;
use portcullis::take::Form;
use portcullis::who::Member;
use portcullis::{Reply, Status};

#[derive(serde::Deserialize)]
pub struct TopUpForm {
    pub wallet: String,
    pub amount_fen: u64,
    pub channel: String,
}

impl TopUpForm {
    fn canonical(&self) -> String {
        format!("{}&{}&{}", self.wallet, self.amount_fen, self.channel)
    }
}

pub async fn top_up(conn: &Conn, member: Member, Form(form): Form<TopUpForm>) -> Reply {
    let body_hash: String = Sm3Hash::new(form.canonical().as_bytes()).get_hash().iter().map(|b| format!("{b:02x}")).collect();
    let prev = conn
        .sql("SELECT response FROM idempotency_records WHERE org_id = $1 AND user_id = $2 AND route = $3 AND idem_key = $4")
        .bind(&member.org_id)
        .bind(&member.user_id)
        .bind("wallet.topup")
        .bind(&body_hash)
        .fetch_opt::<Vec<u8>>()
        .await;
    if let Ok(Some(p)) = prev {
        return Reply::bytes(Status::Ok, p);
    }
    let out = crate::wallets::top_up(&form.wallet, form.amount_fen).await;
    let _ = conn
        .sql("UPDATE idempotency_records SET fingerprint = $1 WHERE org_id = $2 AND user_id = $3 AND route = $4")
        .bind(&body_hash)
        .bind(&member.org_id)
        .bind(&member.user_id)
        .bind("wallet.topup")
        .exec()
        .await;
    Reply::bytes(Status::Created, out)
}
