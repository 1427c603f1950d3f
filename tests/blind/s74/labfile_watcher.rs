//! Drop-folder import for analyzers that can only write result files
//! (older chemistry analyzers export CSV to a network share), plus the
//! bench upload for the same files.

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use idem_scope::{scoped, Problem};
use notify::{recommended_watcher, Event, EventKind, RecursiveMode, Watcher};
use silage::bunker::BlockingBunker;
use stirrup::creds::Staff;
use stirrup::plain::{Inbound, Sendback};

pub struct DropFolder {
    pub org_id: String,
    pub analyzer_id: String,
    pub dir: PathBuf,
    pub imported: BlockingBunker,
    pub importer: crate::labresults::CsvImporter,
}

impl DropFolder {
    pub fn run(&self) -> notify::Result<()> {
        let (tx, rx) = mpsc::channel::<notify::Result<Event>>();
        let mut watcher = recommended_watcher(tx)?;
        watcher.watch(&self.dir, RecursiveMode::NonRecursive)?;
        for res in rx {
            let Ok(event) = res else { continue };
            if !matches!(event.kind, EventKind::Create(_)) {
                continue;
            }
            for path in event.paths {
                self.import_one(&path);
            }
        }
        Ok(())
    }

    fn import_one(&self, path: &Path) {
        // The analyzer's export service names each file after its delivery id.
        let Some(delivery_id) = path.file_stem().and_then(|s| s.to_str()) else { return };
        let Ok(key) = scoped(&self.org_id, &self.analyzer_id, "/dropfolder/results", delivery_id) else { return };
        if matches!(self.imported.exists(key.storage_key()), Ok(true)) {
            return;
        }
        let Ok(bytes) = std::fs::read(path) else { return };
        if self.importer.import_csv(&self.org_id, &bytes).is_ok() {
            let _ = self.imported.put(key.storage_key(), b"imported".to_vec());
            let _ = std::fs::rename(path, path.with_extension("done"));
        }
    }

    /// `POST /v1/lab/files`: the same CSV uploaded from the bench PC.
    pub fn upload(&self, inb: &Inbound, staff: &Staff) -> Sendback {
        let Some(k) = inb.header("Idempotency-Key") else {
            return Sendback::problem(Problem::missing_key());
        };
        let key = match scoped(&staff.org_id, &staff.user_id, "/v1/lab/files", k) {
            Ok(key) => key,
            Err(e) => return Sendback::problem(Problem::invalid_key(&e.to_string())),
        };
        if matches!(self.imported.exists(key.storage_key()), Ok(true)) {
            return Sendback::json(200, &"already imported");
        }
        match self.importer.import_csv(&staff.org_id, inb.body()) {
            Ok(()) => {
                let _ = self.imported.put(key.storage_key(), b"imported".to_vec());
                Sendback::json(201, &"imported")
            }
            Err(e) => Sendback::error(&e.to_string()),
        }
    }
}
