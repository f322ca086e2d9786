//! Connections coming and going: `hello` (a new session, or one resumed
//! with its token, its tables sent again and its return told), a closed
//! connection (seats kept for a resume, waiting tables for a while,
//! finished tables left), and the bookkeeping of who is gone.

use super::{AWAY_GRACE_MS, ConnId, Hello, Lobby, Output, refuse};
use crate::net::protocol::{
    ErrorCode, MIN_PROTOCOL_VERSION, PROTOCOL_VERSION, ServerMsg, TableId, TableStatus,
};
use crate::net::store::token_hash;
use crate::net::table::Table;
use crate::net::text::{clean, constant_time_eq, validate_name};
use crate::rules::Color;
use std::collections::BTreeSet;

impl Lobby {
    pub(super) fn hello(&mut self, now: u64, conn: ConnId, hello: Hello<'_>, out: &mut Output) {
        let Hello {
            protocol,
            name,
            token,
            lobby,
        } = hello;
        if !(MIN_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(&protocol) {
            let message = format!(
                "protocol version {protocol} is not spoken here (versions {MIN_PROTOCOL_VERSION} to {PROTOCOL_VERSION})"
            );
            out.error(conn, refuse(ErrorCode::Version, message.clone()), None);
            out.close.push((conn, message));
            return;
        }
        let asked = clean(name).trim().to_string();
        let mut name = match validate_name(name) {
            Ok(n) => n,
            Err(e) => return out.error(conn, refuse(ErrorCode::BadName, e.to_string()), None),
        };
        if self.sessions.get(&name).is_none()
            && let Some(other) = self.sessions.lookalike(&name)
        {
            let message = format!(
                "\"{asked}\" looks like \"{}\", a name in use; pick another",
                other.name
            );
            return out.error(conn, refuse(ErrorCode::NameTaken, message), None);
        }
        let (resumed, token, seats, was_away) = match self.sessions.get_mut(&name) {
            Some(session) => {
                let ok = token.is_some_and(|t| {
                    constant_time_eq(token_hash(t).as_bytes(), session.token_hash.as_bytes())
                });
                if !ok {
                    let (code, message) = if token.is_some() {
                        (
                            ErrorCode::BadToken,
                            "the token does not match this name's session".to_string(),
                        )
                    } else if session.name == asked {
                        (
                            ErrorCode::NameTaken,
                            "this name is in use; resume with its token or pick another"
                                .to_string(),
                        )
                    } else {
                        (
                            ErrorCode::NameTaken,
                            format!(
                                "\"{asked}\" is another spelling of \"{}\", a name in use; resume with its token or pick another",
                                session.name
                            ),
                        )
                    };
                    return out.error(conn, refuse(code, message), None);
                }
                // The name as this player first gave it.
                name.clone_from(&session.name);
                let seats = session.seats.clone();
                // Back in time for a waiting table of theirs; a finished
                // game's grace runs on for any other player still gone.
                let tables = &self.tables;
                self.away.retain(|(_, t)| {
                    !seats.contains(t)
                        || tables
                            .get(t)
                            .is_some_and(|tb| tb.status() == TableStatus::Finished)
                });
                let was_away = session.conn.is_none();
                if let Some(old) = session.conn.replace(conn) {
                    out.close.push((
                        old,
                        "replaced by a new connection of the same session".into(),
                    ));
                    if let Some(c) = self.conns.remove(&old) {
                        self.stop_watching(now, old, &c.watching, out);
                    }
                }
                let token = token.unwrap_or_default().to_string();
                (true, token, seats, was_away)
            }
            None => {
                let token = (self.new_token)();
                let session = self.sessions.get_or_insert(&name, || token_hash(&token));
                session.conn = Some(conn);
                (false, token, BTreeSet::new(), false)
            }
        };
        // Coming back may put a game on the live list again: the others
        // are told, and the welcome lists it.
        let back: Vec<(TableId, Color)> = seats
            .iter()
            .filter_map(|&id| {
                let t = self.tables.get_mut(&id)?;
                let side = t.side_of(&name)?;
                (was_away && t.came_back(side)).then_some((id, side))
            })
            .collect();
        for &(id, _) in &back {
            self.after_change(now, id, out);
        }
        let c = self.conns.entry(conn).or_default();
        c.name = Some(name.clone());
        c.lobby = lobby;
        c.protocol = protocol;
        out.send(
            vec![conn],
            ServerMsg::Welcome {
                protocol,
                name: name.clone(),
                token,
                resumed,
                tables: if lobby { self.list() } else { Vec::new() },
                limits: self.config.limits,
            },
        );
        for &id in &seats {
            if let Some(t) = self.tables.get(&id) {
                let you = t.side_of(&name);
                out.send(vec![conn], ServerMsg::Game(Box::new(t.state(now, you))));
            }
        }
        for (id, side) in back {
            self.tell_presence(id, side, &name, None, out);
        }
    }

    pub(super) fn closed(&mut self, now: u64, conn: ConnId, out: &mut Output) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        self.stop_watching(now, conn, &c.watching, out);
        let Some(name) = c.name else { return };
        let Some(session) = self.sessions.get_mut(&name) else {
            return;
        };
        if session.conn != Some(conn) {
            return;
        }
        session.conn = None;
        // Seats in games are kept for a resume (the others at the table are
        // told), waiting tables for a while (a dropped connection or a server
        // restart), finished games are left: nothing there needs the player
        // any more.
        for id in session.seats.clone() {
            match self.tables.get(&id).map(Table::status) {
                Some(TableStatus::Waiting) => {
                    self.away.insert((now + AWAY_GRACE_MS, id));
                }
                Some(TableStatus::Playing) => {
                    self.went_away(now, id, &name, out);
                    self.after_change(now, id, out);
                }
                Some(TableStatus::Finished) => {
                    let _ = self.leave(now, conn, &name, id, out);
                }
                None => {}
            }
        }
        self.forget_idle_session(&name);
    }

    /// Whether the player `name` has no connection now.
    pub(super) fn is_gone(&self, name: &str) -> bool {
        self.sessions.get(name).is_none_or(|s| s.conn.is_none())
    }

    /// Marks the players at table `id` who have no connection as away from
    /// `now`.
    pub(super) fn mark_absent(&mut self, now: u64, id: TableId) {
        let Some(table) = self.tables.get(&id) else {
            return;
        };
        let gone: Vec<Color> = table
            .player_names()
            .filter(|n| self.is_gone(n))
            .filter_map(|n| table.side_of(n))
            .collect();
        let grace = self.config.claim_after_ms;
        if let Some(table) = self.tables.get_mut(&id) {
            for side in gone {
                table.went_away(side, now, grace);
            }
        }
    }

    pub(super) fn forget_idle_session(&mut self, name: &str) {
        if self
            .sessions
            .get(name)
            .is_some_and(|s| s.conn.is_none() && s.seats.is_empty())
        {
            self.sessions.remove(name);
        }
    }

    pub(super) fn stop_watching(
        &mut self,
        now: u64,
        conn: ConnId,
        watching: &BTreeSet<TableId>,
        out: &mut Output,
    ) {
        for id in watching {
            if let Some(t) = self.tables.get_mut(id) {
                t.spectators.remove(&conn);
                self.after_change(now, *id, out);
            }
        }
    }
}
