use aws_lambda_events::apigw::{ApiGatewayV2httpRequest, ApiGatewayV2httpResponse};
use lambda_runtime::{Error, LambdaEvent};
use polodb_core::bson::{doc, Bson};
use polodb_core::{Collection, Database};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::marker::PhantomData;

pub trait Repo<K, V> {
    fn load(&self, id: &K) -> Result<Option<V>, Error>;
    fn save(&self, id: &K, value: &V) -> Result<(), Error>;
}

pub struct PoloRepo<V> {
    coll: Collection<Envelope<V>>,
    _v: PhantomData<V>,
}

#[derive(Serialize, Deserialize)]
pub struct Envelope<V> {
    _id: String,
    value: V,
}

impl<K: Serialize, V: Serialize + DeserializeOwned + Clone> Repo<K, V> for PoloRepo<V> {
    fn load(&self, id: &K) -> Result<Option<V>, Error> {
        let idv = serde_json::to_string(id)?;
        Ok(self.coll.find_one(doc! { "_id": idv })?.map(|e| e.value))
    }

    fn save(&self, id: &K, value: &V) -> Result<(), Error> {
        let idv = serde_json::to_string(id)?;
        self.coll.insert_one(Envelope { _id: idv, value: value.clone() })?;
        Ok(())
    }
}

#[derive(Serialize, Deserialize, Clone)]
pub struct Booking {
    pub room: String,
    pub nights: u32,
}

pub struct Auth {
    pub tenant_id: String,
    pub user_id: String,
}

fn auth_of(ev: &ApiGatewayV2httpRequest) -> Result<Auth, Error> {
    let jwt = ev.request_context.authorizer.as_ref().and_then(|a| a.jwt.as_ref()).ok_or("unauthorized")?;
    Ok(Auth {
        tenant_id: jwt.claims.get("tenant_id").cloned().ok_or("no tenant")?,
        user_id: jwt.claims.get("sub").cloned().ok_or("no sub")?,
    })
}

pub async fn book(repo: &impl Repo<(String, String, String), Booking>, ev: LambdaEvent<ApiGatewayV2httpRequest>) -> Result<ApiGatewayV2httpResponse, Error> {
    let auth = auth_of(&ev.payload)?;
    let key = ev
        .payload
        .headers
        .get("Idempotency-Key")
        .ok_or("missing Idempotency-Key")?
        .to_str()?
        .to_string();
    let id = (auth.tenant_id.clone(), auth.user_id.clone(), key.clone());
    if let Some(b) = repo.load(&id)? {
        return Ok(ApiGatewayV2httpResponse { status_code: 200, body: Some(serde_json::to_string(&b)?.into()), ..Default::default() });
    }
    let booking: Booking = serde_json::from_str(ev.payload.body.as_deref().unwrap_or("{}"))?;
    repo.save(&id, &booking)?;
    let _ = Bson::Null;
    Ok(ApiGatewayV2httpResponse { status_code: 201, body: Some(serde_json::to_string(&booking)?.into()), ..Default::default() })
}
