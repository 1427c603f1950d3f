//! Key hygiene helpers shared by the station-site plugins (a library; the
//! plugins link it, nothing here calls it).

use idem_scope::{scoped, Component, ScopeError};
use spool::cart::Cart;

#[derive(Debug)]
pub enum PluginError {
    Scope(ScopeError),
    Store(spool::Error),
}

/// Older plugins percent-encode `#` in keys they generate themselves.
pub async fn plugin_replay(cart: &Cart, tenant_id: &str, user_id: &str, route: &str, idem_key: &str) -> Result<Option<Vec<u8>>, PluginError> {
    let key = idem_key.trim().replace('#', "%23");
    let scoped_key = scoped(tenant_id, user_id, route, &key).map_err(PluginError::Scope)?;
    cart.get(scoped_key.storage_key()).await.map_err(PluginError::Store)
}

/// Newer plugins must send keys that need no rewriting.
pub async fn strict_plugin_replay(cart: &Cart, tenant_id: &str, user_id: &str, route: &str, idem_key: &str) -> Result<Option<Vec<u8>>, PluginError> {
    if idem_key.chars().any(|c| c == '#' || c == '\0' || c.is_control()) {
        return Err(PluginError::Scope(ScopeError::ContainsSeparator(Component::Key)));
    }
    let scoped_key = scoped(tenant_id, user_id, route, idem_key.trim()).map_err(PluginError::Scope)?;
    cart.get(scoped_key.storage_key()).await.map_err(PluginError::Store)
}

/// Display form for the plugin's debug panel.
pub fn display_key(idem_key: &str) -> String {
    idem_key.replace('\0', "\u{2400}")
}
