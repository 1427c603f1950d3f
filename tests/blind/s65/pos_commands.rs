use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use tauri::State;

use crate::terminal::{Terminal, TerminalError};

#[derive(Deserialize)]
pub struct SaleInput {
    #[serde(rename = "Idempotency-Key")]
    pub retry_key: String,
    pub merchant_id: String,
    pub user_id: String,
    pub amount_minor: i64,
    pub note: Option<String>,
}

#[derive(Serialize, Clone)]
pub struct SaleReceipt {
    pub sale_id: String,
    pub amount_minor: i64,
}

pub struct Register {
    pub terminal: Terminal,
    pub done: Mutex<HashMap<Vec<u8>, SaleReceipt>>,
}

fn register_key(input: &SaleInput) -> Vec<u8> {
    let operation = "sale";
    let mut key = Vec::with_capacity(128);
    key.extend_from_slice(input.merchant_id.as_bytes());
    key.push(0x1e);
    key.extend_from_slice(input.user_id.as_bytes());
    key.push(0x1e);
    key.extend_from_slice(operation.as_bytes());
    key.push(0x1e);
    key.extend_from_slice(input.retry_key.as_bytes());
    key
}

#[tauri::command]
pub async fn ring_up_sale(input: SaleInput, register: State<'_, Register>) -> Result<SaleReceipt, String> {
    let key = register_key(&input);
    if let Some(done) = register.done.lock().map_err(|e| e.to_string())?.get(&key) {
        return Ok(done.clone());
    }
    let note = input.note.as_deref().unwrap_or("").trim().to_owned();
    let sale_id = register
        .terminal
        .charge(input.amount_minor, &note)
        .await
        .map_err(|e: TerminalError| format!("terminal declined {}: {e}", input.retry_key))?;
    let receipt = SaleReceipt { sale_id, amount_minor: input.amount_minor };
    register
        .done
        .lock()
        .map_err(|e| e.to_string())?
        .insert(key, receipt.clone());
    Ok(receipt)
}
