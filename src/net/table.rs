//! One table of the salon as a pure state machine: its seats, the game (every
//! move checked by [`crate::rules`], passes played automatically), the server's
//! clocks, take-back requests, the players' presence (the claim of a game
//! whose opponent stays away, the end of a game its players abandoned), the
//! chat history and the result. Time is passed in as milliseconds on the
//! caller's monotonic clock; nothing here touches sockets, threads or the
//! disk.

use super::protocol::{
    Absence, CHAT_HISTORY, ChatEntry, EndReason, ErrorCode, GameResult, GameState, MoveRecord,
    Seat, Side, TableId, TableInfo, TableSpec, TableStatus,
};
use crate::ai::Level;
use crate::notation::{ParseError, parse_square_on};
use crate::rules::{Color, Game, GameError, Move, Position, Rules, Square, Status};
use std::collections::{BTreeSet, VecDeque};

/// A request refused by a table: the code and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The kind of refusal.
    pub code: ErrorCode,
    /// What is wrong.
    pub message: String,
}

impl Refusal {
    /// A refusal with this code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

/// What a move did: the moves recorded (the placement, then any automatic
/// pass), the result if the game ended, and whether a pending take-back
/// request lapsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The 1-based number of the first move in `moves`.
    pub first_ply: usize,
    /// The moves recorded.
    pub moves: Vec<MoveRecord>,
    /// The result, when the game is over.
    pub ended: Option<GameResult>,
    /// A take-back request that was pending and is now void.
    pub undo_lapsed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Clock {
    /// Remaining time of Black and White at the start of the current turn.
    remaining: [u64; 2],
    /// When the current turn began.
    turn_start: u64,
}

/// A seated player whose connection is gone: since when, and when the
/// opponent may claim the game (`None` on a table with a clock, where the
/// clock decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Away {
    since: u64,
    claim_at: Option<u64>,
}

/// How long a running game waits for players who are gone before it ends
/// as abandoned ([`Table::abandon_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Patience {
    /// Both players of a game without a clock gone this long: a draw.
    pub players_ms: u64,
    /// The engine's opponent gone this long (with a clock or without): the
    /// engine wins, and its seat is free for another table.
    pub engine_ms: u64,
}

/// A table: spec, seats, game, clocks, spectators.
#[derive(Clone, Debug)]
pub struct Table {
    id: TableId,
    spec: TableSpec,
    rules: Rules,
    /// Indexed by colour (Black 0, White 1). Before the start with random
    /// colours, the creator sits provisionally in Black's seat.
    seats: [Option<Seat>; 2],
    status: TableStatus,
    game: Game,
    /// One record per move of `game`, with the clocks after it.
    records: Vec<MoveRecord>,
    clock: Option<Clock>,
    undo_by: Option<Color>,
    result: Option<GameResult>,
    /// When the game ended.
    ended_at: Option<u64>,
    /// The players whose connection is gone, by colour.
    away: [Option<Away>; 2],
    /// The last chat lines, oldest first.
    chat: VecDeque<ChatEntry>,
    /// Connections watching.
    pub spectators: BTreeSet<u64>,
}

/// Why stored moves do not make a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoredGameError {
    /// A move that is not a square of the board (or a pass).
    #[error("move {number}: {source}")]
    Square {
        /// The move's number, from 1.
        number: usize,
        /// Why it cannot be read.
        source: ParseError,
    },
    /// A move that the rules do not allow.
    #[error(transparent)]
    Illegal(#[from] GameError),
}

/// The game that `records` make under `rules`, from the start position: the
/// one reader of a table's stored moves (restored tables, exported games).
///
/// # Errors
/// [`StoredGameError`] naming the first move that cannot be read or played.
pub fn replay_records(rules: Rules, records: &[MoveRecord]) -> Result<Game, StoredGameError> {
    let moves = records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            r.mv(rules.size).map_err(|source| StoredGameError::Square {
                number: i + 1,
                source,
            })
        })
        .collect::<Result<Vec<Move>, _>>()?;
    Ok(Game::with_moves(
        rules,
        Position::initial(rules.size),
        &moves,
    )?)
}

