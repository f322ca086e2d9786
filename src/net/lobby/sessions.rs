//! The players' sessions by name, where names that look alike are one name
//! ([`name_key`]): "Ann" cannot sit as "ann" or "аnn" (Cyrillic а), nor an
//! invitation to "ANN" turn her away. A session keeps its token's hash only.
//!
//! Besides its key, each name is known under the key of its skeleton as
//! written ([`name_keys`]), so that a new name is refused while it looks
//! like a name in use under either.
//!
//! A key takes Unicode normalisation, case folding and the confusable
//! skeleton to compute, and the lobby looks sessions up by the names its
//! tables and connections hold (each session's name as first given) many
//! times per move; those names find their key in an index instead.

use super::super::text::{name_key, name_keys};
use super::ConnId;
use crate::net::protocol::TableId;
use std::collections::{BTreeSet, HashMap};

#[derive(Debug)]
pub(super) struct Session {
    /// The name as first given; a later `hello` under another spelling of
    /// the same name is the same player and is shown this way.
    pub name: String,
    /// The token's hash ([`crate::net::store::token_hash`]).
    pub token_hash: String,
    pub conn: Option<ConnId>,
    /// Tables where this player sits and has not left.
    pub seats: BTreeSet<TableId>,
}

#[derive(Default)]
pub(super) struct Sessions {
    /// The sessions by [`name_key`].
    by_key: HashMap<String, Session>,
    /// Every key of every session's name ([`name_keys`]), to the session's
    /// [`name_key`].
    looks: HashMap<String, String>,
    /// Each session's name as first given, to its [`name_key`].
    keys: HashMap<String, String>,
}

impl Sessions {
    pub fn get(&self, name: &str) -> Option<&Session> {
        match self.keys.get(name) {
            Some(key) => self.by_key.get(key),
            None => self.by_key.get(&name_key(name)),
        }
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Session> {
        match self.keys.get(name) {
            Some(key) => self.by_key.get_mut(key),
            None => self.by_key.get_mut(&name_key(name)),
        }
    }

    /// The session of another name that `name` looks like, if any.
    pub fn lookalike(&self, name: &str) -> Option<&Session> {
        name_keys(name)
            .iter()
            .filter_map(|k| self.looks.get(k))
            .find_map(|key| self.by_key.get(key))
    }

    pub fn remove(&mut self, name: &str) {
        let key = self
            .keys
            .get(name)
            .cloned()
            .unwrap_or_else(|| name_key(name));
        if let Some(s) = self.by_key.remove(&key) {
            self.keys.remove(&s.name);
            for k in name_keys(&s.name) {
                if self.looks.get(&k) == Some(&key) {
                    self.looks.remove(&k);
                }
            }
        }
    }

    /// The session of `name`, made with the token hash `token_hash()` when
    /// there is none.
    pub fn get_or_insert(
        &mut self,
        name: &str,
        token_hash: impl FnOnce() -> String,
    ) -> &mut Session {
        let key = self
            .keys
            .get(name)
            .cloned()
            .unwrap_or_else(|| name_key(name));
        if !self.by_key.contains_key(&key) {
            for k in name_keys(name) {
                self.looks.entry(k).or_insert_with(|| key.clone());
            }
            self.keys.insert(name.to_string(), key.clone());
        }
        self.by_key.entry(key).or_insert_with(|| Session {
            name: name.to_string(),
            token_hash: token_hash(),
            conn: None,
            seats: BTreeSet::new(),
        })
    }

    pub fn len(&self) -> usize {
        self.by_key.len()
    }
}

#[cfg(test)]
mod tests {
    use super::Sessions;

    #[test]
    fn a_session_is_found_by_any_spelling_and_leaves_nothing_behind() {
        let mut sessions = Sessions::default();
        sessions.get_or_insert("Ann", || "h1".into()).conn = Some(1);
        // The name as first given, another case, a lookalike letter, a
        // fullwidth one: one session.
        for spelling in ["Ann", "ann", "\u{430}nn", "\u{ff41}nn"] {
            let found = sessions.get(spelling).map(|s| (s.name.as_str(), s.conn));
            assert_eq!(found, Some(("Ann", Some(1))), "{spelling}");
            assert!(sessions.get_mut(spelling).is_some(), "{spelling}");
        }
        // Asked under another spelling, the session as first named stays.
        assert_eq!(
            sessions.get_or_insert("ANN", || "h2".into()).token_hash,
            "h1"
        );
        assert!(sessions.lookalike("AnN").is_some());
        // Removed under another spelling, it is gone under every one, and
        // nothing of it is kept.
        sessions.remove("ANN");
        assert!(sessions.get("Ann").is_none());
        assert!(sessions.lookalike("Ann").is_none());
        assert_eq!(sessions.len(), 0);
        assert!(sessions.keys.is_empty() && sessions.looks.is_empty());
        // A new player under the old spelling is a new session.
        assert_eq!(sessions.get_or_insert("ann", || "h3".into()).name, "ann");
        assert_eq!(
            sessions.get("Ann").map(|s| s.token_hash.as_str()),
            Some("h3")
        );
    }
}
