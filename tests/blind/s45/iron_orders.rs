use std::io::Read;
use std::sync::Mutex;

use iron::prelude::*;
use iron::status;
use postgres::{Client, NoTls};

const ROUTE_CREATE_ORDER: &str = "orders.create";

pub const MIGRATION: &str = "CREATE TABLE IF NOT EXISTS idempotency_records (tenant_id TEXT NOT NULL, principal_id TEXT NOT NULL, route TEXT NOT NULL, idem_key TEXT NOT NULL, status TEXT NOT NULL, response TEXT, PRIMARY KEY (tenant_id, principal_id, route, idem_key))";

pub struct OrdersHandler {
    db: Mutex<Client>,
}

fn raw_header(req: &Request, name: &str) -> Option<String> {
    req.headers
        .get_raw(name)
        .and_then(|vals| vals.first())
        .and_then(|v| String::from_utf8(v.clone()).ok())
}

fn db_err(e: postgres::Error) -> IronError {
    IronError::new(e, status::InternalServerError)
}

impl OrdersHandler {
    pub fn connect(url: &str) -> Result<Self, postgres::Error> {
        Ok(OrdersHandler { db: Mutex::new(Client::connect(url, NoTls)?) })
    }
}

impl iron::Handler for OrdersHandler {
    fn handle(&self, req: &mut Request) -> IronResult<Response> {
        let auth = req.extensions.get::<AuthContext>().cloned().ok_or_else(|| IronError::new(AuthMissing, status::Unauthorized))?;
        let op_key = raw_header(req, "Idempotency-Key").ok_or_else(|| IronError::new(KeyMissing, status::BadRequest))?;
        let route = ROUTE_CREATE_ORDER;
        let mut db = self.db.lock().unwrap();

        if let Some(row) = db.query_opt("SELECT status, response FROM idempotency_records WHERE tenant_id = $1 AND principal_id = $2 AND route = $3 AND idem_key = $4", &[&auth.tenant_id, &auth.user_id, &route, &op_key]).map_err(db_err)? {
            let state: String = row.get(0);
            return match state.as_str() {
                "completed" => Ok(Response::with((status::Ok, row.get::<_, String>(1)))),
                _ => Ok(Response::with((status::Conflict, "request still in progress"))),
            };
        }

        db.execute("INSERT INTO idempotency_records (tenant_id, principal_id, route, idem_key, status) VALUES ($1, $2, $3, $4, 'in_progress')", &[&auth.tenant_id, &auth.user_id, &route, &op_key]).map_err(db_err)?;
        let mut raw = String::new();
        req.body.read_to_string(&mut raw).map_err(|e| IronError::new(e, status::BadRequest))?;
        let order: NewOrder = serde_json::from_str(&raw).map_err(|e| IronError::new(e, status::UnprocessableEntity))?;
        let order_id = insert_order(&mut db, &auth.tenant_id, &order).map_err(db_err)?;
        let response = serde_json::json!({ "order_id": order_id }).to_string();
        db.execute("UPDATE idempotency_records SET status = 'completed', response = $5 WHERE tenant_id = $1 AND principal_id = $2 AND route = $3 AND idem_key = $4", &[&auth.tenant_id, &auth.user_id, &route, &op_key, &response]).map_err(db_err)?;
        Ok(Response::with((status::Created, response)))
    }
}
