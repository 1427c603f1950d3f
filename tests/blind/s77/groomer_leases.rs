//! Night-grooming schedule: snowcats claim runs so two drivers do not groom
//! the same piste. Not related to client requests.

use std::time::Duration;

use cornice::rope::Rope;
use tokio::sync::Mutex;

pub struct Dispatcher {
    pub rope: Rope,
    pub board: Mutex<Vec<String>>,
}

impl Dispatcher {
    pub async fn assign(&self, cat_id: &str, piste: &str) -> anyhow::Result<()> {
        let lease = self.rope.claim(&format!("piste:{piste}"), Duration::from_secs(3600)).await?;
        let mut board = self.board.lock().await;
        let pass = crate::grooming::plan(piste).await?;
        board.push(format!("{cat_id}:{piste}:{}", pass.len()));
        self.rope.complete(lease).await?;
        Ok(())
    }

    pub async fn night_run(&self) -> anyhow::Result<()> {
        let run_id = uuid::Uuid::new_v4().to_string();
        let slot = format!("groom-night:{run_id}");
        self.rope.put(&slot, b"started").await?;
        tracing::info!(run_id, "night grooming run");
        Ok(())
    }
}
