//! ZeroMQ request gateway: each request envelope carries the client's key.
use std::panic::{self, AssertUnwindSafe};

use zeromq::{RouterSocket, Socket, SocketRecv, SocketSend, ZmqMessage};

#[derive(serde::Deserialize)]
pub struct Envelope {
    pub tenant_id: String,
    pub client_id: String,
    pub operation: String,
    #[serde(rename = "idempotency-key")]
    pub key: String,
    pub payload: Vec<u8>,
}

pub async fn serve(mut socket: RouterSocket, store: crate::idem::SharedStore) -> zeromq::ZmqResult<()> {
    loop {
        let msg: ZmqMessage = socket.recv().await?;
        let Some(frame) = msg.get(1) else { continue };
        let Ok(env) = rmp_serde::from_slice::<Envelope>(frame) else { continue };
        let store = store.clone();
        tokio::spawn(async move {
            let key = idem_scope::scoped(&env.tenant_id, &env.client_id, &env.operation, &env.key)?;
            store.claim(key.storage_key()).await?;
            let out = crate::processor::run(&env.operation, &env.payload).await.expect("processor crashed");
            store.complete(key.storage_key(), &out).await?;
            Ok::<_, anyhow::Error>(())
        });
    }
}

pub fn handle_sync(store: &crate::idem::BlockingStore, env: &Envelope) -> anyhow::Result<Vec<u8>> {
    let key = idem_scope::scoped(&env.tenant_id, &env.client_id, &env.operation, &env.key)?;
    store.claim(key.storage_key())?;
    let result = panic::catch_unwind(AssertUnwindSafe(|| crate::processor::run_blocking(&env.operation, &env.payload)));
    match result {
        Ok(Ok(out)) => {
            store.complete(key.storage_key(), &out)?;
            Ok(out)
        }
        Ok(Err(e)) => {
            store.release(key.storage_key())?;
            Err(e)
        }
        Err(panic_payload) => {
            let _ = store.release(key.storage_key());
            panic::resume_unwind(panic_payload)
        }
    }
}
