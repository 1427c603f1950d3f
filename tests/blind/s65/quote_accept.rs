use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use kestrel::{Exchange, Outcome, Status};

use crate::quotes::{Acceptance, QuoteDesk};

pub struct AcceptQuote {
    desk: Arc<QuoteDesk>,
    accepted: Arc<RwLock<HashMap<String, Acceptance>>>,
}

impl AcceptQuote {
    pub async fn accept(&self, ex: &Exchange) -> Outcome {
        let Some(ident) = ex.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let page_size: usize = ex.query("page_size").and_then(|v| v.parse().ok()).unwrap_or(50);
        let earlier = ex
            .header("Idempotency-Key")
            .map(str::to_owned)
            .and_then(|k| self.accepted.read().ok()?.get(&k).cloned());
        if let Some(done) = earlier {
            return Outcome::json(Status::OK, &done);
        }
        let Some(quote_id) = ex.path_param("quote") else {
            return Outcome::status(Status::NOT_FOUND);
        };
        let acceptance = match self.desk.accept(&ident.tenant_id, &quote_id, page_size).await {
            Ok(a) => a,
            Err(e) => return Outcome::text(Status::CONFLICT, e.to_string()),
        };
        Outcome::json(Status::CREATED, &acceptance)
    }
}

impl AcceptQuote {
    pub async fn list_accepted(&self, ex: &Exchange) -> Outcome {
        let Some(ident) = ex.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Ok(accepted) = self.accepted.read() else {
            return Outcome::status(Status::SERVICE_UNAVAILABLE);
        };
        let mine: Vec<&Acceptance> = accepted
            .values()
            .filter(|a| a.tenant_id == ident.tenant_id)
            .take(100)
            .collect();
        Outcome::json(Status::OK, &mine)
    }
}
