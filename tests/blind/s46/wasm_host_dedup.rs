use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use wasmtime::{Caller, Linker};

pub struct HostState {
    pub tenant: String,
    pub subject: String,
    pub dedup: Arc<Mutex<BTreeMap<String, Vec<u8>>>>,
    pub request_headers: Vec<(String, String)>,
}

fn read_guest_str(_caller: &mut Caller<'_, HostState>, _ptr: i32, _len: i32) -> String {
    String::new()
}

pub fn link(linker: &mut Linker<HostState>) -> anyhow::Result<()> {
    linker.func_wrap("host", "remember", |mut caller: Caller<'_, HostState>, op_ptr: i32, op_len: i32| -> i32 {
        let action = read_guest_str(&mut caller, op_ptr, op_len);
        let state = caller.data();
        let Some(client_key) = state
            .request_headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key"))
            .map(|(_, v)| v.clone())
        else {
            return -1;
        };
        let mut slot = String::with_capacity(128);
        slot.push_str(&state.tenant);
        slot.push('\u{1e}');
        slot.push_str(&state.subject);
        slot.push('\u{1e}');
        slot.push_str(&action);
        slot.push('\u{1e}');
        slot.push_str(&client_key);
        let mut map = state.dedup.lock().unwrap();
        if map.contains_key(&slot) {
            return 1;
        }
        map.insert(slot, Vec::new());
        0
    })?;
    linker.func_wrap("host", "log_key", |caller: Caller<'_, HostState>| {
        let state = caller.data();
        for (n, v) in &state.request_headers {
            if n.eq_ignore_ascii_case("idempotency-key") {
                eprintln!("guest saw key {}", v);
            }
        }
    })?;
    Ok(())
}
