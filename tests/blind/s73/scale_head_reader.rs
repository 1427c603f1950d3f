//! Reads weighments from the scale indicator over RS-232 (tokio-serial) and
//! records each printed ticket. The same scale-house service answers the
//! driver app's "confirm load" calls.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::ScaleOperator;
use furrow::{Petition, Ruling, Shared};
use idem_scope::{scoped, scoped_server, Problem};
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_serial::SerialPortBuilderExt;

pub struct ScaleHouse {
    pub crock: Crock,
    pub org_id: String,
    pub tickets: TicketBook,
}

pub struct Weighment {
    /// Indicator event id; the indicator increments it on every print.
    pub event_id: String,
    pub ticket_no: String,
    pub gross: u32,
    pub tare: u32,
    pub user_id: String,
    pub reweigh: bool,
}

#[derive(Deserialize)]
pub struct Confirm {
    pub ticket_no: String,
    pub bin: String,
}

impl ScaleHouse {
    pub async fn read_indicator(&self, port: &str) -> anyhow::Result<()> {
        let serial = tokio_serial::new(port, 9600).open_native_async()?;
        let mut lines = BufReader::new(serial).lines();
        while let Some(line) = lines.next_line().await? {
            let Some(w) = parse_weighment(&line) else { continue };
            if w.reweigh {
                let key = scoped_server(&self.org_id, &w.user_id, "scale_reweigh", &w.event_id)?;
                self.crock.put(key.storage_key(), line.clone().into_bytes()).await?;
                continue;
            }
            let key = scoped(&self.org_id, &w.user_id, "scale_ticket", &w.event_id)?;
            self.crock.put(key.storage_key(), line.into_bytes()).await?;
            self.tickets.record(&w.ticket_no, w.gross, w.tare).await?;
        }
        Ok(())
    }
}

pub async fn confirm_load(p: Petition, Shared(h): Shared<ScaleHouse>, op: ScaleOperator, Json(c): Json<Confirm>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let key = match scoped(&h.org_id, &op.user_id, "scale_ticket", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = h.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let confirmed = h.tickets.confirm(&c.ticket_no, &c.bin).await;
    let body = furrow::codec::to_vec(&confirmed).unwrap_or_default();
    let _ = h.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}

fn parse_weighment(line: &str) -> Option<Weighment> {
    let mut it = line.split(',');
    Some(Weighment {
        event_id: it.next()?.trim().to_owned(),
        ticket_no: it.next()?.trim().to_owned(),
        gross: it.next()?.trim().parse().ok()?,
        tare: it.next()?.trim().parse().ok()?,
        user_id: it.next()?.trim().to_owned(),
        reweigh: it.next().map(|f| f.trim() == "R").unwrap_or(false),
    })
}
