use idem_scope::scoped;
use rocket::form::Form;
use rocket::http::{CookieJar, Status};
use rocket::State;

use crate::donations::{Donation, DonationDesk};
use crate::guards::{IdemKey, Tenant};
use crate::replay::ReplayStore;

#[derive(rocket::FromForm)]
pub struct DonationForm<'r> {
    campaign_id: &'r str,
    amount_minor: i64,
    currency: &'r str,
    note: Option<&'r str>,
}

#[rocket::post("/campaigns/donate", data = "<form>")]
pub async fn donate(
    tenant: Tenant,
    idem: IdemKey,
    jar: &CookieJar<'_>,
    form: Form<DonationForm<'_>>,
    replays: &State<ReplayStore>,
    desk: &State<DonationDesk>,
) -> Result<String, Status> {
    let user_id = jar
        .get_private("uid")
        .map(|c| c.value().to_owned())
        .unwrap_or_else(|| "anonymous".to_owned());
    let currency = if form.currency.is_empty() { "USD" } else { form.currency };
    let note = form.note.unwrap_or("");

    let key = scoped(&tenant.tenant_id, &user_id, "campaign.donate", idem.as_str()).map_err(|_| Status::BadRequest)?;
    if let Some(prev) = replays.lookup(&key).await.map_err(|_| Status::ServiceUnavailable)? {
        return Ok(prev);
    }
    let donation: Donation = desk
        .donate(&tenant.tenant_id, &user_id, form.campaign_id, form.amount_minor, currency, note)
        .await
        .map_err(|_| Status::UnprocessableEntity)?;
    let body = serde_json::to_string(&donation).map_err(|_| Status::InternalServerError)?;
    replays.save(&key, &body).await.map_err(|_| Status::ServiceUnavailable)?;
    Ok(body)
}