impl Table {
    /// A waiting table with its creator seated (in the chosen colour's seat,
    /// Black's provisionally when colours are random).
    #[must_use]
    pub fn new(id: TableId, spec: TableSpec, creator: Seat) -> Table {
        let rules = spec.rules();
        let mut seats = [None, None];
        let i = usize::from(spec.colour == super::protocol::ColourChoice::White);
        seats[i] = Some(creator);
        Table {
            id,
            spec,
            rules,
            seats,
            status: TableStatus::Waiting,
            game: Game::new(rules),
            records: Vec::new(),
            clock: None,
            undo_by: None,
            result: None,
            ended_at: None,
            away: [None, None],
            chat: VecDeque::new(),
            spectators: BTreeSet::new(),
        }
    }

    /// A running game rebuilt from storage: `seats` (Black, White) and the
    /// moves recorded so far; the clocks resume from the last move's times,
    /// the side to move's turn starting `now`.
    ///
    /// # Errors
    /// [`StoredGameError`] when a stored move is not a square or not legal.
    pub fn restore(
        id: TableId,
        spec: TableSpec,
        seats: [Seat; 2],
        records: Vec<MoveRecord>,
        now: u64,
    ) -> Result<Table, StoredGameError> {
        let game = replay_records(spec.rules(), &records)?;
        let [black, white] = seats;
        let mut table = Table::new(id, spec, black.clone());
        table.seats = [Some(black), Some(white)];
        table.game = game;
        table.status = TableStatus::Playing;
        table.clock = table.spec.clock.map(|c| {
            let last = records.last();
            Clock {
                remaining: [
                    last.and_then(|r| r.black_ms).unwrap_or(c.base_ms),
                    last.and_then(|r| r.white_ms).unwrap_or(c.base_ms),
                ],
                turn_start: now,
            }
        });
        table.records = records;
        Ok(table)
    }

    /// The table's number.
    #[must_use]
    pub fn id(&self) -> TableId {
        self.id
    }

    /// What the table was created with.
    #[must_use]
    pub fn spec(&self) -> &TableSpec {
        &self.spec
    }

    /// The rules played.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Waiting, playing or finished.
    #[must_use]
    pub fn status(&self) -> TableStatus {
        self.status
    }

    /// The game so far.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Every move with its clocks.
    #[must_use]
    pub fn records(&self) -> &[MoveRecord] {
        &self.records
    }

    /// The seats, Black's then White's (provisional while waiting).
    #[must_use]
    pub fn seats(&self) -> &[Option<Seat>; 2] {
        &self.seats
    }

    /// The result, once finished.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// When the game ended, once finished (on the time of the caller's
    /// clock).
    #[must_use]
    pub fn ended_at(&self) -> Option<u64> {
        self.ended_at
    }

    /// Whether the players' colours are known: always but at a waiting
    /// table whose colours are drawn when the game starts.
    #[must_use]
    pub fn colours_known(&self) -> bool {
        self.status != TableStatus::Waiting
            || self.spec.colour != super::protocol::ColourChoice::Random
    }

    /// The colour of the seat held by the player `name`, if any.
    #[must_use]
    pub fn side_of(&self, name: &str) -> Option<Color> {
        Color::ALL.into_iter().find(
            |&c| matches!(&self.seats[c.index()], Some(Seat::Player { name: n }) if n == name),
        )
    }

    /// The names of the players seated.
    pub fn player_names(&self) -> impl Iterator<Item = &str> {
        self.seats.iter().filter_map(|s| match s {
            Some(Seat::Player { name }) => Some(name.as_str()),
            _ => None,
        })
    }

