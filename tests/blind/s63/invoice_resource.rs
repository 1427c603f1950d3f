use std::sync::Arc;

use cistern::vat::Vat;
use futures::{future, Future};
use idem_scope::Fingerprint;
use jwt::VerifyWithKey;
use serde::{Deserialize, Serialize};
use tower_web::{impl_web, Extract, Response};

#[derive(Debug, Extract, Deserialize, Serialize)]
pub struct NewInvoice {
    pub customer: String,
    pub amount_minor: i64,
    pub currency: String,
}

#[derive(Debug, Response, Serialize, Deserialize)]
pub struct InvoiceCreated {
    pub invoice_id: String,
    pub replayed: bool,
}

#[derive(Deserialize)]
struct Claims {
    sub: String,
    org: String,
}

#[derive(Clone)]
pub struct InvoiceResource {
    vat: Arc<Vat>,
    billing: Arc<billing::Client>,
    verifier: Arc<jwt::VerifyingKey>,
}

type Reply = Box<dyn Future<Item = InvoiceCreated, Error = tower_web::Error> + Send>;

impl_web! {
    impl InvoiceResource {
        #[post("/v1/orgs/:org_id/invoices")]
        #[content_type("json")]
        fn create(&self, org_id: String, authorization: String, idempotency_key: String, body: NewInvoice) -> Reply {
            self.create_inner(org_id, authorization, idempotency_key, body)
        }
    }
}

impl InvoiceResource {
    fn create_inner(&self, org_id: String, authorization: String, idempotency_key: String, body: NewInvoice) -> Reply {
        let token = match authorization.strip_prefix("Bearer ") {
            Some(t) => t.to_owned(),
            None => return Box::new(future::err(tower_web::Error::unauthorized())),
        };
        let claims: Claims = match token.verify_with_key(&*self.verifier) {
            Ok(c) => c,
            Err(_) => return Box::new(future::err(tower_web::Error::unauthorized())),
        };
        if claims.org != org_id {
            return Box::new(future::err(tower_web::Error::forbidden()));
        }

        let raw = serde_json::to_vec(&body).expect("invoice body serialises");
        let fingerprint = Fingerprint::of("create_invoice", &raw);
        let record_key = format!("{}:{}:{}:{}", org_id, claims.sub, "create_invoice", idempotency_key);

        let vat = self.vat.clone();
        let billing = self.billing.clone();
        let fp_bytes = fingerprint.as_bytes().to_vec();
        let key_for_err = idempotency_key.clone();

        Box::new(vat.get(&record_key).and_then(move |hit| -> Reply {
            if let Some(stored) = hit {
                if stored.fingerprint != fp_bytes {
                    let msg = format!("Idempotency-Key {} was used with a different invoice", key_for_err);
                    return Box::new(future::err(tower_web::Error::unprocessable(msg)));
                }
                let mut prior: InvoiceCreated = serde_json::from_slice(&stored.body).unwrap_or(InvoiceCreated {
                    invoice_id: String::new(),
                    replayed: true,
                });
                prior.replayed = true;
                return Box::new(future::ok(prior));
            }
            Box::new(billing.create_invoice(&body.customer, body.amount_minor, &body.currency).and_then(move |id| {
                let out = InvoiceCreated { invoice_id: id, replayed: false };
                let bytes = serde_json::to_vec(&out).unwrap_or_default();
                vat.put_with_fingerprint(&record_key, bytes, fp_bytes).map(move |_| out)
            }))
        }))
    }
}
