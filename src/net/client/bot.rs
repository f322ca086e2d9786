//! The headless bot of `reversi online --bot`: plays games with the
//! built-in engine (or a reference player) through a [`Connection`],
//! reconnecting with backoff when the connection drops (a server restart
//! included) and resuming its session with the token.

use super::super::protocol::{
    ClientMsg, EndReason, ErrorCode, GameResult, Opponent, PROTOCOL_VERSION, ServerMsg, Side,
    TableId, TableInfo, TableSpec, TableStatus,
};
use super::super::text::same_name;
use super::{Backoff, ClientError, Connection, GameView, Trust};
use crate::ai::Reference;
use crate::ai::worker::{Answer, Report, Task, Worker};
use crate::ai::{Engine, Limits};
use crate::random::{self, Rng};
use crate::rules::{Move, Position};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Where the bot sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seating {
    /// At an open waiting table if there is one, else at a new table.
    Auto,
    /// Always at a new table.
    Create,
    /// At this table for the first game, then as [`Seating::Auto`].
    Join(TableId),
}

/// How the headless bot plays.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// The server, `ws://host:port` or `wss://host:port`.
    pub url: String,
    /// The certificates believed over `wss://`.
    pub trust: Trust,
    /// A session to resume: the token of an earlier `welcome` to this name
    /// (`None`: a new session).
    pub token: Option<String>,
    /// The bot's name.
    pub name: String,
    /// Who chooses the bot's moves.
    pub player: BotPlayer,
    /// How many games to finish.
    pub games: u32,
    /// Where to sit.
    pub seating: Seating,
    /// The tables it creates.
    pub spec: TableSpec,
    /// Give up after failing to reach the server for this long.
    pub give_up_after: Duration,
    /// Seed of the engine's randomness and of the bot's other draws (the
    /// jitter of its reconnections among them).
    pub seed: u64,
}

/// Who chooses a bot's moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BotPlayer {
    /// The built-in engine, with these limits per move.
    Engine(Limits),
    /// A reference player that does not search (`random`, `greedy`).
    Reference(Reference),
}

/// What the bot tells its caller as it plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotEvent {
    /// The bot sat at a table: waiting for an opponent, or the game on.
    Seated {
        /// The table.
        table: TableId,
        /// Whether it waits for someone to sit opposite.
        waiting: bool,
    },
    /// A game finished.
    Finished(GameSummary),
    /// The connection failed or dropped in a way that may pass (a refused
    /// connection, a server restarting); the bot tries again after
    /// `retry_in`.
    Retrying {
        /// Why, for people.
        reason: String,
        /// The wait before the next attempt.
        retry_in: Duration,
    },
    /// The server refused something the bot will not retry (a move, a
    /// take-back answer…); the bot plays on.
    ServerSaid {
        /// Why, as a code.
        code: ErrorCode,
        /// The server's sentence.
        message: String,
    },
}

/// One finished game, as the bot reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The table.
    pub table: TableId,
    /// Black's and White's names.
    pub names: [String; 2],
    /// The bot's colour.
    pub you: Side,
    /// The result.
    pub result: GameResult,
    /// The number of moves (passes included).
    pub moves: usize,
}

impl std::fmt::Display for GameSummary {
    /// `table 3: ann (black) - bob (white): black wins 40-24 (finished), 60 moves, you black`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = &self.result;
        let outcome = match r.winner {
            Some(Side::Black) => "black wins",
            Some(Side::White) => "white wins",
            None => "draw",
        };
        let reason = match r.reason {
            EndReason::Finished => "finished",
            EndReason::Resigned => "resigned",
            EndReason::Time => "time",
            EndReason::Abandoned => "abandoned",
        };
        let you = match self.you {
            Side::Black => "black",
            Side::White => "white",
        };
        write!(
            f,
            "table {}: {} (black) - {} (white): {outcome} {}-{} ({reason}), {} moves, you {you}",
            self.table, self.names[0], self.names[1], r.black, r.white, self.moves
        )
    }
}

