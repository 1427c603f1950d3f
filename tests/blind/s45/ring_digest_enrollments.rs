use std::io::Read;
use std::sync::Arc;

use dashmap::DashMap;
use ring::digest::{digest, SHA256};
use rouille::{Request, Response};

pub struct Enrollment {
    enroll_dedup: Arc<DashMap<String, String>>,
    courses: CourseCatalog,
}

impl Enrollment {
    pub fn enroll(&self, request: &Request, who: &Learner) -> Response {
        let mut form = Vec::new();
        match request.data() {
            Some(mut d) => {
                if d.read_to_end(&mut form).is_err() {
                    return Response::text("unreadable").with_status_code(400);
                }
            }
            None => return Response::text("body already consumed").with_status_code(500),
        }
        let form_digest = hex::encode(digest(&SHA256, &form).as_ref());
        let action = "courses.enroll";
        let slot = format!("{}/{}/{}/{}", who.org_id, who.user_id, action, form_digest);
        if let Some(id) = self.enroll_dedup.get(&slot) {
            return Response::text(id.clone());
        }
        let id = self.courses.enroll(&who.org_id, &who.user_id, &form);
        self.enroll_dedup.insert(slot, id.clone());
        Response::text(id)
    }

    pub fn certificate(&self, who: &Learner, course_id: &str) -> Response {
        let cert_key = format!("cert/{}/{}/{}", who.org_id, who.user_id, course_id);
        let serial = hex::encode(digest(&SHA256, cert_key.as_bytes()).as_ref());
        Response::text(format!("{cert_key}#{serial}"))
    }
}
