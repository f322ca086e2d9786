//! Sitting down and getting up: creating a table (its limits checked),
//! joining one, starting a full one (colours drawn), watching and leaving.

use super::{ConnId, Lobby, Output, no_such_table, refuse};
use crate::net::protocol::{ErrorCode, Opponent, Seat, ServerMsg, TableId, TableSpec, TableStatus};
use crate::net::store::StoreOp;
use crate::net::table::{Refusal, Table};
use crate::net::text::{same_name, validate_name};
use crate::random;

impl Lobby {
    pub(super) fn check_seat_limit(&self, name: &str) -> Result<(), Refusal> {
        if self
            .sessions
            .get(name)
            .is_some_and(|s| s.seats.len() >= self.config.max_seats_per_player)
        {
            return Err(refuse(
                ErrorCode::Limit,
                format!(
                    "you already sit at {} tables",
                    self.config.max_seats_per_player
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn create(
        &mut self,
        now: u64,
        conn: ConnId,
        name: &str,
        spec: TableSpec,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        self.check_seat_limit(name)?;
        if self.tables.len() >= self.config.max_tables {
            return Err(refuse(
                ErrorCode::Limit,
                "the salon is full: no more tables",
            ));
        }
        if let Some(c) = spec.clock
            && (!(1000..=3 * 3600 * 1000).contains(&c.base_ms) || c.increment_ms > 60_000)
        {
            return Err(refuse(
                ErrorCode::BadTable,
                "the clock needs 1 s to 3 h of base time and at most 60 s of increment",
            ));
        }
        let mut spec = spec;
        match &spec.opponent {
            Opponent::Open => {}
            Opponent::Invite { name: invited } => {
                let invited = validate_name(invited)
                    .map_err(|e| refuse(ErrorCode::BadTable, format!("invited name: {e}")))?;
                if same_name(&invited, name) {
                    return Err(refuse(
                        ErrorCode::BadTable,
                        "a table cannot be only for its creator: invite someone else",
                    ));
                }
                spec.opponent = Opponent::Invite { name: invited };
            }
            Opponent::Ai { .. } => {
                let busy = self
                    .tables
                    .values()
                    .filter(|t| {
                        t.status() != TableStatus::Finished
                            && t.seats()
                                .iter()
                                .flatten()
                                .any(|s| matches!(s, crate::net::protocol::Seat::Ai { .. }))
                    })
                    .count();
                if busy >= self.config.max_ai_tables {
                    return Err(refuse(
                        ErrorCode::AiBusy,
                        format!("the server's engine already plays {busy} tables; try again later"),
                    ));
                }
            }
        }
        self.close_waiting_of(now, name, out);
        let id = self.next_table;
        self.next_table += 1;
        let seat = crate::net::protocol::Seat::Player {
            name: name.to_string(),
        };
        let mut table = Table::new(id, spec.clone(), seat);
        if let Some(s) = self.sessions.get_mut(name) {
            s.seats.insert(id);
        }
        if let Opponent::Ai { level } = spec.opponent {
            table.sit(crate::net::protocol::Seat::Ai { level })?;
            self.tables.insert(id, table);
            self.start(now, id, out);
        } else {
            self.store_session(name, out);
            out.store.push(StoreOp::Wait {
                table: id,
                spec: spec.clone(),
                creator: Seat::Player {
                    name: name.to_string(),
                },
            });
            let you = table.side_of(name);
            out.send(vec![conn], ServerMsg::Game(Box::new(table.state(now, you))));
            self.tables.insert(id, table);
            self.after_change(now, id, out);
        }
        Ok(())
    }

    /// A player waits at one table at a time: the table `name` still waits
    /// at is closed as they create another (one left waiting when they
    /// quit, say).
    fn close_waiting_of(&mut self, now: u64, name: &str, out: &mut Output) {
        let Some(session) = self.sessions.get(name) else {
            return;
        };
        let waiting: Vec<TableId> = session
            .seats
            .iter()
            .copied()
            .filter(|id| {
                self.tables
                    .get(id)
                    .is_some_and(|t| t.status() == TableStatus::Waiting)
            })
            .collect();
        for id in waiting {
            if let Some(t) = self.tables.get_mut(&id) {
                t.stand_up(name);
            }
            if let Some(s) = self.sessions.get_mut(name) {
                s.seats.remove(&id);
            }
            self.after_change(now, id, out);
        }
    }

    pub(super) fn join(
        &mut self,
        now: u64,
        _conn: ConnId,
        name: &str,
        id: TableId,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let table = self.table(id)?;
        if table.side_of(name).is_some() {
            return Err(refuse(
                ErrorCode::TableFull,
                "you already sit at this table",
            ));
        }
        if table.status() != TableStatus::Waiting {
            return Err(refuse(
                ErrorCode::TableFull,
                format!("table {id} is not waiting for a player"),
            ));
        }
        match &table.spec().opponent {
            Opponent::Invite { name: invited } if !same_name(invited, name) => {
                return Err(refuse(
                    ErrorCode::NotInvited,
                    format!("table {id} is for {invited}"),
                ));
            }
            Opponent::Ai { .. } => {
                return Err(refuse(
                    ErrorCode::TableFull,
                    "this table is against the engine",
                ));
            }
            _ => {}
        }
        self.check_seat_limit(name)?;
        let table = self
            .tables
            .get_mut(&id)
            .ok_or_else(|| refuse(ErrorCode::NoSuchTable, "gone"))?;
        table.sit(crate::net::protocol::Seat::Player {
            name: name.to_string(),
        })?;
        if let Some(s) = self.sessions.get_mut(name) {
            s.seats.insert(id);
        }
        self.start(now, id, out);
        Ok(())
    }

    /// Starts a full table: draws colours if asked, stores the start, sends
    /// the game to everyone there.
    pub(super) fn start(&mut self, now: u64, id: TableId, out: &mut Output) {
        let swap = self
            .tables
            .get(&id)
            .is_some_and(|t| t.spec().colour == crate::net::protocol::ColourChoice::Random)
            && random::below(&mut self.rng, 2) == 1;
        let Some(table) = self.tables.get_mut(&id) else {
            return;
        };
        table.start(now, swap);
        // A player whose connection is gone (the creator of a waiting table
        // who dropped, a restored table) is away from the start; the wait
        // for a waiting table's creator is over.
        self.away.retain(|&(_, t)| t != id);
        self.mark_absent(now, id);
        let Some(table) = self.tables.get(&id) else {
            return;
        };
        let [Some(black), Some(white)] = table.seats().clone() else {
            return;
        };
        for name in table.player_names() {
            self.store_session(name, out);
        }
        out.store.push(StoreOp::Start {
            table: id,
            spec: table.spec().clone(),
            black,
            white,
        });
        for name in table.player_names() {
            if let Some(conn) = self.sessions.get(name).and_then(|s| s.conn) {
                out.send(
                    vec![conn],
                    ServerMsg::Game(Box::new(table.state(now, table.side_of(name)))),
                );
            }
        }
        let spectators: Vec<ConnId> = table.spectators.iter().copied().collect();
        out.send(
            spectators,
            ServerMsg::Game(Box::new(table.state(now, None))),
        );
        self.after_change(now, id, out);
    }

    pub(super) fn watch(
        &mut self,
        now: u64,
        conn: ConnId,
        name: &str,
        id: TableId,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        // A player who sits at the table looks at their own game: not a
        // spectator. One who has left it (a finished game) sees it without
        // a side (so the game is not kept a second time), and is no
        // spectator either: the messages of the table reach its players.
        let seated = self
            .sessions
            .get(name)
            .is_some_and(|s| s.seats.contains(&id));
        let table = self.tables.get_mut(&id).ok_or_else(|| no_such_table(id))?;
        let you = if seated {
            table.side_of(name)
        } else if table.side_of(name).is_some() {
            None
        } else {
            table.spectators.insert(conn);
            if let Some(c) = self.conns.get_mut(&conn) {
                c.watching.insert(id);
            }
            None
        };
        out.send(vec![conn], ServerMsg::Game(Box::new(table.state(now, you))));
        self.after_change(now, id, out);
        Ok(())
    }

    pub(super) fn leave(
        &mut self,
        now: u64,
        conn: ConnId,
        name: &str,
        id: TableId,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let table = self.tables.get_mut(&id).ok_or_else(|| no_such_table(id))?;
        let watching = table.spectators.remove(&conn);
        if let Some(c) = self.conns.get_mut(&conn) {
            c.watching.remove(&id);
        }
        if table.side_of(name).is_some() {
            match table.status() {
                TableStatus::Playing => {
                    return Err(refuse(
                        ErrorCode::InGame,
                        "the game is running: resign to leave it",
                    ));
                }
                TableStatus::Waiting => table.stand_up(name),
                TableStatus::Finished => {}
            }
            if let Some(s) = self.sessions.get_mut(name) {
                s.seats.remove(&id);
            }
        } else if !watching {
            return Err(refuse(
                ErrorCode::NotSeated,
                format!("you are not at table {id}"),
            ));
        }
        self.after_change(now, id, out);
        self.left_unlisted(conn, id, out);
        Ok(())
    }

    /// Stores the session of `name` (with a seat, it outlives a restart).
    fn store_session(&self, name: &str, out: &mut Output) {
        if let Some(s) = self.sessions.get(name) {
            out.store.push(StoreOp::Session {
                name: name.to_string(),
                token_hash: s.token_hash.clone(),
            });
        }
    }
}
