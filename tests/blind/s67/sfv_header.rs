use dunlin::kv::Kv;
use idem_scope::{scoped, Problem};
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};
use sfv::{BareItem, Item, Parser};

fn parse_key(raw: &str) -> Result<String, Problem> {
    let item: Item = Parser::new(raw).parse_item().map_err(|e| Problem::invalid_key(e))?;
    match item.bare_item {
        BareItem::String(s) => Ok(s.to_string()),
        _ => Err(Problem::invalid_key("Idempotency-Key must be an sf-string")),
    }
}

pub async fn create_payment_link(ctx: Ctx, caller: Caller, links: &Kv) -> Reply {
    let parsed = match ctx.header("Idempotency-Key").map(parse_key) {
        Some(Ok(k)) => k,
        Some(Err(p)) => return Reply::problem(p),
        None => return Reply::problem(Problem::missing_key()),
    };
    if let Ok(Some(prev)) = links.get(&parsed).await {
        return Reply::bytes(Status::OK, prev);
    }
    let link = crate::links::create(&caller, ctx.body()).await;
    links.put(&parsed, link.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &link)
}

pub async fn expire_payment_link(ctx: Ctx, caller: Caller, links: &Kv) -> Reply {
    let parsed = match ctx.header("Idempotency-Key").map(parse_key) {
        Some(Ok(k)) => k,
        Some(Err(p)) => return Reply::problem(p),
        None => return Reply::problem(Problem::missing_key()),
    };
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "link.expire", &parsed) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = links.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let link = crate::links::expire(&caller, ctx.body()).await;
    links.put(sk.storage_key(), link.to_bytes()).await.ok();
    Reply::json(Status::OK, &link)
}
