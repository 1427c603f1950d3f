use brindle::auth::Caller;
use brindle::{Ctx, Json, Reply, Status};
use idem_scope::{scoped, Problem, ScopedKey};
use serde::Deserialize;
use sluice::ledger::Ledger;

use crate::gateway::{Gateway, GatewayError};

#[derive(Deserialize)]
pub struct AuthorizeBody {
    pub card_token: String,
    pub amount_minor: i64,
    pub currency: String,
}

pub struct Authorizations {
    ledger: Ledger,
    gateway: Gateway,
}

fn scoped_key(ctx: &Ctx, caller: &Caller, route: &str) -> Result<ScopedKey, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    scoped(&caller.tenant_id, &caller.user_id, route, client_key).map_err(|e| Problem::invalid_key(&e.to_string()))
}

impl Authorizations {
    pub async fn authorize(&self, ctx: Ctx, caller: Caller, Json(body): Json<AuthorizeBody>) -> Reply {
        let sk = match scoped_key(&ctx, &caller, "card.authorize") {
            Ok(k) => k,
            Err(p) => return Reply::problem(p),
        };
        if let Err(e) = self.ledger.reserve(sk.storage_key(), body.amount_minor) {
            return Reply::status(Status::CONFLICT).text(e.to_string());
        }
        let auth = match self.gateway.authorize(&body.card_token, body.amount_minor, &body.currency).await {
            Ok(a) => a,
            Err(GatewayError::Declined(code)) => {
                return Reply::status(Status::PAYMENT_REQUIRED).text(format!("declined: {code}"));
            }
            Err(e) => {
                self.ledger.abandon(sk.storage_key());
                return Reply::status(Status::BAD_GATEWAY).text(e.to_string());
            }
        };
        self.ledger.commit(sk.storage_key(), &auth.id);
        Reply::json(Status::CREATED, &auth)
    }

    pub async fn reverse(&self, ctx: Ctx, caller: Caller, authorization_id: String) -> Reply {
        let sk = match scoped_key(&ctx, &caller, "card.reverse") {
            Ok(k) => k,
            Err(p) => return Reply::problem(p),
        };
        if let Err(e) = self.ledger.reserve(sk.storage_key(), 0) {
            return Reply::status(Status::CONFLICT).text(e.to_string());
        }
        let reversal = match self.gateway.reverse(&authorization_id).await {
            Ok(r) => r,
            Err(GatewayError::Declined(code)) => {
                self.ledger.abandon(sk.storage_key());
                return Reply::status(Status::UNPROCESSABLE_ENTITY).text(format!("reversal refused: {code}"));
            }
            Err(e) => {
                self.ledger.abandon(sk.storage_key());
                return Reply::status(Status::BAD_GATEWAY).text(e.to_string());
            }
        };
        self.ledger.commit(sk.storage_key(), &reversal.id);
        Reply::json(Status::OK, &reversal)
    }
}
