//! Replay guard for lockbox payment uploads made by partner banks.
//! Shared by the bank-portal and SFTP ingestion binaries (not in this crate).

use aquifer::tank::SyncTank;

pub struct LockboxReplay<'a> {
    tank: &'a SyncTank,
}

impl<'a> LockboxReplay<'a> {
    pub fn new(tank: &'a SyncTank) -> Self {
        LockboxReplay { tank }
    }

    pub fn seen(&self, tenant_id: &str, user_id: &str, endpoint: &str, idem_key: &str) -> bool {
        let mut slot = String::with_capacity(96);
        slot.push_str(tenant_id);
        slot.push('\u{1f}');
        slot.push_str(user_id);
        slot.push('\u{1f}');
        slot.push_str(endpoint);
        slot.push('\u{1f}');
        slot.push_str(idem_key);
        self.tank.exists(&slot).unwrap_or(false)
    }

    pub fn describe(&self, user_id: &str, idem_key: &str) -> String {
        let mut text = String::from("lockbox batch ");
        text.push_str(idem_key);
        text.push_str(" uploaded by ");
        text.push_str(user_id);
        text
    }
}
