//! The salon as a pure state machine: sessions, connections, tables. Events
//! go in ([`Event`]: a client message, a closed connection, an engine move, a
//! clock tick) with the time in milliseconds; an [`Output`] comes out: the
//! messages to send, the changes to store (committed before those messages
//! go out), the engine searches to start and the connections to close.
//!
//! No sockets, threads, disk or wall clock here; session tokens come from an
//! injected function and colour draws from an injected seed (through
//! [`crate::random`]), so every path is unit-testable.
//!
//! This file holds the types, the event dispatch and the lookups the parts
//! share; the parts:
//! * [`connections`]: `hello` (a new or resumed session) and a closed
//!   connection;
//! * [`tables`]: creating, joining, starting, watching and leaving tables;
//! * [`game`]: moves (the engine's too), the end, resignation, take-backs
//!   and the chat;
//! * [`presence`]: the players' presence at their games, the claim of an
//!   abandoned game and what version-1 connections are sent;
//! * [`sessions`]: the sessions by name (names that look alike are one);
//! * [`listing`]: the live list of tables and the timers (flag falls, games
//!   abandoned, finished tables leaving the list).

mod connections;
mod game;
mod listing;
mod presence;
mod sessions;
mod tables;

pub use listing::{ABANDON_AFTER_MS, FINISHED_LISTED_MS};

use super::protocol::{ClientMsg, ErrorCode, GameResult, Limits, ServerMsg, TableId, TableInfo};
use super::store::{Snapshot, StoreError, StoreOp, token_hash};
use super::table::{Refusal, Table};
use crate::ai::Level;
use crate::random::{self, Rng};
use crate::rules::{Color, Move, Position, Rules};
use sessions::Sessions;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A connection's number, given by the server shell.
pub type ConnId = u64;

/// What happens to the salon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A decoded message from a connection.
    Message(ConnId, ClientMsg),
    /// A connection closed (or was closed).
    Closed(ConnId),
    /// The engine's answer for the table's game at `ply` moves: its move,
    /// or why it has none (a failed search). A move the table refuses, or
    /// no move, is logged and replaced by a legal move drawn at random, so
    /// the game goes on.
    AiMove {
        /// The table.
        table: TableId,
        /// The number of moves the search was started at.
        ply: usize,
        /// The job's number.
        job: u64,
        /// The move chosen, or why the engine has none.
        mv: Result<Move, String>,
    },
    /// Time passed: flag falls are checked.
    Tick,
}

/// Messages for some connections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// The receivers.
    pub to: Vec<ConnId>,
    /// The message.
    pub msg: ServerMsg,
}

/// An engine search to run off the network threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiJob {
    /// The table.
    pub table: TableId,
    /// The number of moves played (the answer is for this position only).
    pub ply: usize,
    /// The job's number: only the answer to the latest job of a table counts.
    pub job: u64,
    /// The position to search.
    pub position: Position,
    /// The rules.
    pub rules: Rules,
    /// The engine's level.
    pub level: Level,
    /// Time left on the engine's clock, if any.
    pub clock_ms: Option<u64>,
    /// Seed of the level's randomness.
    pub seed: u64,
}

/// What one event produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// Messages to send, in order, after `store` is committed.
    pub sends: Vec<Delivery>,
    /// Changes to commit first.
    pub store: Vec<StoreOp>,
    /// Engine searches to start.
    pub ai: Vec<AiJob>,
    /// Connections to close, with the reason.
    pub close: Vec<(ConnId, String)>,
}

impl Output {
    fn send(&mut self, to: Vec<ConnId>, msg: ServerMsg) {
        if !to.is_empty() {
            self.sends.push(Delivery { to, msg });
        }
    }

    fn error(&mut self, conn: ConnId, refusal: Refusal, table: Option<TableId>) {
        self.send(
            vec![conn],
            ServerMsg::Error {
                code: refusal.code,
                message: refusal.message,
                table,
                closed: false,
            },
        );
    }
}

