use serde::{Deserialize, Serialize};
use worker::*;

pub struct KeyConfig {
    pub header: String,
    pub max_len: usize,
}

impl Default for KeyConfig {
    fn default() -> Self {
        Self { header: "Idempotency-Key".to_string(), max_len: 255 }
    }
}

#[derive(Serialize, Deserialize, Clone)]
struct Stored {
    status: u16,
    body: String,
}

fn client_key(cfg: &KeyConfig, req: &Request) -> Result<Option<String>> {
    let v = req.headers().get(&cfg.header)?;
    Ok(v.filter(|s| !s.is_empty() && s.len() <= cfg.max_len))
}

#[durable_object]
pub struct ReplayLog {
    state: State,
    env: Env,
}

#[durable_object]
impl DurableObject for ReplayLog {
    fn new(state: State, env: Env) -> Self {
        Self { state, env }
    }

    async fn fetch(&mut self, mut req: Request) -> Result<Response> {
        let cfg = KeyConfig::default();
        let request_id = req.headers().get("x-request-id")?.unwrap_or_default();
        console_log!("replay-log request {}", request_id);
        let Some(key) = client_key(&cfg, &req)? else {
            return Response::error("missing key", 400);
        };
        let storage = self.state.storage();
        if let Ok(prev) = storage.get::<Stored>(&key).await {
            return Response::ok(prev.body).map(|r| r.with_status(prev.status));
        }
        let text = req.text().await?;
        let stored = Stored { status: 201, body: format!("{{\"echo\":{}}}", text.len()) };
        storage.put(&key, stored.clone()).await?;
        Response::ok(stored.body).map(|r| r.with_status(201))
    }
}

pub async fn forward(env: &Env, key: &str, body: String) -> Result<Response> {
    let mut headers = Headers::new();
    headers.set("Idempotency-Key", key)?;
    headers.set("content-type", "application/json")?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_headers(headers).with_body(Some(body.into()));
    let stub = env.durable_object("REPLAY_LOG")?.id_from_name("global")?.get_stub()?;
    stub.fetch_with_request(Request::new_with_init("https://replay/", &init)?).await
}
