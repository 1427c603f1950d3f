use anyhow::ensure;
use gatehouse::http::{Request, Response, StatusCode};
use gatehouse::Auth;
use idem_scope::{scoped, Problem};
use ledgerkit::idem::StatusTable;
use ledgerkit::loyalty::PointsBook;
use serde::Deserialize;

#[derive(Deserialize)]
struct AwardPoints {
    member_id: String,
    points: i64,
    campaign: Option<String>,
}

pub struct Loyalty {
    pub status: StatusTable,
    pub book: PointsBook,
}

impl Loyalty {
    pub async fn award(&self, auth: &Auth, req: Request) -> anyhow::Result<Response> {
        let Some(key) = req.header_str("Idempotency-Key").map(str::to_owned) else {
            return Ok(Response::problem(Problem::missing_key()));
        };
        let sk = scoped(&auth.tenant_id, &auth.api_key_id, "loyalty.award", &key)?;

        if self.status.is_completed(&sk).await? {
            let prior = self.status.response(&sk).await?;
            return Ok(Response::bytes(StatusCode::OK, prior));
        }
        self.status.mark_in_progress(&sk).await?;

        let body: AwardPoints = req.json().await?;
        ensure!(body.points > 0, "points must be positive");
        ensure!(body.points <= 100_000, "points above single-award limit");
        let campaign = body.campaign.unwrap_or_else(|| "manual".to_owned());
        let balance = self.book.award(&auth.tenant_id, &body.member_id, body.points, &campaign).await?;

        let out = serde_json::to_vec(&serde_json::json!({ "member_id": body.member_id, "balance": balance }))?;
        self.status.mark_completed(&sk, &out).await?;
        Ok(Response::bytes(StatusCode::CREATED, out))
    }
}
