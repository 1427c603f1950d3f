//! Routes lab results into patient charts: HL7 messages relayed by the
//! integration engine over HTTP, and manual uploads from the lab bench.

use hl7_parser::Message;
use idem_scope::{scoped, Problem};
use silage::bunker::Bunker;
use stirrup::creds::{Integration, Staff};
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct ResultsRouter {
    /// Filed results, by scoped key.
    pub filed: Bunker,
    pub charts: crate::labresults::ResultFiler,
}

/// `POST /v1/lab/results/upload`: a technician uploads a result file by hand.
pub async fn manual_upload(inb: Inbound, staff: Staff, st: Shared<ResultsRouter>) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/lab/results/upload", k)?;
    if st.filed.exists(key.storage_key()).await? {
        return Ok(Sendback::status(Code::Ok));
    }
    let text = std::str::from_utf8(inb.body()).map_err(|_| Fault::bad_request("HL7 must be UTF-8"))?;
    let msg = Message::parse(text).map_err(|e| Fault::bad_request(&e.to_string()))?;
    let obs = crate::labresults::observations(&msg)?;
    st.charts.file(&staff.org_id, &obs).await?;
    st.filed.put(key.storage_key(), b"filed".to_vec()).await?;
    Ok(Sendback::status(Code::Created))
}

/// `POST /v1/integration/hl7`: the integration engine relays ORU messages.
pub async fn engine_relay(inb: Inbound, engine: Integration, st: Shared<ResultsRouter>) -> Result<Sendback, Fault> {
    let text = std::str::from_utf8(inb.body()).map_err(|_| Fault::bad_request("HL7 must be UTF-8"))?;
    let msg = Message::parse(text).map_err(|e| Fault::bad_request(&e.to_string()))?;
    let message_id = msg
        .query("MSH.10")
        .map(|v| v.raw_value().to_owned())
        .ok_or_else(|| Fault::bad_request("MSH-10 missing"))?;
    tracing::info!(%message_id, engine = %engine.caller_id, "relayed ORU");

    let key = scoped(&engine.org_id, &engine.caller_id, "/v1/integration/hl7", &message_id)?;
    if st.filed.exists(key.storage_key()).await? {
        return Ok(Sendback::status(Code::Ok));
    }
    let obs = crate::labresults::observations(&msg)?;
    st.charts.file(&engine.org_id, &obs).await?;
    st.filed.put(key.storage_key(), b"filed".to_vec()).await?;
    Ok(Sendback::status(Code::Created))
}
