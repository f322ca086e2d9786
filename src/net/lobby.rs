//! The salon as a pure state machine: sessions, connections, tables. Events
//! go in ([`Event`]: a client message, a closed connection, an engine move, a
//! clock tick) with the time in milliseconds; an [`Output`] comes out: the
//! messages to send, the changes to store (committed before those messages
//! go out), the engine searches to start and the connections to close.
//!
//! No sockets, threads, disk or wall clock here; session tokens come from an
//! injected function and colour draws from an injected seed (through
//! [`crate::random`]), so every path is unit-testable. The players' presence at their games, the claim of an
//! abandoned game and what version-1 connections are sent live in
//! [`presence`]; the sessions by name (names that look alike are one) in
//! [`sessions`]; the live list of tables and the timers (flag falls, games
//! abandoned, finished tables leaving the list) in [`listing`].

mod listing;
mod presence;
mod sessions;

pub use listing::{ABANDON_AFTER_MS, FINISHED_LISTED_MS};

use super::protocol::Seat;
use super::protocol::{
    ClientMsg, ErrorCode, GameResult, Limits, MIN_PROTOCOL_VERSION, Opponent, PROTOCOL_VERSION,
    ServerMsg, TableId, TableInfo, TableSpec, TableStatus,
};
use super::store::{Snapshot, StoreError, StoreOp, token_hash};
use super::table::{Played, Refusal, Table};
use super::text::{clean, constant_time_eq, same_name, validate_name};
use crate::ai::Level;
use crate::random::{self, Rng};
use crate::rules::{Color, Move, Position, Rules, Square};
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
struct Hello<'a> {
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
                .resign(now, &name, table, out)
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

    fn hello(&mut self, now: u64, conn: ConnId, hello: Hello<'_>, out: &mut Output) {
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

    fn list(&self) -> Vec<TableInfo> {
        self.announced.values().cloned().collect()
    }

    fn closed(&mut self, now: u64, conn: ConnId, out: &mut Output) {
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
    fn is_gone(&self, name: &str) -> bool {
        self.sessions.get(name).is_none_or(|s| s.conn.is_none())
    }

    /// Marks the players at table `id` who have no connection as away from
    /// `now`.
    fn mark_absent(&mut self, now: u64, id: TableId) {
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

    fn forget_idle_session(&mut self, name: &str) {
        if self
            .sessions
            .get(name)
            .is_some_and(|s| s.conn.is_none() && s.seats.is_empty())
        {
            self.sessions.remove(name);
        }
    }

    fn stop_watching(
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
        self.tables
            .get(&id)
            .ok_or_else(|| refuse(ErrorCode::NoSuchTable, format!("there is no table {id}")))
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

    fn check_seat_limit(&self, name: &str) -> Result<(), Refusal> {
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

    fn create(
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
                                .any(|s| matches!(s, super::protocol::Seat::Ai { .. }))
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
        let id = self.next_table;
        self.next_table += 1;
        let seat = super::protocol::Seat::Player {
            name: name.to_string(),
        };
        let mut table = Table::new(id, spec.clone(), seat);
        if let Some(s) = self.sessions.get_mut(name) {
            s.seats.insert(id);
        }
        if let Opponent::Ai { level } = spec.opponent {
            table.sit(super::protocol::Seat::Ai { level })?;
            self.tables.insert(id, table);
            self.start(now, id, out);
        } else {
            if let Some(s) = self.sessions.get(name) {
                out.store.push(StoreOp::Session {
                    name: name.to_string(),
                    token_hash: s.token_hash.clone(),
                });
            }
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

    fn join(
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
        table.sit(super::protocol::Seat::Player {
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
    fn start(&mut self, now: u64, id: TableId, out: &mut Output) {
        let swap = self
            .tables
            .get(&id)
            .is_some_and(|t| t.spec().colour == super::protocol::ColourChoice::Random)
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
            if let Some(s) = self.sessions.get(name) {
                out.store.push(StoreOp::Session {
                    name: name.to_string(),
                    token_hash: s.token_hash.clone(),
                });
            }
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

    fn watch(
        &mut self,
        now: u64,
        conn: ConnId,
        name: &str,
        id: TableId,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        // A player who sits at the table looks at their own game: not a
        // spectator. One who has left it (a finished game) watches it as
        // anyone does, without a side.
        let seated = self
            .sessions
            .get(name)
            .is_some_and(|s| s.seats.contains(&id));
        let table = self
            .tables
            .get_mut(&id)
            .ok_or_else(|| refuse(ErrorCode::NoSuchTable, format!("there is no table {id}")))?;
        let you = if seated {
            table.side_of(name)
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

    fn leave(
        &mut self,
        now: u64,
        conn: ConnId,
        name: &str,
        id: TableId,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let table = self
            .tables
            .get_mut(&id)
            .ok_or_else(|| refuse(ErrorCode::NoSuchTable, format!("there is no table {id}")))?;
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

    fn play(
        &mut self,
        now: u64,
        name: &str,
        id: TableId,
        square: &str,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let (side, table) = self.seated_mut(id, name)?;
        let played = table.play(side, square, now)?;
        self.played(now, id, played, out);
        Ok(())
    }

    fn ai_move(
        &mut self,
        now: u64,
        id: TableId,
        job: (usize, u64),
        mv: Result<Move, String>,
        out: &mut Output,
    ) {
        self.tick_into(now, out);
        if self.searching.get(&id) != Some(&job) {
            return;
        }
        let Some(table) = self.tables.get_mut(&id) else {
            return;
        };
        if table.game().len() != job.0 {
            return;
        }
        let Some((side, _)) = table.ai_to_move() else {
            return;
        };
        let refused = match mv {
            Ok(Move::Place(sq)) => match table.place(side, sq, now) {
                Ok(played) => return self.played(now, id, played, out),
                Err(r) => format!("{sq} refused: {}", r.message),
            },
            Ok(Move::Pass) => "a pass, though the engine has a move".to_string(),
            Err(why) => format!("no move: {why}"),
        };
        // The table would wait for the engine forever: a legal move drawn
        // at random is played in its place.
        let moves: Vec<Square> = table.game().position().legal_moves().iter().collect();
        let Some(&sq) = random::pick(&mut self.rng, &moves) else {
            return;
        };
        tracing::warn!(table = id, ply = job.0, %sq, "the engine's answer was {refused}; a random legal move is played");
        if let Ok(played) = table.place(side, sq, now) {
            self.played(now, id, played, out);
        }
    }

    fn played(&mut self, now: u64, id: TableId, played: Played, out: &mut Output) {
        let Some(table) = self.tables.get(&id) else {
            return;
        };
        let audience = self.audience(table);
        let last = played.moves.len();
        for (i, record) in played.moves.into_iter().enumerate() {
            let ply = played.first_ply + i;
            out.store.push(StoreOp::Move {
                table: id,
                ply,
                record: record.clone(),
            });
            let to_move = if i + 1 == last {
                table.to_move().map(Into::into)
            } else {
                Some(record.side.into()).map(|c: Color| c.opponent().into())
            };
            out.send(
                audience.clone(),
                ServerMsg::Moved {
                    table: id,
                    ply,
                    mv: record,
                    to_move,
                },
            );
        }
        if played.undo_lapsed {
            out.send(
                audience,
                ServerMsg::UndoDeclined {
                    table: id,
                    reason: super::protocol::UndoEnd::Moved,
                },
            );
        }
        if let Some(result) = played.ended {
            self.ended(now, id, result, out);
        }
        self.after_change(now, id, out);
    }

    fn ended(&mut self, now: u64, id: TableId, result: GameResult, out: &mut Output) {
        let Some(table) = self.tables.get(&id) else {
            return;
        };
        out.store.push(StoreOp::Finish { table: id, result });
        out.send(self.audience(table), ServerMsg::Ended { table: id, result });
        // A player whose connection is gone keeps the seat a while, to see
        // the result on coming back; then the table lets them go.
        if table.player_names().any(|n| self.is_gone(n)) {
            self.away.insert((now + AWAY_GRACE_MS, id));
        }
    }

    fn resign(
        &mut self,
        now: u64,
        name: &str,
        id: TableId,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let (side, table) = self.seated_mut(id, name)?;
        let result = table.resign(side, now)?;
        self.ended(now, id, result, out);
        self.after_change(now, id, out);
        Ok(())
    }

    fn undo(&mut self, now: u64, name: &str, id: TableId, out: &mut Output) -> Result<(), Refusal> {
        let (side, table) = self.seated_mut(id, name)?;
        table.request_undo(side)?;
        let engine_opposite = matches!(
            table.seats()[side.opponent().index()],
            Some(super::protocol::Seat::Ai { .. })
        );
        let audience = self.audience(&self.tables[&id]);
        out.send(
            audience,
            ServerMsg::UndoRequested {
                table: id,
                by: side.into(),
            },
        );
        if engine_opposite {
            // The engine always agrees.
            let table = self
                .tables
                .get_mut(&id)
                .ok_or_else(|| refuse(ErrorCode::NoSuchTable, "gone"))?;
            if let Ok(Some(ply)) = table.reply_undo(side.opponent(), true, now) {
                self.undone(now, id, ply, out);
            }
        }
        Ok(())
    }

    fn undo_reply(
        &mut self,
        now: u64,
        name: &str,
        id: TableId,
        accept: bool,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let (side, table) = self.seated_mut(id, name)?;
        match table.reply_undo(side, accept, now)? {
            Some(ply) => self.undone(now, id, ply, out),
            None => {
                let audience = self.audience(&self.tables[&id]);
                out.send(
                    audience,
                    ServerMsg::UndoDeclined {
                        table: id,
                        reason: super::protocol::UndoEnd::Declined,
                    },
                );
            }
        }
        Ok(())
    }

    fn undone(&mut self, now: u64, id: TableId, ply: usize, out: &mut Output) {
        let Some(table) = self.tables.get(&id) else {
            return;
        };
        // A search under way is for a position that no longer exists.
        self.searching.remove(&id);
        out.store.push(StoreOp::Truncate {
            table: id,
            plies: ply,
        });
        let clocks = table.clocks_at(now);
        out.send(
            self.audience(table),
            ServerMsg::Undone {
                table: id,
                ply,
                to_move: table.game().side_to_move().into(),
                black_ms: clocks.map(|c| c[0]),
                white_ms: clocks.map(|c| c[1]),
            },
        );
        self.after_change(now, id, out);
    }

    fn chat(
        &mut self,
        conn: ConnId,
        name: &str,
        id: TableId,
        text: &str,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let table = self.table(id)?;
        if table.side_of(name).is_none() && !table.spectators.contains(&conn) {
            return Err(refuse(
                ErrorCode::NotSeated,
                format!("you are not at table {id}"),
            ));
        }
        let text = clean(text).trim().to_string();
        if text.is_empty() {
            return Err(refuse(
                ErrorCode::BadRequest,
                "the chat line is empty once control and invisible characters are removed",
            ));
        }
        if text.chars().count() > super::protocol::MAX_CHAT_CHARS {
            return Err(refuse(
                ErrorCode::BadRequest,
                format!(
                    "chat lines hold at most {} characters",
                    super::protocol::MAX_CHAT_CHARS
                ),
            ));
        }
        out.send(
            self.audience(table),
            ServerMsg::Chat {
                table: id,
                from: name.to_string(),
                text: text.clone(),
            },
        );
        if let Some(t) = self.tables.get_mut(&id) {
            t.remember_chat(name, &text);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
