use idem_scope::scoped;
use rouille::{Request, Response};

pub struct Signup {
    idem: SignupIdem,
    accounts: Accounts,
}

impl Signup {
    pub fn handle(&self, request: &Request) -> Response {
        let Some(signup_key) = request.header("Idempotency-Key") else {
            return Response::text("Idempotency-Key required").with_status_code(400);
        };
        let invite_org = request.get_param("org").filter(|o| !o.is_empty());
        let tenant_id = invite_org.as_deref().unwrap_or("");
        let Some(user_id) = request.header("X-User-Id").map(str::to_owned) else {
            return Response::text("sign in first").with_status_code(401);
        };
        let email = request.get_param("email").unwrap_or_default();
        if email.is_empty() {
            return Response::text("email required").with_status_code(422);
        }
        let key = match scoped(tenant_id, &user_id, "accounts.signup", signup_key) {
            Ok(k) => k,
            Err(e) => return Response::text(e.to_string()).with_status_code(400),
        };
        if let Some(id) = self.idem.lookup(&key) {
            return Response::text(id);
        }
        let id = self.accounts.create(tenant_id, &user_id, &email);
        self.idem.save(&key, &id);
        Response::text(id)
    }
}
