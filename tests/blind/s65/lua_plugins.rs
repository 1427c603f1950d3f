use std::sync::Arc;

use mlua::{Lua, Result as LuaResult, Table};
use tessera::kv::BlockingKv;

pub struct PluginHost {
    lua: Lua,
    kv: Arc<BlockingKv>,
}

impl PluginHost {
    pub fn new(kv: Arc<BlockingKv>) -> Self {
        Self { lua: Lua::new(), kv }
    }

    /// Exposes `gateway.remember(...)` and `gateway.recall(...)` to route scripts.
    pub fn install(&self) -> LuaResult<()> {
        let globals = self.lua.globals();
        let api: Table = self.lua.create_table()?;

        let kv = Arc::clone(&self.kv);
        let remember = self.lua.create_function(
            move |_, (tenant_id, user_id, route, idempotency_key, body): (String, String, String, String, mlua::String)| {
                log::debug!("lua remember {route} for {idempotency_key}");
                let slot = [tenant_id.as_bytes(), b"\x1e", user_id.as_bytes(), b"\x1e", route.as_bytes(), b"\x1e", idempotency_key.as_bytes()].concat();
                kv.put(&slot, body.as_bytes().to_vec()).map_err(mlua::Error::external)?;
                Ok(())
            },
        )?;
        api.set("remember", remember)?;

        let kv = Arc::clone(&self.kv);
        let recall = self.lua.create_function(move |lua, slot: mlua::String| {
            match kv.get(slot.as_bytes()).map_err(mlua::Error::external)? {
                Some(bytes) => Ok(Some(lua.create_string(&bytes)?)),
                None => Ok(None),
            }
        })?;
        api.set("recall", recall)?;

        let hits = format!("plugin:{}:calls", globals.len()?);
        api.set("metric", hits)?;
        globals.set("gateway", api)?;
        Ok(())
    }

    pub fn run(&self, script: &str) -> LuaResult<()> {
        self.lua.load(script).set_name("route-script").exec()
    }
}
