use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use cobble::vault::BlockingVault;
use idem_scope::scoped;
use thimble::blocking::{Request, Response};

pub struct LabelPrinter {
    pub vault: BlockingVault,
    pub driver: crate::zpl::Driver,
}

impl LabelPrinter {
    pub fn print(&self, req: &Request) -> Response {
        let Some(raw) = req.header("idempotency-key") else {
            return Response::status(400);
        };
        let (Some(tenant), Some(user)) = (req.ext::<crate::auth::TenantId>(), req.ext::<crate::auth::UserId>()) else {
            return Response::status(401);
        };
        let Ok(sk) = scoped(&tenant.0, &user.0, "label.print", raw) else {
            return Response::status(400);
        };
        let key = sk.storage_key().to_owned();

        let render = || -> Vec<u8> {
            let doc = self.driver.layout(req.body()).expect("label layout");
            self.driver.render(&doc)
        };

        if self.vault.claim(&key).is_err() {
            return Response::status(409);
        }
        let zpl = render();
        self.vault.complete(&key, &zpl).ok();
        Response::bytes(200, zpl)
    }

    pub fn reprint(&self, req: &Request) -> Response {
        let Some(raw) = req.header("idempotency-key") else {
            return Response::status(400);
        };
        let (Some(tenant), Some(user)) = (req.ext::<crate::auth::TenantId>(), req.ext::<crate::auth::UserId>()) else {
            return Response::status(401);
        };
        let Ok(sk) = scoped(&tenant.0, &user.0, "label.reprint", raw) else {
            return Response::status(400);
        };
        if self.vault.claim(sk.storage_key()).is_err() {
            return Response::status(409);
        }
        let out = catch_unwind(AssertUnwindSafe(|| self.driver.render_raw(req.body())));
        match out {
            Ok(zpl) => {
                self.vault.complete(sk.storage_key(), &zpl).ok();
                Response::bytes(200, zpl)
            }
            Err(panic) => {
                self.vault.release(sk.storage_key()).ok();
                resume_unwind(panic)
            }
        }
    }
}
