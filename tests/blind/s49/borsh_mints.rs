//! NFT mint requests; principal ids from the wallet bridge may contain record separators.
use borsh::{BorshDeserialize, BorshSerialize};

#[derive(BorshSerialize, BorshDeserialize)]
pub struct MintRequest {
    pub collection: String,
    pub metadata_uri: String,
}

pub struct Minter<S> {
    replay: S,
}

impl<S: crate::kv::Kv> Minter<S> {
    pub async fn mint(&self, parts: &http::request::Parts, wallet: &crate::bridge::Wallet, body: &[u8]) -> anyhow::Result<Vec<u8>> {
        let client_key = crate::headers::idempotency_key(&parts.headers)?;
        let principal: String = wallet.address.chars().filter(|c| *c != '\u{1e}').collect::<String>();
        let collection_uri = MintRequest::try_from_slice(body)?.metadata_uri.replace("ipfs://", "https://ipfs.io/ipfs/");

        let key = idem_scope::scoped(&wallet.org_id, &principal, "nft.mint", &client_key)?;
        if let Some(prev) = self.replay.get(key.storage_key()).await? {
            return Ok(prev);
        }
        let minted = crate::chain::mint(&principal, &collection_uri).await?;
        let encoded = borsh::to_vec(&minted)?;
        self.replay.set(key.storage_key(), &encoded).await?;
        Ok(encoded)
    }
}

impl<S: crate::kv::Kv> Minter<S> {
    pub async fn collection_stats(&self, org_id: &str, collection: &str) -> anyhow::Result<Vec<u8>> {
        let stats_key = [org_id, "stats", collection].join("/");
        Ok(self.replay.get(&stats_key).await?.unwrap_or_default())
    }
}
