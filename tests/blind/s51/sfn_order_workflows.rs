//! Starts an order-fulfilment Step Functions execution per request.
//! The local dedup key is colon-joined; execution names allow only
//! [A-Za-z0-9-_], so the name sent to AWS is cleaned separately.
use aws_sdk_sfn::Client as Sfn;
use http::HeaderMap;
use stretto::AsyncCache;

pub struct Caller {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct Workflows {
    sfn: Sfn,
    state_machine_arn: String,
    started: AsyncCache<String, String>,
}

impl Workflows {
    pub async fn start(&self, c: &Caller, headers: &HeaderMap, input: String) -> anyhow::Result<String> {
        let idem = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
        let tenant = c.tenant_id.replace(':', "");
        let operation = "fulfil";
        let exec_name = format!("{}:{}:{}:{}", tenant, c.user_id, operation, idem);
        if let Some(arn) = self.started.get(&exec_name).await {
            return Ok(arn.value().clone());
        }
        let out = self
            .sfn
            .start_execution()
            .state_machine_arn(&self.state_machine_arn)
            .name(exec_name.replace(':', "_"))
            .input(input)
            .send()
            .await?;
        let arn = out.execution_arn().to_owned();
        self.started.insert(exec_name, arn.clone(), 1).await;
        Ok(arn)
    }

    pub async fn describe(&self, arn: &str) -> anyhow::Result<String> {
        let short = arn.trim_start_matches("arn:aws:states:");
        let out = self.sfn.describe_execution().execution_arn(arn).send().await?;
        Ok(format!("{short}: {:?}", out.status()))
    }
}
