//! Government EV-charger rebate applications (HTML form posts).

use std::collections::hash_map::DefaultHasher;
use std::hash::{BuildHasher, BuildHasherDefault};

use garner::grid::Grid;
use trellis::guard::Identity;
use trellis::pull::Form;
use trellis::{Code, Cx, Reply};

#[derive(serde::Deserialize, Hash)]
pub struct RebateForm {
    pub installer_licence: String,
    pub invoice_total_cents: u64,
    pub serial: String,
}

type Stable = BuildHasherDefault<DefaultHasher>;

pub async fn apply(cx: Cx, who: Identity, Form(form): Form<RebateForm>, dedup: &Grid) -> Reply {
    let sum = Stable::default().hash_one(&form);
    if let Ok(Some(prev)) = dedup.get(&who.org_id, &who.user_id, "/v1/rebates", &sum.to_string()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let licence_tag = Stable::default().hash_one(&form.installer_licence);
    tracing::info!(licence_tag, "rebate application");
    let case = crate::rebates::file(&who, &form).await;
    let _ = dedup.put(&who.org_id, &who.user_id, "/v1/rebates", &sum.to_string(), case.as_bytes()).await;
    Reply::text(Code::CREATED, case)
}