/// Limits the lobby enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LobbyConfig {
    /// Tables a player may sit at, at once.
    pub max_seats_per_player: usize,
    /// Unfinished tables with the server's engine at once.
    pub max_ai_tables: usize,
    /// Tables in all.
    pub max_tables: usize,
    /// How long a player of a game without a clock may stay disconnected
    /// before the opponent may claim the game, in milliseconds; also how
    /// long the engine waits for its opponent before the game ends as
    /// abandoned (a win for the engine).
    pub claim_after_ms: u64,
    /// How long a game without a clock runs on with both its players gone
    /// before it ends as abandoned (a draw), in milliseconds.
    pub abandon_after_ms: u64,
    /// How long a finished game stays on the live list, in milliseconds.
    pub finished_listed_ms: u64,
    /// The server's limits on connections, stated in `welcome`.
    pub limits: Option<Limits>,
}

impl Default for LobbyConfig {
    fn default() -> LobbyConfig {
        LobbyConfig {
            max_seats_per_player: 8,
            max_ai_tables: 64,
            max_tables: 5000,
            claim_after_ms: CLAIM_AFTER_MS,
            abandon_after_ms: ABANDON_AFTER_MS,
            finished_listed_ms: FINISHED_LISTED_MS,
            limits: None,
        }
    }
}

/// A connection's `hello`: the protocol it speaks, the name it asks for,
/// the session token it resumes with, and whether it wants the lobby.
pub(super) struct Hello<'a> {
    protocol: u32,
    name: &'a str,
    token: Option<&'a str>,
    lobby: bool,
}

#[derive(Debug, Default)]
struct Conn {
    name: Option<String>,
    lobby: bool,
    /// The protocol version spoken (0 before `hello`).
    protocol: u32,
    watching: BTreeSet<TableId>,
}

/// The salon's state: sessions, connections and tables.
pub struct Lobby {
    config: LobbyConfig,
    sessions: Sessions,
    conns: HashMap<ConnId, Conn>,
    tables: BTreeMap<TableId, Table>,
    next_table: TableId,
    /// When each table next needs the time: a flag fall, a game abandoned,
    /// a finished table leaving the list.
    deadlines: BTreeSet<(u64, TableId)>,
    deadline_of: HashMap<TableId, u64>,
    /// Waiting tables whose creator is not connected, given up at the time
    /// unless the creator comes back first.
    away: BTreeSet<(u64, TableId)>,
    /// The live list: what the lobby was last told about each table it
    /// lists (updates go out only when a table changes, not on every move).
    announced: BTreeMap<TableId, TableInfo>,
    /// The search each engine table waits for: (move number, job number).
    searching: HashMap<TableId, (usize, u64)>,
    next_job: u64,
    rng: Rng,
    new_token: Box<dyn FnMut() -> String + Send>,
}

impl std::fmt::Debug for Lobby {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lobby")
            .field("sessions", &self.sessions.len())
            .field("conns", &self.conns.len())
            .field("tables", &self.tables.len())
            .finish_non_exhaustive()
    }
}

/// How long a waiting table is kept for a creator who lost the connection
/// (or whose server restarted) before it is given up.
pub const AWAY_GRACE_MS: u64 = 120_000;

/// How long a player of a game without a clock may stay disconnected before
/// the opponent may claim the game (the default of
/// [`LobbyConfig::claim_after_ms`]).
pub const CLAIM_AFTER_MS: u64 = 60_000;

/// The refusal of a table number that names no table.
fn no_such_table(id: TableId) -> Refusal {
    refuse(ErrorCode::NoSuchTable, format!("there is no table {id}"))
}

fn refuse(code: ErrorCode, message: impl Into<String>) -> Refusal {
    Refusal::new(code, message)
}

