use std::sync::{Arc, Mutex, OnceLock};

use idem_scope::scoped;
use magnus::{function, prelude::*, Error, RString, Ruby};
use quarry::records::Records;

enum DocType {
    Passport,
    DriverLicence,
    ResidencePermit,
}

impl DocType {
    fn parse(raw: &str) -> Option<Self> {
        match raw {
            "passport" => Some(Self::Passport),
            "driver_licence" => Some(Self::DriverLicence),
            "residence_permit" => Some(Self::ResidencePermit),
            _ => None,
        }
    }
}

static RECORDS: OnceLock<Arc<Records>> = OnceLock::new();
static PROVIDER: OnceLock<Mutex<kyc_vendor::Client>> = OnceLock::new();

fn runtime_error(ruby: &Ruby, msg: impl ToString) -> Error {
    Error::new(ruby.exception_runtime_error(), msg.to_string())
}

fn verify(ruby: &Ruby, tenant: String, user_id: String, idempotency_key: String, doc_type: String, image: RString) -> Result<String, Error> {
    let sk = scoped(&tenant, &user_id, "kyc.verify", &idempotency_key).map_err(|e| runtime_error(ruby, e))?;
    let records = RECORDS.get().ok_or_else(|| runtime_error(ruby, "records not configured"))?;
    let bytes = unsafe { image.as_slice() }.to_vec();

    let provider = PROVIDER.get().expect("provider configured").lock().expect("provider mutex poisoned");
    records.mark_in_progress(sk.storage_key()).map_err(|e| runtime_error(ruby, e))?;
    let verdict = match DocType::parse(&doc_type) {
        Some(DocType::Passport) => provider.passport(&tenant, &bytes),
        Some(DocType::DriverLicence) => provider.driver_licence(&tenant, &bytes),
        Some(DocType::ResidencePermit) => todo!("residence permits need the v2 vendor API"),
        None => return Err(runtime_error(ruby, format!("unknown document type {doc_type}"))),
    };
    drop(provider);
    records.mark_done(sk.storage_key(), verdict.to_json().into_bytes()).map_err(|e| runtime_error(ruby, e))?;
    Ok(verdict.to_json())
}

#[magnus::init]
fn init(ruby: &Ruby) -> Result<(), Error> {
    let module = ruby.define_module("Kyc")?;
    module.define_singleton_method("verify", function!(verify, 5))?;
    Ok(())
}