/// Plays `config.games` games, telling `report` of each finished game (and
/// of what the server refused along the way), reconnecting after a failed
/// or dropped connection with exponential backoff and jitter ([`Backoff`],
/// each wait reported as [`BotEvent::Retrying`]) and resuming the session
/// with its token.
///
/// # Errors
/// At once, an error retrying cannot mend ([`ClientError::is_permanent`]):
/// a TLS failure, an address that is not a salon's, the session taken over
/// by another connection ([`ClientError::Replaced`]), the server refusing
/// the bot's name or table ([`ClientError::Refused`]). Otherwise the last
/// connection error after `give_up_after` without reaching the server.
pub async fn run_bot(
    config: &BotConfig,
    report: &mut (dyn FnMut(&BotEvent) + Send),
) -> Result<u32, ClientError> {
    let mut bot = Bot {
        config,
        token: config.token.clone(),
        done: 0,
        engine: None,
        seating: config.seating,
        joining: None,
        current: None,
        sent: None,
        claim_at: None,
        rng: random::seeded(config.seed),
    };
    let mut backoff = Backoff::new(config.seed);
    let mut down_since: Option<Instant> = None;
    loop {
        let opened = Instant::now();
        let result = match Connection::open_with(&config.url, &config.trust).await {
            Ok(mut conn) => {
                let r = bot.session(&mut conn, &mut down_since, report).await;
                if r.is_ok() {
                    conn.close().await;
                }
                r
            }
            Err(e) => Err(e),
        };
        match result {
            Ok(()) => return Ok(bot.done),
            Err(e) if e.is_permanent() => return Err(e),
            Err(e) => {
                let since = *down_since.get_or_insert_with(Instant::now);
                if since.elapsed() > config.give_up_after {
                    return Err(e);
                }
                backoff.connection_lived(opened.elapsed());
                let retry_in = backoff.next_wait();
                report(&BotEvent::Retrying {
                    reason: e.to_string(),
                    retry_in,
                });
                tokio::time::sleep(retry_in).await;
            }
        }
    }
}

struct Bot<'a> {
    config: &'a BotConfig,
    token: Option<String>,
    done: u32,
    /// The engine's thread, started at the first search.
    engine: Option<BotEngine>,
    seating: Seating,
    /// The table of [`Seating::Join`] asked for and not yet sat at: a
    /// refusal of it ends the bot instead of sending it elsewhere.
    joining: Option<TableId>,
    current: Option<GameView>,
    /// The table and move number this bot last sent a move for (not sent
    /// twice while the acknowledgement is on its way).
    sent: Option<(TableId, usize)>,
    /// The table whose opponent has gone, and when the bot may claim the
    /// game there (a table without a clock): it claims the win then.
    claim_at: Option<(TableId, Instant)>,
    /// The bot's draws: how long it waits before asking for the tables
    /// again, which of two waiting tables it moves to, each search's seed.
    rng: Rng,
}

