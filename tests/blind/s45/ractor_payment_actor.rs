use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

pub enum PaymentMsg {
    Capture {
        tenant_id: String,
        user_id: String,
        /// The client's `Idempotency-Key` header, forwarded verbatim by the gateway.
        op_key: String,
        amount_minor: i64,
        reply: RpcReplyPort<Result<CaptureReceipt, PayError>>,
    },
    Void {
        tenant_id: String,
        auth_id: String,
    },
}

pub struct PaymentActor;

pub struct PaymentState {
    claims: ClaimTable,
    psp: PspClient,
    voids: VoidQueue,
}

#[ractor::async_trait]
impl Actor for PaymentActor {
    type Msg = PaymentMsg;
    type State = PaymentState;
    type Arguments = PaymentState;

    async fn pre_start(&self, _myself: ActorRef<Self::Msg>, args: PaymentState) -> Result<Self::State, ActorProcessingErr> {
        Ok(args)
    }

    async fn handle(&self, _myself: ActorRef<Self::Msg>, msg: Self::Msg, state: &mut Self::State) -> Result<(), ActorProcessingErr> {
        match msg {
            PaymentMsg::Capture { tenant_id, user_id, op_key, amount_minor, reply } => {
                let key = idem_scope::scoped(&tenant_id, &user_id, "payments.capture", &op_key)?;
                state.claims.try_claim(&key).await?;
                let auth = state.psp.authorize(&tenant_id, amount_minor).await?;
                let receipt = state.psp.capture(&auth).await?;
                state.claims.complete(&key, &receipt).await?;
                let _ = reply.send(Ok(receipt));
            }
            PaymentMsg::Void { tenant_id, auth_id } => {
                let slot = state.voids.reserve(&auth_id).await?;
                state.psp.void(&tenant_id, &auth_id).await?;
                state.voids.finish(slot).await?;
            }
        }
        Ok(())
    }
}
