//! C ABI used by the nginx edge module (`ngx_edge_replay.so`).

use std::collections::hash_map::{Entry, HashMap};
use std::ffi::{c_char, c_int, CStr};
use std::io::Write;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

const TTL: Duration = Duration::from_secs(600);

static REPLIES: LazyLock<Mutex<HashMap<String, (Vec<u8>, Instant)>>> = LazyLock::new(|| Mutex::new(HashMap::new()));

unsafe fn as_str<'a>(ptr: *const c_char) -> Option<&'a str> {
    if ptr.is_null() {
        return None;
    }
    CStr::from_ptr(ptr).to_str().ok()
}

/// Stores `body` for the key, or copies an earlier body into `out`.
/// Returns 0 when stored, the copied length when replayed, negative on error.
#[no_mangle]
pub unsafe extern "C" fn edge_exchange(idempotency_key: *const c_char, body: *const u8, len: usize, out: *mut u8, cap: usize) -> isize {
    let Some(idempotency_key) = as_str(idempotency_key) else {
        return -1;
    };
    if body.is_null() || out.is_null() {
        return -1;
    }
    let Ok(mut replies) = REPLIES.lock() else {
        return -3;
    };
    match replies.entry(idempotency_key.to_owned()) {
        Entry::Occupied(e) if e.get().1.elapsed() < TTL => {
            let prev = &e.get().0;
            if prev.len() > cap {
                return -2;
            }
            std::ptr::copy_nonoverlapping(prev.as_ptr(), out, prev.len());
            prev.len() as isize
        }
        Entry::Occupied(mut e) => {
            e.insert((std::slice::from_raw_parts(body, len).to_vec(), Instant::now()));
            0
        }
        Entry::Vacant(v) => {
            v.insert((std::slice::from_raw_parts(body, len).to_vec(), Instant::now()));
            0
        }
    }
}

/// Renders the header block forwarded upstream.
#[no_mangle]
pub unsafe extern "C" fn edge_upstream_headers(idempotency_key: *const c_char, buf: *mut u8, cap: usize) -> c_int {
    let Some(idempotency_key) = as_str(idempotency_key) else {
        return -1;
    };
    let out = std::slice::from_raw_parts_mut(buf, cap);
    let mut cursor = std::io::Cursor::new(out);
    if write!(cursor, "Idempotency-Key: \"{}\"\r\nX-Edge: replay\r\n", idempotency_key).is_err() {
        return -2;
    }
    cursor.position() as c_int
}
