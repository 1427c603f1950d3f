use std::sync::Arc;

use may_minihttp::{HttpService, Request, Response};

#[derive(Clone)]
pub struct VotingService {
    ballots: Arc<BallotStore>,
    polls: Arc<PollRepo>,
}

impl HttpService for VotingService {
    fn call(&mut self, req: Request, rsp: &mut Response) -> std::io::Result<()> {
        let mut vote_key = None;
        let mut org_id = None;
        let mut user_id = None;
        for h in req.headers() {
            match h.name.to_ascii_lowercase().as_str() {
                "idempotency-key" => vote_key = std::str::from_utf8(h.value).ok().map(str::to_owned),
                "x-org-id" => org_id = std::str::from_utf8(h.value).ok().map(str::to_owned),
                "x-user-id" => user_id = std::str::from_utf8(h.value).ok().map(str::to_owned),
                _ => {}
            }
        }
        let (Some(vote_key), Some(org_id), Some(user_id)) = (vote_key, org_id, user_id) else {
            rsp.status_code(400, "Bad Request");
            return Ok(());
        };
        if let Some(prev) = self.ballots.get(&org_id, &vote_key) {
            rsp.body_vec(prev);
            return Ok(());
        }
        let receipt = self.polls.cast(&org_id, &user_id, req.path());
        self.ballots.put(&org_id, &user_id, "polls.vote", &vote_key, receipt.clone());
        rsp.body_vec(receipt);
        Ok(())
    }
}
