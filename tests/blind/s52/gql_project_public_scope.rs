use idem_scope::scoped;
use serde::Deserialize;
use warp::{Filter, Rejection, Reply};

use crate::gql::{GqlRequest, GqlResponse};
use crate::grants::{Grant, GrantService};
use crate::jwt::{bearer_claims, BearerClaims};
use crate::replay::ReplayStore;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DisburseGrantArgs {
    project_id: Option<String>,
    grant_id: String,
    amount_minor: i64,
    /// Idempotency key supplied by the client for this disbursement.
    request_token: String,
}

#[derive(Clone)]
pub struct GrantResolvers {
    pub replays: ReplayStore,
    pub grants: GrantService,
}

impl GrantResolvers {
    async fn disburse(&self, claims: &BearerClaims, args: DisburseGrantArgs) -> anyhow::Result<Grant> {
        let project_id = args.project_id.as_deref().unwrap_or("public");
        let key = scoped(project_id, &claims.sub, "grant.disburse", &args.request_token)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(serde_json::from_str(&prev)?);
        }
        let grant = self.grants.disburse(project_id, &args.grant_id, args.amount_minor).await?;
        self.replays.put(key.storage_key(), &serde_json::to_string(&grant)?).await?;
        Ok(grant)
    }
}

pub fn route(resolvers: GrantResolvers) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("graphql" / "grants")
        .and(warp::post())
        .and(bearer_claims())
        .and(warp::body::json())
        .and(warp::any().map(move || resolvers.clone()))
        .and_then(|claims: BearerClaims, req: GqlRequest, r: GrantResolvers| async move {
            let resp = match serde_json::from_value::<DisburseGrantArgs>(req.variables.clone()) {
                Ok(args) => GqlResponse::from_anyhow("disburseGrant", r.disburse(&claims, args).await),
                Err(e) => GqlResponse::error(&e.to_string()),
            };
            Ok::<_, Rejection>(warp::reply::json(&resp))
        })
}
