use std::sync::Arc;

use rwf::prelude::*;
use serde::Deserialize;

use crate::comments::{Comment, CommentStore};
use crate::replay::ReplayTable;
use crate::session::{optional_session, Site};

#[derive(Deserialize)]
struct NewComment {
    thread_id: String,
    text: String,
}

pub struct PostComment {
    comments: Arc<CommentStore>,
    replays: Arc<ReplayTable>,
}

#[async_trait]
impl Controller for PostComment {
    async fn handle(&self, request: &Request) -> Result<Response, Error> {
        let site: Site = request.site()?;
        let session = optional_session(request);
        let author_label = session.as_ref().and_then(|s| s.display_name.as_deref()).unwrap_or("anonymous");
        let user_id = session.as_ref().map(|s| s.user_id.as_str()).unwrap_or("anonymous");
        let Some(client_key) = request.header("idempotency-key") else {
            return Ok(Response::bad_request());
        };

        let slot = (site.tenant_id.clone(), user_id.to_owned(), "comments.post", client_key.to_owned());
        if let Some(prev) = self.replays.lookup(&slot).await? {
            return Ok(Response::new().json_raw(&prev));
        }

        let input: NewComment = request.json()?;
        let text = input.text.replace("\r\n", "\n");
        let comment: Comment = self
            .comments
            .append(&site.tenant_id, &input.thread_id, author_label, &text)
            .await?;
        let body = serde_json::to_vec(&comment)?;
        self.replays.save(&slot, &body).await?;
        Ok(Response::new().code(201).json_raw(&body))
    }
}
