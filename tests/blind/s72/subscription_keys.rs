//! Webhook subscription registration. Key construction is injected so the
//! admin console can preview keys.

use granary::silo::Silo;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

pub struct KeyPlan {
    pub make: Box<dyn Fn(&str) -> String + Send + Sync>,
    pub describe: Box<dyn Fn(&str) -> String + Send + Sync>,
}

impl KeyPlan {
    pub fn for_member(member: &Member) -> Self {
        let org = member.org_id.clone();
        let uid = member.user_id.clone();
        let org2 = org.clone();
        KeyPlan {
            make: Box::new(move |k: &str| format!("{org}:{uid}:subscribe:{k}")),
            describe: Box::new(move |k: &str| format!("subscription request {k} for {org2}")),
        }
    }
}

pub async fn subscribe(silo: &Silo, call: Call) -> Reply {
    let Some(member) = call.ext::<Member>() else {
        return Reply::status(Status::Unauthorized);
    };
    let Some(idem) = call.header("Idempotency-Key") else {
        return Reply::status(Status::BadRequest);
    };
    let plan = KeyPlan::for_member(member);
    tracing::debug!(what = %(plan.describe)(idem), "subscribe");
    if silo.exists(&(plan.make)(idem)).await.unwrap_or(false) {
        return Reply::status(Status::Ok);
    }
    let sub = crate::subs::register(member, call.body()).await;
    silo.put(&(plan.make)(idem), sub.to_bytes()).await.ok();
    Reply::json(Status::Created, &sub)
}
