use std::sync::Arc;
use std::time::Duration;

use larder::jobs::{JobBoard, JobRecord};
use tokio::sync::Semaphore;

/// Renders thumbnails for uploaded images; jobs are produced by the upload service.
pub struct ThumbnailWorker {
    board: Arc<JobBoard>,
    gpu_slots: Arc<Semaphore>,
    renderer: crate::render::Renderer,
}

impl ThumbnailWorker {
    pub async fn tick(&self) -> anyhow::Result<usize> {
        let batch: Vec<JobRecord> = self.board.poll("thumbnails", 16).await?;
        let mut done = 0;
        for job in batch {
            if !self.board.claim(&job.id, Duration::from_secs(300)).await? {
                continue;
            }
            let _permit = self.gpu_slots.clone().acquire_owned().await?;
            let source = self.renderer.fetch_source(&job.object_path).await?;
            let thumb = self.renderer.render(&source, 256)?;
            let thumb_path = format!("{}/thumb-256.webp", job.object_path.trim_end_matches(".orig"));
            self.renderer.store(&thumb_path, &thumb).await?;
            self.board.complete(&job.id, thumb_path.as_bytes()).await?;
            done += 1;
        }
        Ok(done)
    }

    pub async fn run(self: Arc<Self>) {
        loop {
            match self.tick().await {
                Ok(0) => tokio::time::sleep(Duration::from_secs(2)).await,
                Ok(n) => tracing::debug!(rendered = n, "thumbnail batch done"),
                Err(e) => {
                    tracing::warn!(error = %e, "thumbnail batch failed; leases expire on their own");
                    tokio::time::sleep(Duration::from_secs(5)).await;
                }
            }
        }
    }
}
