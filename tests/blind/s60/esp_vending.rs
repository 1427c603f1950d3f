use std::sync::{Arc, RwLock};

use anyhow::{anyhow, Result};
use embedded_svc::http::{Headers, Method};
use embedded_svc::io::{Read, Write};
use esp_idf_svc::http::server::{Configuration, EspHttpServer};
use esp_idf_svc::nvs::{EspDefaultNvsPartition, EspNvs, NvsDefault};
use idem_scope::scoped;

use crate::dispenser::Dispenser;

// NVS item names are limited to 15 bytes.
const NVS_KEY_MAX: usize = 15;

fn nvs_slot(storage_key: &str) -> String {
    let h = const_fnv1a_hash::fnv1a_hash_str_64(storage_key);
    let mut slot = format!("{:016x}", h);
    slot.truncate(NVS_KEY_MAX);
    slot
}

fn parse_selection(buf: &[u8]) -> Result<u8> {
    let text = core::str::from_utf8(buf)?;
    let slot: u8 = text.trim().parse()?;
    if slot == 0 || slot > 48 {
        return Err(anyhow!("no such selection"));
    }
    Ok(slot)
}

pub fn start(
    partition: EspDefaultNvsPartition,
    dispenser: Arc<Dispenser>,
) -> Result<EspHttpServer<'static>> {
    let nvs: Arc<RwLock<EspNvs<NvsDefault>>> =
        Arc::new(RwLock::new(EspNvs::new(partition, "vend", true)?));
    let mut server = EspHttpServer::new(&Configuration::default())?;

    server.fn_handler("/vend", Method::Post, move |mut req| -> Result<()> {
        let Some(client_key) = req.header("Idempotency-Key").map(str::to_owned) else {
            req.into_status_response(400)?.write_all(b"missing Idempotency-Key")?;
            return Ok(());
        };
        let account_id = req.header("X-Account").unwrap_or("guest").to_owned();
        let uid = req
            .header("X-Card-Uid")
            .map(str::to_owned)
            .ok_or_else(|| anyhow!("card uid missing"))?;

        let mut buf = [0u8; 16];
        let n = req.read(&mut buf)?;
        let selection = parse_selection(&buf[..n])?;

        let key = scoped(&account_id, &uid, "vend", &client_key)?;
        let slot = nvs_slot(key.storage_key());

        if nvs.read().map_err(|_| anyhow!("nvs poisoned"))?.get_u8(&slot)?.is_some() {
            req.into_ok_response()?.write_all(b"{\"status\":\"already vended\"}")?;
            return Ok(());
        }

        dispenser.release_item(selection)?;
        nvs.write()
            .map_err(|_| anyhow!("nvs poisoned"))?
            .set_u8(&slot, selection)?;

        req.into_ok_response()?.write_all(b"{\"status\":\"vended\"}")?;
        Ok(())
    })?;

    server.fn_handler("/health", Method::Get, |req| -> Result<()> {
        req.into_ok_response()?.write_all(b"ok")?;
        Ok(())
    })?;

    Ok(server)
}
