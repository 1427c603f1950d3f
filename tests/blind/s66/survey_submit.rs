use std::sync::Arc;

use cadence::{Counted, StatsdClient};
use flate2::Crc;
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::surveys::{SurveyAnswers, Surveys};

pub struct SurveySubmit {
    replay: Arc<Stash>,
    surveys: Arc<Surveys>,
    metrics: Arc<StatsdClient>,
}

impl SurveySubmit {
    pub async fn post(&self, call: Call, survey_id: &str) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Ok(answers) = call.form::<SurveyAnswers>() else {
            return Answer::status(Code::BAD_REQUEST);
        };

        let crc_of = |bytes: &[u8]| {
            let mut c = Crc::new();
            c.update(bytes);
            c.sum()
        };
        let route = "survey_submit";
        let slot = format!("{}:{}:{}:{:08x}", who.tenant_id, who.user_id, route, crc_of(call.body()));

        if let Ok(Some(prev)) = self.replay.get(&slot).await {
            let _ = self.metrics.count_with_tags("survey.replayed", 1).with_tag("survey", survey_id).try_send();
            return Answer::bytes(Code::OK, prev);
        }
        let receipt = match self.surveys.record(&who.tenant_id, survey_id, &who.user_id, answers).await {
            Ok(r) => r,
            Err(e) => return Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        };
        let body = receipt.to_json().into_bytes();
        let _ = self.replay.put_ttl(&slot, &body, 7 * 24 * 3600).await;
        Answer::bytes(Code::CREATED, body)
    }

    pub async fn results(&self, call: Call, survey_id: &str) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let viewer = who.role.as_deref().unwrap_or("anonymous");
        let _ = self.metrics.count_with_tags("survey.results_viewed", 1).with_tag("role", viewer).try_send();
        match self.surveys.summary(&who.tenant_id, survey_id).await {
            Ok(s) => Answer::text(Code::OK, &s.to_json()),
            Err(_) => Answer::status(Code::NOT_FOUND),
        }
    }
}
