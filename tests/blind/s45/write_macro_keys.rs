use std::fmt::Write as _;
use std::sync::Arc;

use dashmap::DashMap;

pub struct LoyaltyApi {
    awards: Arc<DashMap<String, u64>>,
    points: PointsLedger,
}

pub struct AwardCall<'a> {
    pub headers: &'a [(&'a str, &'a str)],
    pub merchant_id: &'a str,
    pub user_id: &'a str,
    pub points: u64,
}

impl LoyaltyApi {
    pub fn award(&self, call: &AwardCall<'_>) -> Result<u64, LoyaltyError> {
        let award_ref = call.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("x-idempotency-key")).map(|(_, v)| *v).ok_or(LoyaltyError::MissingKey)?;
        let endpoint = "/v1/loyalty/awards";
        let mut k = String::with_capacity(96);
        write!(k, "{}\u{1e}{}\u{1e}{}\u{1e}{}", call.merchant_id, call.user_id, endpoint, award_ref).map_err(|_| LoyaltyError::Internal)?;
        if let Some(total) = self.awards.get(&k) {
            return Ok(*total);
        }
        let total = self.points.add(call.merchant_id, call.user_id, call.points)?;
        self.awards.insert(k, total);
        Ok(total)
    }

    pub fn balance_key(&self, merchant_id: &str, user_id: &str) -> String {
        let mut k = String::new();
        let _ = write!(k, "bal:{merchant_id}:{user_id}");
        k
    }
}
