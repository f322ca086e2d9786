//! The live list of tables and the lobby's timers.
//!
//! The list holds the tables one may join or watch: every waiting table,
//! every running game where a player is connected, and a finished game for
//! a minute after its end ([`super::LobbyConfig::finished_listed_ms`]) while
//! one of its players is still there. A running game whose players are all
//! gone, and a finished game after that, leave the list (the lobby is told
//! `table_closed`) but live on for those at them; so `welcome` and `tables`
//! stay small whatever the database holds. The connections at a table that
//! leaves the list (its connected players, its spectators) are told when
//! they leave it, not while they look at it.
//!
//! Each table has at most one deadline: its flag fall, the moment it is
//! abandoned ([`crate::net::table::Table::abandon_at`]: both players of a
//! game without a clock gone for [`super::LobbyConfig::abandon_after_ms`],
//! the engine's opponent gone for the claim grace), or the moment a finished
//! game leaves the list. Waiting tables of absent creators and finished
//! games of absent players have their grace in `away`.

use super::{AiJob, ConnId, Lobby, Output};
use crate::net::protocol::{ServerMsg, TableId, TableStatus};
use crate::net::store::StoreOp;
use crate::net::table::{Patience, Table};

/// How long a finished game stays on the live list, in milliseconds (the
/// default of [`super::LobbyConfig::finished_listed_ms`]).
pub const FINISHED_LISTED_MS: u64 = 60_000;

/// How long a game without a clock runs on with both players gone before it
/// ends as abandoned (the default of
/// [`super::LobbyConfig::abandon_after_ms`]): three hours.
pub const ABANDON_AFTER_MS: u64 = 3 * 3600 * 1000;

