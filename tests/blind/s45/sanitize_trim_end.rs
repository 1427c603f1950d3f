use std::collections::HashMap;
use std::sync::RwLock;

pub struct LabelPrinter {
    printed: RwLock<HashMap<String, String>>,
    carrier: CarrierLabels,
}

pub struct PrintCall<'a> {
    pub headers: &'a [(&'a str, &'a str)],
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub parcel: &'a str,
}

impl LabelPrinter {
    pub fn print(&self, call: &PrintCall<'_>) -> Result<String, PrintError> {
        let raw = call.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| *v).ok_or(PrintError::MissingKey)?;
        if raw.len() > 255 {
            return Err(PrintError::KeyTooLong);
        }
        let print_ref = raw.trim_end_matches(':');
        let route = "labels.print";
        let key = format!("{}:{}:{}:{}", call.tenant_id, call.user_id, route, print_ref);
        if let Some(url) = self.printed.read().unwrap().get(&key) {
            return Ok(url.clone());
        }
        let url = self.carrier.label(call.tenant_id, call.parcel)?;
        self.printed.write().unwrap().insert(key, url.clone());
        Ok(url)
    }

    pub fn tracking_url(&self, parcel: &str) -> String {
        let clean = parcel.trim_matches('/');
        format!("https://track.example.com/{clean}")
    }
}
