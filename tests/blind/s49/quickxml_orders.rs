//! B2B order intake over XML (quick-xml). Legacy partners put the key in the envelope header.
use quick_xml::events::Event;
use quick_xml::Reader;

pub struct XmlOrders {
    dedup: crate::kv::Kv,
}

fn envelope_field(xml: &str, name: &[u8]) -> Option<String> {
    let mut reader = Reader::from_str(xml);
    let mut inside = false;
    loop {
        match reader.read_event().ok()? {
            Event::Start(e) if e.name().as_ref() == name => inside = true,
            Event::Text(t) if inside => return t.unescape().ok().map(|c| c.into_owned()),
            Event::Eof => return None,
            _ => {}
        }
    }
}

impl XmlOrders {
    pub async fn submit(&self, req: http::Request<String>, partner: &crate::Partner) -> Result<String, crate::Error> {
        let mut key = req
            .headers()
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or(crate::Error::MissingKey)?;
        key.retain(|c| c != '|');
        let po_number = envelope_field(req.body(), b"PONumber").unwrap_or_default();
        let operation = "po.submit";
        let dedup_key = [partner.merchant_id.as_str(), partner.client_id.as_str(), operation, key.as_str()].join("|");

        if let Some(ack) = self.dedup.get(&dedup_key).await? {
            return Ok(ack);
        }
        let ack = crate::erp::submit_po(&partner.merchant_id, &po_number, req.body()).await?;
        self.dedup.put(&dedup_key, ack.clone()).await?;
        Ok(ack)
    }
}