impl Lobby {
    /// When the next clock runs out, a game is abandoned, a finished table
    /// leaves the list or a waiting table of an absent creator is given up,
    /// if ever.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        let table = self.deadlines.first().map(|&(t, _)| t);
        let away = self.away.first().map(|&(t, _)| t);
        table.into_iter().chain(away).min()
    }

    fn patience(&self) -> Patience {
        Patience {
            players_ms: self.config.abandon_after_ms,
            engine_ms: self.config.claim_after_ms,
        }
    }

    /// Settles every deadline that has come at `now`.
    pub(super) fn tick_into(&mut self, now: u64, out: &mut Output) {
        while let Some(&(t, id)) = self.away.first() {
            if t > now {
                break;
            }
            self.away.remove(&(t, id));
            self.give_up_absent(now, id, out);
        }
        while let Some(&(t, id)) = self.deadlines.first() {
            if t > now {
                break;
            }
            self.deadlines.remove(&(t, id));
            self.deadline_of.remove(&id);
            let patience = self.patience();
            if let Some(table) = self.tables.get_mut(&id)
                && let Some(result) = table
                    .check_flag(now)
                    .or_else(|| table.check_abandoned(now, patience))
            {
                self.ended(now, id, result, out);
            }
            self.after_change(now, id, out);
        }
    }

    /// The grace of the absent players at table `id` is over: a waiting
    /// table's creator stands up, a finished game's players are let go.
    fn give_up_absent(&mut self, now: u64, id: TableId, out: &mut Output) {
        let Some(table) = self.tables.get(&id) else {
            return;
        };
        let waiting = match table.status() {
            TableStatus::Waiting => true,
            TableStatus::Finished => false,
            TableStatus::Playing => return,
        };
        let names: Vec<String> = table.player_names().map(str::to_string).collect();
        for name in names {
            if self.is_gone(&name) {
                if waiting && let Some(t) = self.tables.get_mut(&id) {
                    t.stand_up(&name);
                }
                if let Some(s) = self.sessions.get_mut(&name) {
                    s.seats.remove(&id);
                }
                self.forget_idle_session(&name);
            }
        }
        self.after_change(now, id, out);
    }

    /// When the finished `table` leaves the list.
    fn unlisted_at(&self, table: &Table) -> Option<u64> {
        table
            .ended_at()
            .map(|t| t.saturating_add(self.config.finished_listed_ms))
    }

    /// Whether `table` is on the live list at `now`.
    fn is_listed(&self, table: &Table, now: u64) -> bool {
        match table.status() {
            TableStatus::Waiting => true,
            TableStatus::Playing => !table.is_dormant(),
            TableStatus::Finished => {
                self.unlisted_at(table).is_some_and(|t| now < t)
                    && table.player_names().any(|n| {
                        self.sessions
                            .get(n)
                            .is_some_and(|s| s.conn.is_some() && s.seats.contains(&table.id()))
                    })
            }
        }
    }

    /// When `table` next needs the time after `now`.
    fn deadline(&self, table: &Table, now: u64) -> Option<u64> {
        let unlisted = self.unlisted_at(table).filter(|&t| t > now);
        [
            table.deadline(),
            table.abandon_at(self.patience()),
            unlisted,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    fn set_deadline(&mut self, id: TableId, at: Option<u64>) {
        if let Some(old) = self.deadline_of.remove(&id) {
            self.deadlines.remove(&(old, id));
        }
        if let Some(at) = at {
            self.deadlines.insert((at, id));
            self.deadline_of.insert(id, at);
        }
    }

    /// The connections at table `id` that the list does not speak for: its
    /// spectators and its seated players' connections.
    pub(super) fn at_table(&self, id: TableId) -> Vec<ConnId> {
        let Some(table) = self.tables.get(&id) else {
            return Vec::new();
        };
        let mut at: Vec<ConnId> = table
            .player_names()
            .filter_map(|n| self.sessions.get(n))
            .filter(|s| s.seats.contains(&id))
            .filter_map(|s| s.conn)
            .collect();
        at.extend(table.spectators.iter().copied());
        at
    }

    /// Tells `conn`, which just left table `id`, that the table is not on
    /// the list, when that was kept from it while it was there.
    pub(super) fn left_unlisted(&self, conn: ConnId, id: TableId, out: &mut Output) {
        let lobby = self
            .conns
            .get(&conn)
            .is_some_and(|c| c.lobby && c.name.is_some());
        if lobby && !self.announced.contains_key(&id) {
            out.send(vec![conn], ServerMsg::TableClosed { table: id });
        }
    }

    /// After a table changed: its deadline, the live list (a `table` update,
    /// or `table_closed` when it leaves the list or no one is left), the
    /// engine's search if the engine is to move.
    pub(super) fn after_change(&mut self, now: u64, id: TableId, out: &mut Output) {
        let Some(table) = self.tables.get(&id) else {
            self.set_deadline(id, None);
            return;
        };
        let seated = table
            .player_names()
            .any(|n| self.sessions.get(n).is_some_and(|s| s.seats.contains(&id)));
        let keep = match table.status() {
            TableStatus::Waiting => !table.is_empty(),
            TableStatus::Playing => true,
            TableStatus::Finished => seated || !table.spectators.is_empty(),
        };
        if !keep {
            if table.status() == TableStatus::Waiting {
                out.store.push(StoreOp::Unwait { table: id });
            }
            self.away.retain(|&(_, t)| t != id);
            self.tables.remove(&id);
            self.searching.remove(&id);
            self.set_deadline(id, None);
            if self.announced.remove(&id).is_some() {
                out.send(self.lobby_conns(), ServerMsg::TableClosed { table: id });
            }
            return;
        }
        let deadline = self.deadline(table, now);
        let listed = self.is_listed(table, now);
        let job = self.engine_job(table);
        let info = listed.then(|| table.info());
        self.set_deadline(id, deadline);
        if let Some(mut job) = job {
            job.job = self.next_job;
            self.next_job += 1;
            job.seed = crate::random::next(&mut self.rng);
            self.searching.insert(id, (job.ply, job.job));
            out.ai.push(job);
        }
        match info {
            Some(info) if self.announced.get(&id) != Some(&info) => {
                self.announced.insert(id, info.clone());
                out.send(self.lobby_conns(), ServerMsg::Table { table: info });
            }
            Some(_) => {}
            None => {
                if self.announced.remove(&id).is_some() {
                    let at = self.at_table(id);
                    let to = self
                        .lobby_conns()
                        .into_iter()
                        .filter(|c| !at.contains(c))
                        .collect();
                    out.send(to, ServerMsg::TableClosed { table: id });
                }
            }
        }
    }

    /// The search to start when the engine is to move at `table` and no
    /// search for this position is under way (its number and seed to be
    /// given).
    fn engine_job(&self, table: &Table) -> Option<AiJob> {
        let ply = table.game().len();
        let (side, level) = table.ai_to_move()?;
        if self
            .searching
            .get(&table.id())
            .is_some_and(|&(p, _)| p == ply)
        {
            return None;
        }
        Some(AiJob {
            table: table.id(),
            ply,
            job: 0,
            position: table.game().position(),
            rules: table.rules(),
            level,
            clock_ms: table.turn_clock(side),
            seed: 0,
        })
    }
}
