//! The players' sessions by name, where names that look alike are one name
//! ([`name_key`]): "Ann" cannot sit as "ann" or "аnn" (Cyrillic а), nor an
//! invitation to "ANN" turn her away. A session keeps its token's hash only.
//!
//! Besides its key, each name is known under the key of its skeleton as
//! written ([`name_keys`]), so that a new name is refused while it looks
//! like a name in use under either.

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
}

impl Sessions {
    pub fn get(&self, name: &str) -> Option<&Session> {
        self.by_key.get(&name_key(name))
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Session> {
        self.by_key.get_mut(&name_key(name))
    }

    /// The session of another name that `name` looks like, if any.
    pub fn lookalike(&self, name: &str) -> Option<&Session> {
        name_keys(name)
            .iter()
            .filter_map(|k| self.looks.get(k))
            .find_map(|key| self.by_key.get(key))
    }

    pub fn remove(&mut self, name: &str) {
        let key = name_key(name);
        if let Some(s) = self.by_key.remove(&key) {
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
        let key = name_key(name);
        if !self.by_key.contains_key(&key) {
            for k in name_keys(name) {
                self.looks.entry(k).or_insert_with(|| key.clone());
            }
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
