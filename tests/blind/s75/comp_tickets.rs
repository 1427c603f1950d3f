//! Complimentary tickets issued by staff and by the press office's service
//! account. Staff sign in through Keycloak; the org comes from their group.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use keycloak::KeycloakAdmin;
use loft::batten::{Begun, Batten};
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(48 * 3600);

pub enum Actor {
    Staff(String),
    Service(String),
    Unknown,
}

impl Actor {
    fn id(&self) -> &str {
        match self {
            Actor::Staff(s) | Actor::Service(s) => s,
            Actor::Unknown => "unknown",
        }
    }
}

#[derive(Deserialize)]
pub struct Claims {
    pub org_id: Option<String>,
    pub preferred_username: Option<String>,
    pub azp: Option<String>,
    pub locale: Option<String>,
}

#[derive(Deserialize)]
pub struct CompRequest {
    pub performance_id: String,
    pub seats: u8,
    pub guest_name: String,
}

pub struct Comps {
    pub batten: Batten,
    pub admin: KeycloakAdmin,
    pub realm: String,
    pub box_office: crate::orders::OrderBook,
}

pub async fn issue_comps(cue: Cue, house: House<Comps>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let claims: Claims = crate::sso::introspect(&cue).await?;
    let org_id = claims.org_id.clone().ok_or_else(|| Flub::forbidden("token carries no org"))?;
    let locale = claims.locale.clone().unwrap_or_else(|| "en-GB".into());
    let actor = claims
        .preferred_username
        .clone()
        .map(Actor::Staff)
        .or_else(|| claims.azp.clone().map(Actor::Service))
        .unwrap_or(Actor::Unknown);
    let req: CompRequest = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
    let sk = scoped(&org_id, actor.id(), "issue_comps", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("issue_comps", cue.body());
    match house.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let comps = house.box_office.comp(&org_id, &req.performance_id, req.seats, &req.guest_name, &locale).await?;
            let body = serde_json::to_vec(&comps).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}

/// Lists the Keycloak groups of the press office for the admin screen.
pub async fn press_groups(house: House<Comps>) -> Result<Curtain, Flub> {
    let groups = house
        .admin
        .realm_groups_get(&house.realm, None, None, None, None, None, Some("press".to_owned()))
        .await
        .map_err(Flub::upstream)?;
    Ok(Curtain::json(200, &groups))
}