impl Lobby {
    /// An empty salon. `seed` drives colour draws and engine noise;
    /// `new_token` makes session tokens (the server passes a CSPRNG).
    pub fn new(
        config: LobbyConfig,
        seed: u64,
        new_token: Box<dyn FnMut() -> String + Send>,
    ) -> Lobby {
        Lobby {
            config,
            sessions: Sessions::default(),
            conns: HashMap::new(),
            tables: BTreeMap::new(),
            next_table: 1,
            deadlines: BTreeSet::new(),
            deadline_of: HashMap::new(),
            away: BTreeSet::new(),
            announced: BTreeMap::new(),
            searching: HashMap::new(),
            next_job: 1,
            rng: random::seeded(seed),
            new_token,
        }
    }

    /// Brings back the unfinished games of a stored snapshot at `now`: their
    /// players' sessions wait for a reconnection, clocks resume from the last
    /// move's times, engine seats to move get a search.
    ///
    /// # Errors
    /// [`StoreError::Game`] naming a game whose moves cannot be replayed.
    pub fn restore(&mut self, snapshot: Snapshot, now: u64) -> Result<Output, StoreError> {
        let mut out = Output::default();
        self.next_table = self.next_table.max(snapshot.next_table);
        for (name, hash) in snapshot.sessions {
            self.sessions.get_or_insert(&name, || hash);
        }
        for w in snapshot.waiting {
            let creator = w.creator.label();
            let table = Table::new(w.id, w.spec, w.creator);
            let session = self
                .sessions
                .get_or_insert(&creator, || token_hash(&(self.new_token)()));
            session.seats.insert(w.id);
            self.tables.insert(w.id, table);
            self.away.insert((now + AWAY_GRACE_MS, w.id));
            self.after_change(now, w.id, &mut out);
        }
        for g in snapshot.games {
            let table = Table::restore(g.id, g.spec, [g.black, g.white], g.moves, now)
                .map_err(|source| StoreError::Game { game: g.id, source })?;
            for name in table.player_names() {
                let session = self
                    .sessions
                    .get_or_insert(name, || token_hash(&(self.new_token)()));
                session.seats.insert(g.id);
            }
            self.tables.insert(g.id, table);
            // Nobody is connected yet: each player is away until back.
            self.mark_absent(now, g.id);
            self.after_change(now, g.id, &mut out);
        }
        Ok(out)
    }

    /// The number of tables.
    #[must_use]
    pub fn table_count(&self) -> usize {
        self.tables.len()
    }

    /// Handles one event at time `now` (milliseconds, monotonic).
    pub fn handle(&mut self, now: u64, event: Event) -> Output {
        let mut out = Output::default();
        match event {
            Event::Message(conn, msg) => self.message(now, conn, msg, &mut out),
            Event::Closed(conn) => self.closed(now, conn, &mut out),
            Event::AiMove {
                table,
                ply,
                job,
                mv,
            } => self.ai_move(now, table, (ply, job), mv, &mut out),
            Event::Tick => self.tick_into(now, &mut out),
        }
        self.for_old_versions(&mut out);
        out
    }

