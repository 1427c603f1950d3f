//! Checkout confirmation. Anonymous carts are refused before any key exists.

use granary::silo::Silo;
use idem_scope::Problem;
use portcullis::who::MaybeMember;
use portcullis::{Call, Reply, Status};

pub async fn confirm(silo: &Silo, call: Call) -> Reply {
    let MaybeMember(Some(member)) = call.take::<MaybeMember>().unwrap_or(MaybeMember(None)) else {
        return Reply::problem(Problem::invalid_key("sign in to confirm a checkout"));
    };
    let tenant = member.org_id.clone();
    let user = member.user_id.clone();
    let Some(client_key) = call.header("Idempotency-Key").map(str::to_owned) else {
        return Reply::problem(Problem::missing_key());
    };

    let key = tenant.to_owned() + "#" + &user + "#checkout.confirm#" + &client_key;
    let banner = String::from("confirming ") + &client_key;
    tracing::info!(%banner);

    if let Ok(Some(prev)) = silo.get(&key).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let order = crate::orders::confirm(&tenant, &user, call.body()).await;
    let _ = silo.put(&key, order.encode()).await;
    let cart_key = "cart:".to_owned() + &user;
    let _ = silo.remove(&cart_key).await;
    Reply::json(Status::Created, &order)
}
