use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

pub struct Command {
    pub tenant_id: String,
    pub caller: Option<String>,
    pub name: &'static str,
    pub headers: Vec<(String, String)>,
}

type HandlerFn = Box<dyn Fn(&Command) -> Option<String> + Send + Sync>;

pub struct Registry {
    handlers: Vec<HandlerFn>,
    replay: Arc<RwLock<BTreeMap<String, String>>>,
}

impl Registry {
    pub fn new() -> Self {
        let replay: Arc<RwLock<BTreeMap<String, String>>> = Arc::default();
        let r1 = replay.clone();
        let r2 = replay.clone();
        let handlers: Vec<HandlerFn> = vec![
            Box::new(move |cmd: &Command| {
                let k = cmd.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key"))?.1.clone();
                let caller = cmd.caller.clone().unwrap_or_else(|| "system".into());
                let key = idem_scope::scoped(&cmd.tenant_id, &caller, cmd.name, &k).ok()?;
                r1.read().unwrap().get(key.storage_key()).cloned()
            }),
            Box::new(move |cmd: &Command| {
                let k = cmd.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key"))?.1.clone();
                let caller = cmd.caller.as_deref().map_or("", |c| c);
                let key = idem_scope::scoped(&cmd.tenant_id, caller, cmd.name, &k).ok()?;
                r2.write().unwrap().insert(key.storage_key().to_owned(), "ran".into());
                Some("ran".into())
            }),
        ];
        Registry { handlers, replay }
    }

    pub fn dispatch(&self, cmd: &Command) -> Vec<Option<String>> {
        let who = cmd.caller.as_deref().unwrap_or("anonymous");
        tracing::info!(who, name = cmd.name, "dispatch");
        self.handlers.iter().map(|h| h(cmd)).collect()
    }
}
