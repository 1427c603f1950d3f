use std::sync::OnceLock;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use cairn::sync_kv::SyncKv;

static STORE: OnceLock<SyncKv> = OnceLock::new();

fn store() -> PyResult<&'static SyncKv> {
    STORE.get().ok_or_else(|| PyRuntimeError::new_err("replay store not initialised"))
}

#[pyfunction]
fn init(path: &str) -> PyResult<()> {
    let kv = SyncKv::open(path).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let _ = STORE.set(kv);
    Ok(())
}

/// Used by the Django billing views before they call the payment provider.
#[pyfunction]
fn cached_response<'py>(py: Python<'py>, idempotency_key: &str) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let hit = store()?
        .get(idempotency_key)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok(hit.map(|bytes| PyBytes::new(py, &bytes)))
}

#[pyfunction]
#[pyo3(signature = (tenant_id, locale=None))]
fn invoice_template(tenant_id: &str, locale: Option<&str>) -> PyResult<Option<Vec<u8>>> {
    let locale = locale.unwrap_or("en");
    let key = format!("tpl:{}:{}", tenant_id, locale);
    store()?.get(&key).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

#[pymodule]
fn billing_replay(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(init, m)?)?;
    m.add_function(wrap_pyfunction!(cached_response, m)?)?;
    m.add_function(wrap_pyfunction!(invoice_template, m)?)?;
    Ok(())
}
