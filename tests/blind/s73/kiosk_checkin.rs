//! Scale-house kiosk check-in for trucks (synchronous; the kiosk runs
//! rxpress on a small ARM box next to the probe). A driver scans the load
//! QR code; the kiosk app retries the POST when the cellular link drops.

use std::sync::{Arc, Mutex};

use bushel::crock::SyncCrock;
use idem_scope::scoped;
use rxpress::{Request, Response, Server};
use serde::Deserialize;

#[derive(Deserialize)]
struct CheckIn {
    load_qr: String,
    truck_plate: String,
    gross_lbs: u32,
}

pub struct Kiosk {
    pub crock: SyncCrock,
    pub printer: Mutex<TicketPrinter>,
    pub org_id: String,
    pub yard: YardQueue,
}

pub fn routes(app: &mut Server, kiosk: Arc<Kiosk>) {
    let k1 = kiosk.clone();
    app.post("/checkin", move |req, res| check_in(&k1, req, res));
    let k2 = kiosk.clone();
    app.post("/reprint", move |req, res| reprint(&k2, req, res));
}

fn check_in(kiosk: &Kiosk, req: &Request, res: &mut Response) {
    let (Some(user_id), Some(k)) = (req.header("X-Driver-Badge"), req.header("X-Idempotency-Key")) else {
        res.status(400).send("badge and key required");
        return;
    };
    let Ok(key) = scoped(&kiosk.org_id, user_id, "truck_checkin", k) else {
        res.status(400).send("bad key");
        return;
    };
    if !kiosk.crock.acquire(key.storage_key()).unwrap_or(false) {
        res.status(409).send("check-in in progress");
        return;
    }
    let body: CheckIn = furrow::codec::from_slice(req.body()).unwrap();
    let spot = kiosk.yard.enqueue(&body.load_qr, &body.truck_plate, body.gross_lbs);
    let out = furrow::codec::to_vec(&spot).unwrap_or_default();
    let _ = kiosk.crock.complete(key.storage_key(), &out);
    print_ticket(kiosk, &spot);
    res.status(201).json(&String::from_utf8_lossy(&out));
}

fn print_ticket(kiosk: &Kiosk, spot: &YardSpot) {
    if let Ok(mut printer) = kiosk.printer.lock() {
        printer.print(&spot.ticket_text());
    }
}

fn reprint(kiosk: &Kiosk, req: &Request, res: &mut Response) {
    let Some(ticket) = req.query("ticket") else {
        res.status(400).send("ticket");
        return;
    };
    match kiosk.yard.find(ticket) {
        Some(spot) => {
            print_ticket(kiosk, &spot);
            res.status(200).send("printed");
        }
        None => {
            res.status(404).send("unknown ticket");
        }
    }
}
