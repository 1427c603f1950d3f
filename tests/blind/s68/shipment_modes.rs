use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub enum Mode {
    Parcel,
    Freight { pallets: u16 },
    Courier,
}

pub async fn create_shipment(ex: Exchange, caller: Caller, mode: Mode, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?
        .to_string();
    let key = match mode {
        Mode::Parcel => {
            let sk = scoped(&caller.tenant_id, &caller.user_id, "shipment.parcel", &raw)
                .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
            sk.storage_key().to_owned()
        }
        Mode::Freight { pallets } => {
            log::debug!("freight with {pallets} pallets");
            let route = "shipment.freight";
            caller.tenant_id.clone() + "|" + &caller.user_id + "|" + route + "|" + &raw
        }
        Mode::Courier => return Err(Reply::status(Status::NotImplemented)),
    };
    if !vault.set_nx(&key, b"created").await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
        return Ok(Reply::status(Status::Ok));
    }
    Ok(Reply::status(Status::Created))
}

impl Mode {
    pub fn label(&self) -> String {
        match self {
            Mode::Parcel => "parcel".into(),
            Mode::Freight { pallets } => format!("freight x{pallets}"),
            Mode::Courier => "courier".into(),
        }
    }
}
