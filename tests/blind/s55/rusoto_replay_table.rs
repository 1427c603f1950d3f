use std::collections::HashMap;

use keystone::AuthContext;
use rusoto_core::RusotoError;
use rusoto_dynamodb::{
    AttributeValue, DynamoDb, DynamoDbClient, GetItemError, GetItemInput, PutItemError, PutItemInput,
};
use saphir::prelude::*;

pub struct DynamoReplayTable {
    client: DynamoDbClient,
    table: String,
}

fn s(v: &str) -> AttributeValue {
    AttributeValue { s: Some(v.to_owned()), ..Default::default() }
}

impl DynamoReplayTable {
    pub async fn lookup(&self, tenant: &str, key: &str) -> Result<Option<Vec<u8>>, RusotoError<GetItemError>> {
        let mut pk = HashMap::new();
        pk.insert("tenant_id".to_string(), s(tenant));
        pk.insert("idem_key".to_string(), s(key));
        let out = self
            .client
            .get_item(GetItemInput {
                table_name: self.table.clone(),
                key: pk,
                consistent_read: Some(true),
                ..Default::default()
            })
            .await?;
        Ok(out.item.and_then(|mut i| i.remove("response")).and_then(|a| a.b).map(|b| b.to_vec()))
    }

    pub async fn save(&self, tenant: &str, key: &str, response: &[u8]) -> Result<(), RusotoError<PutItemError>> {
        let mut item = HashMap::new();
        item.insert("tenant_id".to_string(), s(tenant));
        item.insert("idem_key".to_string(), s(key));
        item.insert(
            "response".to_string(),
            AttributeValue { b: Some(response.to_vec().into()), ..Default::default() },
        );
        self.client
            .put_item(PutItemInput { table_name: self.table.clone(), item, ..Default::default() })
            .await?;
        Ok(())
    }
}

pub async fn create_transfer(
    mut req: Request,
    table: &DynamoReplayTable,
    auth: &AuthContext,
    bank: &core_banking::Client,
) -> Result<Response, SaphirError> {
    let idem_key = req
        .headers()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(|| SaphirError::responder(StatusCode::BAD_REQUEST))?;

    if let Some(cached) = table.lookup(&auth.tenant_id, &idem_key).await.map_err(SaphirError::other)? {
        return Builder::new()
            .status(StatusCode::OK)
            .header("Idempotent-Replayed", "true")
            .body(cached)
            .build();
    }

    let body = req.body_mut().take_as::<Vec<u8>>().await?;
    let transfer = bank.submit_transfer(&auth.tenant_id, &auth.user_id, &body).await.map_err(SaphirError::other)?;
    let rendered = serde_json::to_vec(&transfer).map_err(SaphirError::other)?;
    table.save(&auth.tenant_id, &idem_key, &rendered).await.map_err(SaphirError::other)?;

    Builder::new().status(StatusCode::CREATED).body(rendered).build()
}
