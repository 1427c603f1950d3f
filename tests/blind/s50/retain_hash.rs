//! Tagging API; tags are a list, the idempotency key is normalised first.
use http::HeaderMap;
use idem_scope::scoped;
use std::collections::HashMap;

pub struct Tagger {
    applied: HashMap<String, Vec<String>>,
}

impl Tagger {
    pub fn apply(&mut self, h: &HeaderMap, team_id: &str, actor: &str, mut tags: Vec<String>) -> Result<Vec<String>, String> {
        let mut k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?.to_owned();
        k.retain(|c| c != '#');
        tags.retain(|t| !t.is_empty() && !t.contains('#'));
        let key = scoped(team_id, actor, "tags.apply", &k).map_err(|e| e.to_string())?;
        Ok(self.applied.entry(key.storage_key().to_owned()).or_insert(tags).clone())
    }
}

/// Normalises user-entered tags for display: lowercase, deduplicated, sorted.
pub fn display_tags(tags: &[String]) -> Vec<String> {
    let mut out: Vec<String> = tags.iter().map(|t| t.trim().to_lowercase()).filter(|t| !t.is_empty()).collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_tags_are_sorted_and_unique() {
        let tags = vec!["B".to_string(), "a".into(), "b".into(), " ".into()];
        assert_eq!(display_tags(&tags), vec!["a".to_string(), "b".into()]);
    }
}
