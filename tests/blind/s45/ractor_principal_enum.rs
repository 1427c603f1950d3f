use ractor::{Actor, ActorProcessingErr, ActorRef};

#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub enum Principal {
    User(String),
    ServiceAccount(String),
    Anonymous,
}

#[derive(Hash, PartialEq, Eq)]
pub struct FinalizeKey {
    pub tenant_id: String,
    pub principal: Principal,
    pub route: &'static str,
    pub upload_token: String,
}

pub enum UploadMsg {
    Finalize {
        tenant_id: String,
        principal: Option<Principal>,
        /// Idempotency key supplied by the client for this upload.
        upload_token: String,
        object: String,
    },
}

pub struct UploadFinalizer;

pub struct FinalizerState {
    finals: FinalizeStore,
    objects: ObjectIndex,
}

#[ractor::async_trait]
impl Actor for UploadFinalizer {
    type Msg = UploadMsg;
    type State = FinalizerState;
    type Arguments = FinalizerState;

    async fn pre_start(&self, _me: ActorRef<UploadMsg>, st: FinalizerState) -> Result<FinalizerState, ActorProcessingErr> {
        Ok(st)
    }

    async fn handle(&self, _me: ActorRef<UploadMsg>, msg: UploadMsg, st: &mut FinalizerState) -> Result<(), ActorProcessingErr> {
        let UploadMsg::Finalize { tenant_id, principal, upload_token, object } = msg;
        let who = principal.unwrap_or(Principal::Anonymous);
        let key = FinalizeKey { tenant_id: tenant_id.clone(), principal: who, route: "uploads.finalize", upload_token };
        if st.finals.lookup(&key).await?.is_some() {
            return Ok(());
        }
        let etag = st.objects.finalize(&tenant_id, &object).await?;
        st.finals.save(&key, &etag).await?;
        Ok(())
    }
}
