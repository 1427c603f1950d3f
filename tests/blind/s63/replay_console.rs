use std::sync::Arc;

use bpaf::Bpaf;
use cistern::vat::Vat;
use idem_scope::scoped;

/// Operator tool: re-runs failed refund requests from the dead-letter table.
#[derive(Debug, Clone, Bpaf)]
#[bpaf(options)]
pub struct ReplayArgs {
    /// Replay id printed by the dead-letter report
    #[bpaf(long("replay-id"))]
    pub replay_id: String,
    /// Tenant the refund belongs to
    #[bpaf(long("tenant"))]
    pub tenant_id: String,
    /// User who originally requested the refund
    #[bpaf(long("user"))]
    pub user_id: String,
    /// The client's original Idempotency-Key, when the dead letter kept it
    #[bpaf(long("client-key"))]
    pub client_key: Option<String>,
    /// Only print what would happen
    #[bpaf(long("dry-run"), switch)]
    pub dry_run: bool,
}

pub struct RefundReplayer {
    /// Same store the public refund endpoint replays from.
    vat: Arc<Vat>,
    dead_letters: Arc<refunds::DeadLetters>,
    refunds: Arc<refunds::Engine>,
}

impl RefundReplayer {
    pub async fn run(&self, args: ReplayArgs) -> anyhow::Result<()> {
        let letter = self.dead_letters.fetch(&args.replay_id).await?;
        let sk = match args.client_key.as_deref() {
            Some(client_key) => scoped(&args.tenant_id, &args.user_id, "refund", client_key)?,
            None => scoped(&args.tenant_id, &args.user_id, "refund", &format!("replay:{}", args.replay_id))?,
        };

        if self.vat.get(sk.storage_key()).await?.is_some() {
            println!("replay {} already applied", args.replay_id);
            return Ok(());
        }
        if args.dry_run {
            println!("would replay {} for tenant {}", args.replay_id, args.tenant_id);
            return Ok(());
        }
        let result = self.refunds.apply(&args.tenant_id, &letter.payload).await?;
        self.vat.put(sk.storage_key(), result.to_json()).await?;
        self.dead_letters.resolve(&args.replay_id).await?;
        println!("replayed {} -> {}", args.replay_id, result.refund_id);
        Ok(())
    }
}

pub async fn main_entry(replayer: RefundReplayer) -> anyhow::Result<()> {
    let args = replay_args().run();
    replayer.run(args).await
}