    fn message(&mut self, now: u64, conn: ConnId, msg: ClientMsg, out: &mut Output) {
        // A late flag fall (or any other deadline) is settled first.
        self.tick_into(now, out);
        let name = self.conns.entry(conn).or_default().name.clone();
        let Some(name) = name else {
            return match msg {
                ClientMsg::Hello {
                    protocol,
                    name,
                    token,
                    lobby,
                } => {
                    let hello = Hello {
                        protocol,
                        name: &name,
                        token: token.as_deref(),
                        lobby,
                    };
                    self.hello(now, conn, hello, out);
                }
                _ => out.error(conn, refuse(ErrorCode::BadRequest, "say hello first"), None),
            };
        };
        let result = match msg {
            ClientMsg::Hello { .. } => Err((
                refuse(
                    ErrorCode::BadRequest,
                    "hello was already said on this connection",
                ),
                None,
            )),
            ClientMsg::List => {
                out.send(
                    vec![conn],
                    ServerMsg::Tables {
                        tables: self.list(),
                    },
                );
                Ok(())
            }
            ClientMsg::Ping { id } => {
                out.send(vec![conn], ServerMsg::Pong { id });
                Ok(())
            }
            ClientMsg::Create(spec) => self
                .create(now, conn, &name, spec, out)
                .map_err(|r| (r, None)),
            ClientMsg::Join { table } => self
                .join(now, conn, &name, table, out)
                .map_err(|r| (r, Some(table))),
            ClientMsg::Watch { table } => self
                .watch(now, conn, &name, table, out)
                .map_err(|r| (r, Some(table))),
            ClientMsg::Leave { table } => self
                .leave(now, conn, &name, table, out)
                .map_err(|r| (r, Some(table))),
            ClientMsg::Move { table, square } => self
                .play(now, &name, table, &square, out)
                .map_err(|r| (r, Some(table))),
            ClientMsg::Resign { table } => self
                .end_by(now, &name, table, out, |t, side| t.resign(side, now))
                .map_err(|r| (r, Some(table))),
            ClientMsg::Undo { table } => self
                .undo(now, &name, table, out)
                .map_err(|r| (r, Some(table))),
            ClientMsg::UndoReply { table, accept } => self
                .undo_reply(now, &name, table, accept, out)
                .map_err(|r| (r, Some(table))),
            ClientMsg::Chat { table, text } => self
                .chat(conn, &name, table, &text, out)
                .map_err(|r| (r, Some(table))),
            ClientMsg::Claim { table, draw } => self
                .claim(now, &name, table, draw, out)
                .map_err(|r| (r, Some(table))),
        };
        if let Err((refusal, table)) = result {
            // A number below the next one given was a table: it is closed.
            let closed = refusal.code == ErrorCode::NoSuchTable
                && table.is_some_and(|t| t > 0 && t < self.next_table);
            out.send(
                vec![conn],
                ServerMsg::Error {
                    code: refusal.code,
                    message: refusal.message,
                    table,
                    closed,
                },
            );
        }
    }

    fn list(&self) -> Vec<TableInfo> {
        self.announced.values().cloned().collect()
    }

    /// Everyone at a table: the connected players and the spectators.
    fn audience(&self, table: &Table) -> Vec<ConnId> {
        let mut to: Vec<ConnId> = table
            .player_names()
            .filter_map(|n| self.sessions.get(n).and_then(|s| s.conn))
            .collect();
        to.extend(
            table
                .spectators
                .iter()
                .filter(|c| !to.contains(c))
                .copied()
                .collect::<Vec<_>>(),
        );
        to
    }

    fn lobby_conns(&self) -> Vec<ConnId> {
        self.conns
            .iter()
            .filter(|(_, c)| c.lobby && c.name.is_some())
            .map(|(&id, _)| id)
            .collect()
    }

    fn table(&self, id: TableId) -> Result<&Table, Refusal> {
        self.tables.get(&id).ok_or_else(|| no_such_table(id))
    }

    /// Ends the game at table `id` as `name`'s `end` says (a resignation, a
    /// claim): the result stored and told.
    fn end_by(
        &mut self,
        now: u64,
        name: &str,
        id: TableId,
        out: &mut Output,
        end: impl FnOnce(&mut Table, Color) -> Result<GameResult, Refusal>,
    ) -> Result<(), Refusal> {
        let (side, table) = self.seated_mut(id, name)?;
        let result = end(table, side)?;
        self.ended(now, id, result, out);
        self.after_change(now, id, out);
        Ok(())
    }

    fn seated(&self, id: TableId, name: &str) -> Result<Color, Refusal> {
        self.table(id)?.side_of(name).ok_or_else(|| {
            refuse(
                ErrorCode::NotSeated,
                format!("you do not sit at table {id}"),
            )
        })
    }

    /// The side of `name` at table `id` and the table, to change it.
    fn seated_mut(&mut self, id: TableId, name: &str) -> Result<(Color, &mut Table), Refusal> {
        let side = self.seated(id, name)?;
        let table = self
            .tables
            .get_mut(&id)
            .ok_or_else(|| refuse(ErrorCode::NoSuchTable, "gone"))?;
        Ok((side, table))
    }
}

#[cfg(test)]
mod tests;
