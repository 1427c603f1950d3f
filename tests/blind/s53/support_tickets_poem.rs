use std::sync::Arc;

use idem_scope::{scoped, ScopedKey};
use poem_openapi::{param::Header, payload::Json, ApiResponse, Object, OpenApi};

use crate::auth::MaybeOrg;
use crate::replay::TicketReplays;
use crate::support::{Ticket, TicketDesk};

pub const GLOBAL_ORG: &str = "global";

#[derive(Object)]
pub struct NewTicket {
    pub shipment_ref: String,
    pub category: String,
    pub message: String,
}

#[derive(ApiResponse)]
pub enum TicketResponse {
    #[oai(status = 201)]
    Created(Json<Ticket>),
    #[oai(status = 200)]
    Replayed(Json<Ticket>),
    #[oai(status = 400)]
    BadKey(Json<String>),
}

fn ticket_key(org: &MaybeOrg, user_id: &str, client_key: &str) -> Result<ScopedKey, idem_scope::ScopeError> {
    let org_id = match org {
        MaybeOrg::Known(o) => o.org_id.clone(),
        MaybeOrg::Unresolved => GLOBAL_ORG.to_string(),
    };
    scoped(&org_id, user_id, "support.tickets.open", client_key)
}

pub struct SupportApi {
    pub replays: Arc<TicketReplays>,
    pub desk: Arc<TicketDesk>,
}

#[OpenApi]
impl SupportApi {
    #[oai(path = "/v1/support/tickets", method = "post")]
    async fn open_ticket(
        &self,
        org: MaybeOrg,
        #[oai(name = "X-User-Id")] user_id: Header<String>,
        #[oai(name = "Idempotency-Key")] key: Header<String>,
        body: Json<NewTicket>,
    ) -> poem::Result<TicketResponse> {
        let scoped_key = match ticket_key(&org, &user_id.0, &key.0) {
            Ok(k) => k,
            Err(e) => return Ok(TicketResponse::BadKey(Json(e.to_string()))),
        };
        if let Some(t) = self.replays.get(&scoped_key).await? {
            return Ok(TicketResponse::Replayed(Json(t)));
        }
        let shipment_ref = body.shipment_ref.trim_matches('#');
        let ticket = self.desk.open(org.id_or_none(), shipment_ref, &body.category, &body.message).await?;
        self.replays.insert(&scoped_key, &ticket).await?;
        Ok(TicketResponse::Created(Json(ticket)))
    }
}
