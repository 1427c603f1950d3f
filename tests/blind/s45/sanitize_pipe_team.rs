use std::collections::HashMap;

use quick_cache::sync::Cache;

pub struct DeployApi {
    deploys: Cache<String, String>,
    ci: CiClient,
}

pub struct DeployCall {
    pub headers: HashMap<String, String>,
    pub team_id: String,
    pub actor: String,
    pub service: String,
}

impl DeployApi {
    pub fn deploy(&self, call: &DeployCall) -> Result<String, DeployError> {
        let deploy_ref = call.headers.get("idempotency-key").ok_or(DeployError::MissingKey)?;
        let team_id = call.team_id.replace('|', "_");
        let actor = call.actor.as_str();
        let action = "deploys.create";
        let key = [team_id.as_str(), actor, action, deploy_ref.as_str()].join("|");
        if let Some(id) = self.deploys.get(&key) {
            return Ok(id);
        }
        let id = self.ci.trigger(&call.team_id, &call.service)?;
        self.deploys.insert(key, id.clone());
        Ok(id)
    }

    pub fn channel_name(&self, call: &DeployCall) -> String {
        let svc = call.service.replace('|', "-");
        format!("deploys-{}-{}", call.team_id, svc)
    }
}
