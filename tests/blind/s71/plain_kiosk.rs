//! Ticket vending machines at stations run the synchronous wharf stack on a
//! small ARM board; the EMV terminal and the thermal printer hang off USB.

use std::sync::Mutex;
use std::time::Duration;

use hopper::bay::SyncBay;
use idem_scope::{scoped, Problem};
use wharf::Fault;
use wharf::badge::Kiosk;
use wharf::codec::Decode;
use wharf::plain::{Answer, Hail};

use crate::emv::Terminal;
use crate::printer::Printer;

const LEASE: Duration = Duration::from_secs(90);

#[derive(Decode)]
pub struct Sale {
    pub product: String,
    pub amount_minor: i64,
    pub zones: Vec<u8>,
}

pub struct KioskSales {
    bay: SyncBay,
    printer: Option<Printer>,
    printer_lock: Mutex<()>,
    emv: Terminal,
}

impl KioskSales {
    pub fn sell(&self, hail: &Hail, kiosk: &Kiosk) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let sale: Sale = hail.json()?;
        let key = scoped(&kiosk.tenant_id, &kiosk.client_id, "kiosk.sale", k)?;

        if !self.bay.claim(key.storage_key(), LEASE)? {
            return Ok(Answer::problem(Problem::in_progress(k)));
        }
        let auth = match self.emv.authorize(sale.amount_minor) {
            Ok(a) => a,
            Err(e) => {
                self.bay.release(key.storage_key())?;
                return Ok(Answer::declined(&e.to_string()));
            }
        };

        let ticket = crate::tickets::mint(&kiosk.tenant_id, &sale.product, &sale.zones, &auth);
        let printed = self
            .printer
            .as_ref()
            .map(|p| p.print(&ticket).expect("ticket printer jammed"));
        let body = wharf::json!({ "ticket": ticket.id, "printed": printed.is_some() })
            .to_string()
            .into_bytes();
        self.bay.complete(key.storage_key(), &body)?;
        Ok(Answer::bytes(200, body))
    }

    pub fn reprint(&self, hail: &Hail, kiosk: &Kiosk) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let key = scoped(&kiosk.tenant_id, &kiosk.client_id, "kiosk.sale", k)?;
        let _held = self.printer_lock.try_lock().map_err(|_| Fault::busy("printer in use"))?;
        let stored = self.bay.get(key.storage_key())?.ok_or_else(|| Fault::not_found("no such sale"))?;
        let printer = self.printer.as_ref().ok_or_else(|| Fault::busy("no printer"))?;
        printer.print_raw(&stored)?;
        Ok(Answer::bytes(200, stored))
    }
}