impl Bot<'_> {
    /// One connection's life: hello, then play until the games are done
    /// (`Ok`) or the connection fails (`Err`).
    async fn session(
        &mut self,
        conn: &mut Connection,
        down_since: &mut Option<Instant>,
        report: &mut (dyn FnMut(&BotEvent) + Send),
    ) -> Result<(), ClientError> {
        conn.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: self.config.name.clone(),
            token: self.token.clone(),
            lobby: false,
        })
        .await?;
        self.current = None;
        self.sent = None;
        self.claim_at = None;
        if let Some(table) = self.joining.take() {
            // The join was not answered before the connection dropped: if
            // it was done, the resumed session's `game` says so before the
            // tables; else it is asked again.
            self.seating = Seating::Join(table);
        }
        let mut welcomed = false;
        loop {
            let Some(msg) = self.next_message(conn).await? else {
                continue;
            };
            match msg {
                ServerMsg::Welcome { token, .. } => {
                    self.token = Some(token);
                    *down_since = None;
                    welcomed = true;
                    // The answer comes after any games being resumed.
                    conn.send(&ClientMsg::List).await?;
                }
                ServerMsg::Error { code, message, .. } if !welcomed => {
                    return Err(ClientError::Refused { code, message });
                }
                msg => self.on_message(conn, msg, report).await?,
            }
            if self.finish_game(conn, report).await? {
                return Ok(());
            }
            self.move_if_our_turn(conn).await?;
        }
    }

    /// The next message from the server, or `None` after a quiet spell, in
    /// which the bot pings the server (or, waiting alone at a table of its
    /// own in automatic seating, asks for the tables again now and then: two
    /// bots may both have created one).
    async fn next_message(
        &mut self,
        conn: &mut Connection,
    ) -> Result<Option<ServerMsg>, ClientError> {
        let waiting = self.seating == Seating::Auto
            && self
                .current
                .as_ref()
                .is_some_and(|v| v.status == TableStatus::Waiting);
        let quiet = if waiting {
            Duration::from_millis(500 + random::below(&mut self.rng, 1000) as u64)
        } else {
            Duration::from_secs(30)
        };
        let quiet = match self.claim_at {
            Some((_, at)) => quiet.min(at.saturating_duration_since(Instant::now())),
            None => quiet,
        };
        match tokio::time::timeout(quiet, conn.recv()).await {
            Ok(m) => Ok(Some(m?)),
            Err(_) => {
                if let Some((table, at)) = self.claim_at
                    && Instant::now() >= at
                {
                    // The opponent stayed away past the grace period.
                    self.claim_at = None;
                    conn.send(&ClientMsg::Claim { table, draw: false }).await?;
                    return Ok(None);
                }
                let msg = if waiting {
                    ClientMsg::List
                } else {
                    ClientMsg::Ping { id: 0 }
                };
                conn.send(&msg).await?;
                Ok(None)
            }
        }
    }

    /// Everything the server says once the bot is welcome.
    async fn on_message(
        &mut self,
        conn: &mut Connection,
        msg: ServerMsg,
        report: &mut (dyn FnMut(&BotEvent) + Send),
    ) -> Result<(), ClientError> {
        match msg {
            ServerMsg::Error { code, message, .. } => {
                self.on_error(conn, code, message, report).await?;
            }
            ServerMsg::Tables { tables } => self.on_tables(conn, &tables).await?,
            // Ours: a side, or a seat whose colour is not drawn yet.
            ServerMsg::Game(state)
                if state.you.is_some()
                    || state
                        .table
                        .players
                        .iter()
                        .any(|p| same_name(&p.label(), &self.config.name)) =>
            {
                self.joining = None;
                let view = GameView::from_state(&state)?;
                if self.seating == Seating::Join(view.table) {
                    // Seated there by a join answered before a reconnection.
                    self.seating = Seating::Auto;
                }
                let (table, waiting) = (view.table, view.status == TableStatus::Waiting);
                let before = self.current.as_ref().filter(|v| v.table == table);
                let started = before.is_some_and(|v| v.status == TableStatus::Waiting) && !waiting;
                let new_seat = before.is_none();
                let opponent = state.you.map(Side::opponent);
                self.claim_at = state
                    .away
                    .iter()
                    .find(|a| Some(a.side) == opponent)
                    .and_then(|a| a.claim_in_ms)
                    .map(|ms| (table, Instant::now() + Duration::from_millis(ms)));
                self.current = Some(view);
                self.sent = None;
                if new_seat || started {
                    report(&BotEvent::Seated { table, waiting });
                }
            }
            ServerMsg::Moved { table, ply, mv, .. } => {
                if let Some(v) = self.current.as_mut().filter(|v| v.table == table) {
                    v.apply(ply, &mv)?;
                }
            }
            ServerMsg::Undone { table, ply, .. } => {
                if let Some(v) = self.current.as_mut().filter(|v| v.table == table) {
                    v.undo_to(ply);
                }
            }
            ServerMsg::UndoRequested { table, by }
                if self.current.as_ref().is_some_and(|v| v.you != Some(by)) =>
            {
                conn.send(&ClientMsg::UndoReply {
                    table,
                    accept: false,
                })
                .await?;
            }
            ServerMsg::Presence {
                table,
                side,
                connected,
                claim_in_ms,
                ..
            } if self
                .current
                .as_ref()
                .is_some_and(|v| v.table == table && v.you.is_some_and(|y| y != side)) =>
            {
                self.claim_at = match (connected, claim_in_ms) {
                    (false, Some(ms)) => Some((table, Instant::now() + Duration::from_millis(ms))),
                    _ => None,
                };
            }
            ServerMsg::Ended { table, result } => {
                if self.claim_at.is_some_and(|(t, _)| t == table) {
                    self.claim_at = None;
                }
                if let Some(v) = self.current.as_mut().filter(|v| v.table == table) {
                    v.status = TableStatus::Finished;
                    v.result = Some(result);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A refusal after the welcome: a table taken by someone else is looked
    /// for again (unless the bot was told which table to join); a refusal
    /// that would come again ends the bot.
    async fn on_error(
        &mut self,
        conn: &mut Connection,
        code: ErrorCode,
        message: String,
        report: &mut (dyn FnMut(&BotEvent) + Send),
    ) -> Result<(), ClientError> {
        match code {
            ErrorCode::TableFull | ErrorCode::NoSuchTable | ErrorCode::NotInvited
                if self.current.is_none() =>
            {
                if self.joining.is_some() {
                    return Err(ClientError::Refused { code, message });
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
                conn.send(&ClientMsg::List).await
            }
            ErrorCode::AiBusy | ErrorCode::BadTable | ErrorCode::Limit => {
                Err(ClientError::Refused { code, message })
            }
            _ => {
                report(&BotEvent::ServerSaid { code, message });
                Ok(())
            }
        }
    }

    /// The list of tables: sit somewhere, or move from a waiting table of
    /// its own to another waiting one. Between two waiting bots the
    /// lower-numbered table wins; a higher one (perhaps a bot that only
    /// creates) is taken on a coin flip.
    async fn on_tables(
        &mut self,
        conn: &mut Connection,
        tables: &[TableInfo],
    ) -> Result<(), ClientError> {
        match &self.current {
            None => self.sit(conn, tables).await,
            Some(v) if v.status == TableStatus::Waiting && self.seating == Seating::Auto => {
                let own = v.table;
                let coin = random::below(&mut self.rng, 2) == 0;
                if let Some(t) = self.open_table(tables).filter(|t| t.id < own || coin) {
                    let table = t.id;
                    conn.send(&ClientMsg::Leave { table: own }).await?;
                    self.current = None;
                    conn.send(&ClientMsg::Join { table }).await?;
                }
                Ok(())
            }
            Some(_) => Ok(()),
        }
    }

    /// A finished game is reported and its table left; `true` when that
    /// was the last game the bot was asked to play.
    async fn finish_game(
        &mut self,
        conn: &mut Connection,
        report: &mut (dyn FnMut(&BotEvent) + Send),
    ) -> Result<bool, ClientError> {
        let Some(v) = &self.current else {
            return Ok(false);
        };
        let (Some(result), Some(you)) = (v.result, v.you) else {
            return Ok(false);
        };
        if v.status != TableStatus::Finished {
            return Ok(false);
        }
        report(&BotEvent::Finished(GameSummary {
            table: v.table,
            names: v.names.clone(),
            you,
            result,
            moves: v.moves.len(),
        }));
        let table = v.table;
        self.current = None;
        self.done += 1;
        conn.send(&ClientMsg::Leave { table }).await?;
        if self.done >= self.config.games {
            return Ok(true);
        }
        conn.send(&ClientMsg::List).await?;
        Ok(false)
    }

    /// Thinks and sends a move when it is the bot's turn (once per move
    /// number, while the acknowledgement is on its way).
    async fn move_if_our_turn(&mut self, conn: &mut Connection) -> Result<(), ClientError> {
        if let Some(v) = &self.current
            && v.is_our_turn()
            && self.sent != Some((v.table, v.moves.len()))
        {
            let (table, position, rules) = (v.table, v.game.position(), v.game.rules());
            self.sent = Some((table, v.moves.len()));
            let square = self.think(position, rules).await;
            conn.send(&ClientMsg::Move { table, square }).await?;
        }
        Ok(())
    }

    async fn sit(
        &mut self,
        conn: &mut Connection,
        tables: &[TableInfo],
    ) -> Result<(), ClientError> {
        if self.joining.is_some() {
            // The answer to the join is on its way.
            return Ok(());
        }
        let open = self.open_table(tables);
        let msg = match (self.seating, open) {
            (Seating::Join(id), _) => {
                self.seating = Seating::Auto;
                self.joining = Some(id);
                ClientMsg::Join { table: id }
            }
            (Seating::Auto, Some(t)) => ClientMsg::Join { table: t.id },
            _ => ClientMsg::Create(self.config.spec.clone()),
        };
        conn.send(&msg).await
    }

    /// A waiting table this bot may join.
    fn open_table<'t>(&self, tables: &'t [TableInfo]) -> Option<&'t TableInfo> {
        let name = &self.config.name;
        tables.iter().find(|t| {
            t.status == TableStatus::Waiting
                && !t.players.iter().any(|p| same_name(&p.label(), name))
                && match &t.opponent {
                    Opponent::Open => true,
                    Opponent::Invite { name: n } => same_name(n, name),
                    Opponent::Ai { .. } => false,
                }
        })
    }

    async fn think(&mut self, position: Position, rules: crate::rules::Rules) -> String {
        let seed = random::next(&mut self.rng);
        let limits = match self.config.player {
            BotPlayer::Engine(limits) => limits,
            BotPlayer::Reference(r) => {
                return r
                    .choose(&position, &mut crate::random::seeded(seed))
                    .to_string();
            }
        };
        let engine = self.engine.get_or_insert_with(BotEngine::start);
        let mv = engine
            .search(Task::Search {
                position,
                rules,
                limits,
                seed,
            })
            .await;
        mv.unwrap_or_else(|| first_legal(&position)).to_string()
    }
}

/// The engine on its worker thread, one search at a time; its answers come
/// back through a channel the bot awaits.
struct BotEngine {
    worker: Worker<u64>,
    answers: mpsc::UnboundedReceiver<Report<u64>>,
    next: u64,
}

impl BotEngine {
    fn start() -> BotEngine {
        let (tx, answers) = mpsc::unbounded_channel();
        let worker = Worker::spawn_with(bot_engine, move |r| {
            let _ = tx.send(r);
        });
        BotEngine {
            worker,
            answers,
            next: 0,
        }
    }

    /// The engine's move for `task`; `None` when the engine failed (it goes
    /// on with a new engine) or its thread is gone.
    async fn search(&mut self, task: Task) -> Option<Move> {
        self.next += 1;
        let tag = self.next;
        let _stop = self.worker.start(tag, task);
        while let Some(report) = self.answers.recv().await {
            match report {
                Report::Done {
                    tag: t,
                    answer: Answer::Searched(r),
                    ..
                } if t == tag => return Some(r.best_move),
                Report::Done { tag: t, .. } if t == tag => return None,
                _ => {}
            }
        }
        None
    }
}

/// The bot's engine, with the shipped opening book (which its level's
/// limits use or not: levels 10 to 12 do, `book:off` does not).
fn bot_engine() -> Engine {
    let mut engine = Engine::new(16);
    engine.set_book(
        crate::ai::book::Book::shipped()
            .ok()
            .filter(|b| !b.is_empty()),
    );
    engine
}

/// The first legal move (`Pass` when none).
fn first_legal(position: &Position) -> Move {
    position.moves_list().first().copied().unwrap_or(Move::Pass)
}