    /// Whether no one sits at the table.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.seats.iter().all(Option::is_none)
    }

    /// Sits `seat` in the free seat.
    ///
    /// # Errors
    /// [`ErrorCode::TableFull`] when the table is not waiting or has no free seat.
    pub fn sit(&mut self, seat: Seat) -> Result<(), Refusal> {
        let free = self.seats.iter().position(Option::is_none);
        match free {
            Some(i) if self.status == TableStatus::Waiting => {
                self.seats[i] = Some(seat);
                Ok(())
            }
            _ => Err(Refusal::new(
                ErrorCode::TableFull,
                "the table has no free seat",
            )),
        }
    }

    /// Frees the seat of the player `name` while the table is waiting.
    pub fn stand_up(&mut self, name: &str) {
        if self.status == TableStatus::Waiting
            && let Some(c) = self.side_of(name)
        {
            self.seats[c.index()] = None;
        }
    }

    /// Starts the game with both seats taken, swapping them first if `swap`
    /// (the draw for random colours); the clock of Black starts `now`.
    pub fn start(&mut self, now: u64, swap: bool) {
        if swap {
            self.seats.swap(0, 1);
        }
        self.status = TableStatus::Playing;
        self.clock = self.spec.clock.map(|c| Clock {
            remaining: [c.base_ms; 2],
            turn_start: now,
        });
    }

    /// The side to move while the game runs.
    #[must_use]
    pub fn to_move(&self) -> Option<Color> {
        (self.status == TableStatus::Playing).then(|| self.game.side_to_move())
    }

    /// The side to move and its level when it is the server's engine.
    #[must_use]
    pub fn ai_to_move(&self) -> Option<(Color, Level)> {
        let side = self.to_move()?;
        match self.seats[side.index()] {
            Some(Seat::Ai { level }) => Some((side, level)),
            _ => None,
        }
    }

    /// Remaining times of Black and White at `now`, with a clock.
    #[must_use]
    pub fn clocks_at(&self, now: u64) -> Option<[u64; 2]> {
        let clock = self.clock?;
        let mut r = clock.remaining;
        if let Some(side) = self.to_move() {
            let i = side.index();
            r[i] = r[i].saturating_sub(now.saturating_sub(clock.turn_start));
        }
        Some(r)
    }

    /// `side`'s remaining time at the start of the current turn, with a clock.
    #[must_use]
    pub fn turn_clock(&self, side: Color) -> Option<u64> {
        self.clock.map(|c| c.remaining[side.index()])
    }

    /// When the side to move's time runs out, with a clock while playing.
    #[must_use]
    pub fn deadline(&self) -> Option<u64> {
        let side = self.to_move()?;
        let clock = self.clock?;
        Some(clock.turn_start + clock.remaining[side.index()])
    }

    fn finish(&mut self, now: u64, result: GameResult) -> GameResult {
        self.status = TableStatus::Finished;
        self.result = Some(result);
        self.ended_at = Some(now);
        self.undo_by = None;
        // Presence is told while the game runs only.
        self.away = [None, None];
        result
    }

    /// A result where `loser` lost by `reason`, with the discs on the board.
    fn forfeit(&mut self, now: u64, loser: Color, reason: EndReason) -> GameResult {
        self.finish_as_is(now, Some(loser.opponent()), reason)
    }

    /// Ends the game before its end by the rules: `winner` (a draw when
    /// `None`) by `reason`, the discs on the board as the score.
    fn finish_as_is(&mut self, now: u64, winner: Option<Color>, reason: EndReason) -> GameResult {
        let p = self.game.position();
        self.finish(
            now,
            GameResult {
                winner: winner.map(Side::from),
                black: p.count(Color::Black),
                white: p.count(Color::White),
                reason,
            },
        )
    }

    /// Ends the game if the side to move's time has run out at `now`.
    pub fn check_flag(&mut self, now: u64) -> Option<GameResult> {
        let deadline = self.deadline()?;
        if now < deadline {
            return None;
        }
        let side = self.to_move()?;
        if let Some(c) = &mut self.clock {
            c.remaining[side.index()] = 0;
            c.turn_start = now;
        }
        Some(self.forfeit(now, side, EndReason::Time))
    }

    fn playing(&self) -> Result<Color, Refusal> {
        self.to_move()
            .ok_or_else(|| Refusal::new(ErrorCode::NotPlaying, "the game is not running"))
    }

    /// `side` plays `square` at `now`: checked against the turn and the rules,
    /// the clock charged (and the increment added), any forced pass played,
    /// the end detected.
    ///
    /// # Errors
    /// [`ErrorCode::NotPlaying`], [`ErrorCode::NotYourTurn`] or
    /// [`ErrorCode::IllegalMove`]; the table is unchanged.
    pub fn play(&mut self, side: Color, square: &str, now: u64) -> Result<Played, Refusal> {
        self.check_turn(side)?;
        let sq = parse_square_on(square, self.rules.size)
            .map_err(|e| Refusal::new(ErrorCode::IllegalMove, format!("\"{square}\": {e}")))?;
        self.place(side, sq, now)
    }

    fn check_turn(&self, side: Color) -> Result<(), Refusal> {
        let to_move = self.playing()?;
        if side != to_move {
            return Err(Refusal::new(
                ErrorCode::NotYourTurn,
                format!("it is {to_move}'s turn, not {side}'s"),
            ));
        }
        Ok(())
    }

    /// [`Table::play`] with the square already read (an engine's move).
    ///
    /// # Errors
    /// As [`Table::play`].
    pub fn place(&mut self, side: Color, sq: Square, now: u64) -> Result<Played, Refusal> {
        self.check_turn(side)?;
        self.game
            .play(Move::Place(sq))
            .map_err(|e| Refusal::new(ErrorCode::IllegalMove, e.to_string()))?;
        if let (Some(c), Some(spec)) = (&mut self.clock, self.spec.clock) {
            let i = side.index();
            let used = now.saturating_sub(c.turn_start);
            c.remaining[i] = c.remaining[i].saturating_sub(used) + spec.increment_ms;
            c.turn_start = now;
        }
        let first_ply = self.game.len();
        let mut moves = vec![self.record(side, Move::Place(sq))];
        if let Status::MustPass(passer) = self.game.status()
            && self.game.pass_if_forced()
        {
            moves.push(self.record(passer, Move::Pass));
        }
        self.records.extend(moves.iter().cloned());
        let undo_lapsed = self.undo_by.take().is_some();
        let ended = self.game.outcome().map(|o| {
            self.finish(
                now,
                GameResult {
                    winner: o.winner.map(Side::from),
                    black: o.black,
                    white: o.white,
                    reason: EndReason::Finished,
                },
            )
        });
        Ok(Played {
            first_ply,
            moves,
            ended,
            undo_lapsed,
        })
    }

    fn record(&self, side: Color, mv: Move) -> MoveRecord {
        let r = self.clock.map(|c| c.remaining);
        MoveRecord {
            side: side.into(),
            square: mv.to_string(),
            black_ms: r.map(|r| r[0]),
            white_ms: r.map(|r| r[1]),
        }
    }

    /// `side` resigns.
    ///
    /// # Errors
    /// [`ErrorCode::NotPlaying`] when the game is not running.
    pub fn resign(&mut self, side: Color, now: u64) -> Result<GameResult, Refusal> {
        self.playing()?;
        if let Some(r) = self.clocks_at(now)
            && let Some(c) = &mut self.clock
        {
            c.remaining = r;
            c.turn_start = now;
        }
        Ok(self.forfeit(now, side, EndReason::Resigned))
    }

    /// `side` asks to take back its last move. Returns the pending request's
    /// side (the opponent must answer with [`Table::reply_undo`]).
    ///
    /// # Errors
    /// [`ErrorCode::NotPlaying`], or [`ErrorCode::Undo`] when a request is
    /// already pending or `side` has no move to take back.
    pub fn request_undo(&mut self, side: Color) -> Result<(), Refusal> {
        self.playing()?;
        if self.undo_by.is_some() {
            return Err(Refusal::new(
                ErrorCode::Undo,
                "a take-back request is already pending",
            ));
        }
        if self.game.take_back_to(side).is_none() {
            return Err(Refusal::new(
                ErrorCode::Undo,
                "you have no move to take back",
            ));
        }
        self.undo_by = Some(side);
        Ok(())
    }

    /// `side` answers the opponent's request. On acceptance the moves are
    /// taken back (the requester to move, its clock as it was then, running
    /// from `now`) and the number of moves left is returned.
    ///
    /// # Errors
    /// [`ErrorCode::Undo`] when no request by the opponent is pending.
    pub fn reply_undo(
        &mut self,
        side: Color,
        accept: bool,
        now: u64,
    ) -> Result<Option<usize>, Refusal> {
        let by = match self.undo_by {
            Some(by) if by != side => by,
            _ => {
                return Err(Refusal::new(
                    ErrorCode::Undo,
                    "no take-back request from your opponent is pending",
                ));
            }
        };
        self.undo_by = None;
        if !accept {
            return Ok(None);
        }
        let target = self
            .game
            .take_back_to(by)
            .ok_or_else(|| Refusal::new(ErrorCode::Undo, "there is no move to take back"))?;
        self.game.jump(target);
        self.game.truncate();
        self.records.truncate(target);
        if let (Some(c), Some(spec)) = (&mut self.clock, self.spec.clock) {
            let before = self.records.last();
            c.remaining = [
                before.and_then(|r| r.black_ms).unwrap_or(spec.base_ms),
                before.and_then(|r| r.white_ms).unwrap_or(spec.base_ms),
            ];
            c.turn_start = now;
        }
        Ok(Some(target))
    }

    /// The side whose take-back request is pending.
    #[must_use]
    pub fn undo_requested_by(&self) -> Option<Color> {
        self.undo_by
    }

    /// Withdraws a pending take-back request (its asker or the player asked
    /// is gone); whether one was pending.
    pub fn cancel_undo(&mut self) -> bool {
        self.undo_by.take().is_some()
    }

    /// `side`'s player lost the connection at `now`. Without a clock, the
    /// opponent may claim the game `grace_ms` later; returns that wait, or
    /// `None` on a table with a clock (its clock keeps running).
    pub fn went_away(&mut self, side: Color, now: u64, grace_ms: u64) -> Option<u64> {
        let claim_at = self
            .spec
            .clock
            .is_none()
            .then(|| now.saturating_add(grace_ms));
        self.away[side.index()] = Some(Away {
            since: now,
            claim_at,
        });
        claim_at.map(|_| grace_ms)
    }

    /// `side`'s player is connected again; whether it was away.
    pub fn came_back(&mut self, side: Color) -> bool {
        self.away[side.index()].take().is_some()
    }

    /// Whether `side`'s player is away.
    #[must_use]
    pub fn is_away(&self, side: Color) -> bool {
        self.away[side.index()].is_some()
    }

    /// Whether the game runs with every player seated gone (the engine
    /// does not count).
    #[must_use]
    pub fn is_dormant(&self) -> bool {
        self.status == TableStatus::Playing
            && Color::ALL
                .into_iter()
                .all(|c| self.is_away(c) || matches!(self.seats[c.index()], Some(Seat::Ai { .. })))
    }

    /// When the running game ends as abandoned unless a player comes back:
    /// the engine's opponent gone for `patience.engine_ms`, or both players
    /// of a game without a clock gone for `patience.players_ms` (from the
    /// later departure). `None` while that cannot happen (a player is here,
    /// or a clock decides).
    #[must_use]
    pub fn abandon_at(&self, patience: Patience) -> Option<u64> {
        if self.status != TableStatus::Playing {
            return None;
        }
        let engine = Color::ALL
            .into_iter()
            .find(|&c| matches!(self.seats[c.index()], Some(Seat::Ai { .. })));
        if let Some(engine) = engine {
            let away = self.away[engine.opponent().index()]?;
            return Some(away.since.saturating_add(patience.engine_ms));
        }
        if self.spec.clock.is_some() {
            return None;
        }
        let [Some(black), Some(white)] = self.away else {
            return None;
        };
        Some(
            black
                .since
                .max(white.since)
                .saturating_add(patience.players_ms),
        )
    }

    /// Ends the game as abandoned at `now` when [`Table::abandon_at`] has
    /// come: the engine wins against a player who is gone, two players
    /// gone draw. The discs on the board are the score.
    pub fn check_abandoned(&mut self, now: u64, patience: Patience) -> Option<GameResult> {
        if self.abandon_at(patience)? > now {
            return None;
        }
        let engine = Color::ALL
            .into_iter()
            .find(|&c| matches!(self.seats[c.index()], Some(Seat::Ai { .. })));
        if let Some(c) = self.clocks_at(now)
            && let Some(clock) = &mut self.clock
        {
            clock.remaining = c;
            clock.turn_start = now;
        }
        Some(self.finish_as_is(now, engine, EndReason::Abandoned))
    }

    /// The absent players at `now`, while the game runs.
    #[must_use]
    pub fn absences(&self, now: u64) -> Vec<Absence> {
        if self.status != TableStatus::Playing {
            return Vec::new();
        }
        Color::ALL
            .into_iter()
            .filter_map(|c| {
                self.away[c.index()].map(|a| Absence {
                    side: c.into(),
                    claim_in_ms: a.claim_at.map(|t| t.saturating_sub(now)),
                })
            })
            .collect()
    }

    /// `side` claims the game at `now` because its opponent is away past
    /// the grace period: the win, or a draw when `draw`. The discs on the
    /// board are the score; the clocks stop.
    ///
    /// # Errors
    /// [`ErrorCode::NotPlaying`], or [`ErrorCode::Claim`] when the opponent
    /// is connected, the grace period is not over, or the table has a clock.
    pub fn claim(&mut self, side: Color, draw: bool, now: u64) -> Result<GameResult, Refusal> {
        self.playing()?;
        let claim_at = match self.away[side.opponent().index()] {
            None => {
                return Err(Refusal::new(
                    ErrorCode::Claim,
                    "your opponent is connected: there is nothing to claim",
                ));
            }
            Some(Away { claim_at: None, .. }) => {
                return Err(Refusal::new(
                    ErrorCode::Claim,
                    "a game with a clock is not claimed: the absent player's clock runs",
                ));
            }
            Some(Away {
                claim_at: Some(at), ..
            }) => at,
        };
        if now < claim_at {
            return Err(Refusal::new(
                ErrorCode::Claim,
                format!(
                    "your opponent may still come back: the game can be claimed in {} s",
                    (claim_at - now).div_ceil(1000)
                ),
            ));
        }
        Ok(self.finish_as_is(now, (!draw).then_some(side), EndReason::Abandoned))
    }

    /// Keeps a chat line for players who join or come back later (the last
    /// [`CHAT_HISTORY`] lines).
    pub fn remember_chat(&mut self, from: &str, text: &str) {
        if self.chat.len() == CHAT_HISTORY {
            self.chat.pop_front();
        }
        self.chat.push_back(ChatEntry {
            from: from.to_string(),
            text: text.to_string(),
        });
    }

    /// The table as listed in the lobby.
    #[must_use]
    pub fn info(&self) -> TableInfo {
        let known = self.colours_known();
        let players = self.seats.iter().flatten().cloned().collect();
        TableInfo {
            id: self.id,
            variant: self.spec.variant,
            scoring: self.rules.scoring.into(),
            clock: self.spec.clock,
            colour: self.spec.colour,
            opponent: self.spec.opponent.clone(),
            black: self.seats[0].clone().filter(|_| known),
            white: self.seats[1].clone().filter(|_| known),
            players,
            status: self.status,
            spectators: u32::try_from(self.spectators.len()).unwrap_or(u32::MAX),
        }
    }

    /// The whole game as seen by the player `you` (or a spectator) at `now`.
    /// `you` names no colour while the colours are not drawn
    /// ([`Table::colours_known`]).
    #[must_use]
    pub fn state(&self, now: u64, you: Option<Color>) -> GameState {
        let you = you.filter(|_| self.colours_known());
        let clocks = self.clocks_at(now);
        GameState {
            table: self.info(),
            moves: self.records.clone(),
            to_move: self.to_move().map(Side::from),
            black_ms: clocks.map(|c| c[0]),
            white_ms: clocks.map(|c| c[1]),
            you: you.map(Side::from),
            undo_requested_by: self.undo_by.map(Side::from),
            result: self.result,
            away: self.absences(now),
            chat: Some(self.chat.iter().cloned().collect()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::{ClockSpec, ColourChoice};

    fn stored(squares: &[&str]) -> Vec<MoveRecord> {
        squares
            .iter()
            .map(|sq| MoveRecord {
                side: Side::Black,
                square: (*sq).to_string(),
                black_ms: None,
                white_ms: None,
            })
            .collect()
    }

    #[test]
    fn stored_moves_replay_or_say_which_move_is_wrong() {
        let rules = Rules::default();
        let g = replay_records(rules, &stored(&["f5", "F6", "e6", "f4"])).unwrap();
        assert_eq!(g.len(), 4);
        assert_eq!(
            replay_records(rules, &stored(&["f5", "z9"])),
            Err(StoredGameError::Square {
                number: 2,
                source: crate::notation::parse_square("z9").unwrap_err()
            })
        );
        let off = replay_records(
            Rules::standard(crate::rules::BoardSize::Six),
            &stored(&["h8"]),
        );
        assert!(
            matches!(off, Err(StoredGameError::Square { number: 1, .. })),
            "{off:?}"
        );
        let illegal = replay_records(rules, &stored(&["f5", "a1"]));
        assert!(
            matches!(illegal, Err(StoredGameError::Illegal(_))),
            "{illegal:?}"
        );
        // A pass where none is forced is refused by the rules, not misread.
        let pass = replay_records(rules, &stored(&["pass"]));
        assert!(matches!(pass, Err(StoredGameError::Illegal(_))), "{pass:?}");
    }

    fn table(clock: Option<ClockSpec>) -> Table {
        let spec = TableSpec {
            colour: ColourChoice::Black,
            clock,
            ..TableSpec::default()
        };
        let mut t = Table::new(1, spec, Seat::Player { name: "a".into() });
        t.sit(Seat::Player { name: "b".into() }).unwrap();
        t.start(0, false);
        t
    }

    #[test]
    fn turn_and_rules_are_checked() {
        let mut t = table(None);
        assert_eq!(t.side_of("a"), Some(Color::Black));
        let e = t.play(Color::White, "d3", 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotYourTurn);
        let e = t.play(Color::Black, "a1", 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::IllegalMove);
        let e = t.play(Color::Black, "zz", 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::IllegalMove);
        let p = t.play(Color::Black, "d3", 0).unwrap();
        assert_eq!(p.first_ply, 1);
        assert_eq!(t.to_move(), Some(Color::White));
    }

    #[test]
    fn clock_charges_adds_increment_and_flags() {
        let mut t = table(Some(ClockSpec {
            base_ms: 1000,
            increment_ms: 100,
        }));
        t.play(Color::Black, "d3", 300).unwrap();
        assert_eq!(t.clocks_at(300), Some([800, 1000]));
        assert_eq!(t.deadline(), Some(1300));
        assert_eq!(t.check_flag(1299), None);
        let r = t.check_flag(1300).unwrap();
        assert_eq!(r.winner, Some(Side::Black));
        assert_eq!(r.reason, EndReason::Time);
        assert_eq!(t.status(), TableStatus::Finished);
    }

    #[test]
    fn a_restored_game_keeps_both_seats_whatever_colour_its_creator_chose() {
        for colour in [
            ColourChoice::Black,
            ColourChoice::White,
            ColourChoice::Random,
        ] {
            let spec = TableSpec {
                colour,
                ..TableSpec::default()
            };
            let seat = |n: &str| Seat::Player { name: n.into() };
            let t = Table::restore(1, spec, [seat("bob"), seat("ann")], Vec::new(), 0).unwrap();
            assert_eq!(t.side_of("bob"), Some(Color::Black), "{colour:?}");
            assert_eq!(t.side_of("ann"), Some(Color::White), "{colour:?}");
        }
    }

    #[test]
    fn an_absent_players_game_is_claimed_after_the_grace_and_only_without_a_clock() {
        let mut t = table(None);
        let code = |r: Result<GameResult, Refusal>| r.unwrap_err().code;
        assert_eq!(code(t.claim(Color::Black, false, 0)), ErrorCode::Claim);
        assert_eq!(t.went_away(Color::White, 100, 1000), Some(1000));
        assert_eq!(code(t.claim(Color::Black, false, 1099)), ErrorCode::Claim);
        assert_eq!(
            code(t.claim(Color::White, false, 5000)),
            ErrorCode::Claim,
            "the absent side has nothing to claim"
        );
        assert_eq!(t.absences(600)[0].claim_in_ms, Some(500));
        let r = t.claim(Color::Black, false, 1100).unwrap();
        assert_eq!(
            (r.winner, r.reason, r.black, r.white),
            (Some(Side::Black), EndReason::Abandoned, 2, 2)
        );
        assert_eq!(t.status(), TableStatus::Finished);
        assert!(t.absences(2000).is_empty());
        let mut t = table(Some(ClockSpec {
            base_ms: 10_000,
            increment_ms: 0,
        }));
        assert_eq!(t.went_away(Color::White, 0, 1000), None);
        assert_eq!(code(t.claim(Color::Black, true, 50_000)), ErrorCode::Claim);
        assert!(t.came_back(Color::White));
        assert!(!t.came_back(Color::White));
    }

    #[test]
    fn the_chat_history_keeps_the_last_lines() {
        let mut t = table(None);
        for i in 0..CHAT_HISTORY + 5 {
            t.remember_chat("a", &format!("line {i}"));
        }
        let chat = t.state(0, None).chat.unwrap();
        assert_eq!(chat.len(), CHAT_HISTORY);
        assert_eq!(chat[0].text, "line 5");
    }

    #[test]
    fn undo_needs_the_opponent_and_restores_clocks() {
        let mut t = table(Some(ClockSpec {
            base_ms: 10_000,
            increment_ms: 0,
        }));
        t.play(Color::Black, "d3", 1000).unwrap();
        t.play(Color::White, "c5", 3000).unwrap();
        assert_eq!(
            t.reply_undo(Color::White, true, 3000).unwrap_err().code,
            ErrorCode::Undo
        );
        t.request_undo(Color::White).unwrap();
        assert_eq!(
            t.reply_undo(Color::White, true, 3000).unwrap_err().code,
            ErrorCode::Undo
        );
        assert_eq!(t.game().len(), 2, "nothing is taken back by one side");
        assert_eq!(t.reply_undo(Color::Black, true, 5000).unwrap(), Some(1));
        assert_eq!(t.to_move(), Some(Color::White));
        assert_eq!(t.clocks_at(5000), Some([9000, 10_000]));
    }
}
