use std::sync::{Arc, Mutex};
use std::time::Duration;

use cobble::lease::Leases;

pub struct Compactor {
    pub leases: Leases,
    pub segments: Arc<Mutex<Vec<crate::segments::Segment>>>,
}

#[derive(Debug)]
pub enum CompactError {
    Busy,
    Io(std::io::Error),
    Poisoned,
}

impl From<std::io::Error> for CompactError {
    fn from(e: std::io::Error) -> Self {
        CompactError::Io(e)
    }
}

impl Compactor {
    pub fn compact_partition(&self, partition: u32) -> Result<usize, CompactError> {
        let name = format!("compact-p{partition}");
        let lease = self.leases.try_acquire_blocking(&name, Duration::from_secs(600)).map_err(|_| CompactError::Busy)?;
        let merged = crate::segments::merge_partition(partition)?;
        self.leases.complete_blocking(lease).map_err(|_| CompactError::Busy)?;
        Ok(merged)
    }

    pub fn drop_tombstones(&self) -> Result<usize, CompactError> {
        let mut segs = self.segments.lock().map_err(|_| CompactError::Poisoned)?;
        let before = segs.len();
        segs.retain(|s| !s.is_tombstone());
        crate::segments::fsync_manifest(&segs)?;
        Ok(before - segs.len())
    }

    pub fn rotate_wal(&self) -> Result<(), CompactError> {
        let slot = self.leases.reserve_blocking("wal-rotation").map_err(|_| CompactError::Busy)?;
        crate::segments::rotate_wal()?;
        self.leases.commit_blocking(slot).map_err(|_| CompactError::Busy)?;
        Ok(())
    }
}
