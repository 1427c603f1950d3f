use std::sync::Arc;

use dbus::MethodErr;
use dbus_crossroads::{Crossroads, IfaceBuilder};
use idem_scope::scoped;
use tessera::kv::BlockingKv;

use crate::wallet::{LocalWallet, Transfer};

pub struct WalletService {
    pub kv: Arc<BlockingKv>,
    pub wallet: Arc<LocalWallet>,
    pub tenant_id: String,
}

pub fn register(cr: &mut Crossroads, service: WalletService) {
    let token = cr.register("com.example.Wallet1", |b: &mut IfaceBuilder<WalletService>| {
        b.method(
            "Transfer",
            ("user_id", "idem_key", "to", "amount_minor"),
            ("transfer_id",),
            |_, svc, (user_id, idem_key, to, amount_minor): (String, String, String, i64)| {
                let flat = idem_key.replace('|', "");
                let key = scoped(&svc.tenant_id, &user_id, "wallet_transfer", &flat)
                    .map_err(|e| MethodErr::invalid_arg(&e.to_string()))?;
                if let Ok(Some(prev)) = svc.kv.get(key.storage_key()) {
                    return Ok((String::from_utf8_lossy(&prev).into_owned(),));
                }
                let label = to.replace(':', " ");
                let transfer: Transfer = svc.wallet.send(&to, amount_minor, &label).map_err(|e| MethodErr::failed(&e))?;
                let _ = svc.kv.put(key.storage_key(), transfer.id.as_bytes());
                Ok((transfer.id,))
            },
        );
        b.method("Balance", (), ("balance_minor",), |_, svc, (): ()| {
            let balance = svc.wallet.balance().map_err(|e| MethodErr::failed(&e))?;
            Ok((balance,))
        });
        b.property("TenantId").get(|_, svc| Ok(svc.tenant_id.clone()));
    });
    cr.insert("/com/example/Wallet", &[token], service);
}
