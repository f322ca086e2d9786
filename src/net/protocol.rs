//! The salon's wire protocol: plain serde types for the JSON messages that
//! travel in WebSocket text frames, one message per frame, and the decoder
//! with its size cap. Written up for other clients in `docs/protocol.md`.
//!
//! Every message is an object whose `type` field names it. Unknown fields are
//! ignored (so later minor versions may add optional fields); an unknown
//! `type`, a missing required field, a wrong value type or an AI level
//! outside the ladder is a malformed message. No game logic lives here (see [`super::lobby`] and
//! [`super::table`]): only the conversions between these types and those of
//! the rules and the notation (sides and colours, moves, a finished game's
//! record).

use super::text::truncate_bytes;
use crate::ai::Level;
use crate::notation::ggf::{EndedEarly, Record, forfeit_outcome};
use crate::notation::{ParseError, parse_move_on};
use crate::rules::{BoardSize, Color, Move, Rules, Scoring};
use serde::{Deserialize, Serialize};

/// The protocol version a client states in its `hello` and the server in
/// `welcome`: version 2 adds `presence`, `claim`, chat history and the
/// `abandoned` end. A server refuses a `hello` with a version outside
/// [`MIN_PROTOCOL_VERSION`]`..=`[`PROTOCOL_VERSION`].
pub const PROTOCOL_VERSION: u32 = 2;

/// The oldest version the server still speaks: a version-1 connection gets
/// no message or value it does not know (see `docs/protocol.md`).
pub const MIN_PROTOCOL_VERSION: u32 = 1;

/// The most chat lines a table keeps for players who (re)join it.
pub const CHAT_HISTORY: usize = 100;

/// The largest text frame the server accepts, in bytes; a larger one closes
/// the connection.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The longest chat line, in characters, after cleaning.
pub const MAX_CHAT_CHARS: usize = 200;

/// A table's number, unique on one server (and across its restarts for tables
/// whose game started).
pub type TableId = u64;

/// A side of the board on the wire: `"black"` or `"white"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Black (moves first).
    Black,
    /// White.
    White,
}

impl Side {
    /// The other side.
    #[must_use]
    pub fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }
}

impl Side {
    /// The side's place in a pair kept per side, Black first
    /// ([`Color::index`]).
    #[must_use]
    pub fn index(self) -> usize {
        Color::from(self).index()
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// The variants a table can play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// Reversi on 8×8.
    #[default]
    #[serde(rename = "8x8")]
    Eight,
    /// Reversi on 6×6.
    #[serde(rename = "6x6")]
    Six,
    /// Anti Reversi on 8×8: fewer discs wins.
    #[serde(rename = "anti")]
    Anti,
}

/// The scoring rule on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoringRule {
    /// Empty squares count for nobody.
    EmptiesToNobody,
    /// Empty squares go to the winner (split on a draw).
    EmptiesToWinner,
}

impl From<Scoring> for ScoringRule {
    fn from(s: Scoring) -> ScoringRule {
        match s {
            Scoring::EmptiesToNobody => ScoringRule::EmptiesToNobody,
            Scoring::EmptiesToWinner => ScoringRule::EmptiesToWinner,
        }
    }
}

impl From<ScoringRule> for Scoring {
    fn from(s: ScoringRule) -> Scoring {
        match s {
            ScoringRule::EmptiesToNobody => Scoring::EmptiesToNobody,
            ScoringRule::EmptiesToWinner => Scoring::EmptiesToWinner,
        }
    }
}

/// Colours at a new table: the creator's colour, or drawn at random when the
/// game starts (the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourChoice {
    /// Drawn when the second player sits down.
    #[default]
    Random,
    /// The creator plays Black.
    Black,
    /// The creator plays White.
    White,
}

/// A game clock: `base_ms` for the whole game plus `increment_ms` after each
/// of one's own moves (Fischer). A side whose time runs out loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockSpec {
    /// Starting time per side, in milliseconds (1 s to 3 h).
    pub base_ms: u64,
    /// Added after each move, in milliseconds (at most 60 s).
    #[serde(default)]
    pub increment_ms: u64,
}

/// Who may take the second seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Opponent {
    /// Anyone who joins first.
    #[default]
    Open,
    /// Only the player with this name.
    Invite {
        /// The invited player's name.
        name: String,
    },
    /// The server's engine at a level (1–12); the game starts at once.
    Ai {
        /// Playing level, 1 (beginner) to 12: any other number does not
        /// read as a message.
        level: Level,
    },
}

/// What a `create` message asks for. Every field has a default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSpec {
    /// The variant (default `8x8`).
    #[serde(default)]
    pub variant: Variant,
    /// The scoring rule (default: the variant's usual one — nobody on 8×8 and
    /// Anti, to the winner on 6×6).
    #[serde(default)]
    pub scoring: Option<ScoringRule>,
    /// The creator's colour (default random).
    #[serde(default)]
    pub colour: ColourChoice,
    /// The clock, or none (`null` or absent).
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// Who may sit opposite (default open).
    #[serde(default)]
    pub opponent: Opponent,
}

impl TableSpec {
    /// The rules the table plays: board size, Anti or not, scoring rule.
    #[must_use]
    pub fn rules(&self) -> Rules {
        let (size, anti) = match self.variant {
            Variant::Eight => (BoardSize::Eight, false),
            Variant::Six => (BoardSize::Six, false),
            Variant::Anti => (BoardSize::Eight, true),
        };
        let mut rules = Rules::standard(size);
        rules.anti = anti;
        if let Some(s) = self.scoring {
            rules.scoring = s.into();
        }
        rules
    }
}

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// The first message on a connection: the protocol version, a name and,
    /// to resume a session (seats, clocks), the token from an earlier `welcome`.
    Hello {
        /// Must equal [`PROTOCOL_VERSION`].
        protocol: u32,
        /// 1–20 characters: letters, digits, `_`, `-`, `.` (after cleaning).
        name: String,
        /// The session token, to resume.
        #[serde(default)]
        token: Option<String>,
        /// Whether to receive live `table` / `table_closed` updates (default true).
        #[serde(default = "default_true")]
        lobby: bool,
    },
    /// Asks for the list of tables (answered by `tables`).
    List,
    /// Creates a table and sits at it.
    Create(TableSpec),
    /// Sits at a waiting table.
    Join {
        /// The table.
        table: TableId,
    },
    /// Watches a table (the whole game so far, then every move).
    Watch {
        /// The table.
        table: TableId,
    },
    /// Leaves a table: stops watching, gives up a seat before the game starts,
    /// or closes a finished game. A running game cannot be left (resign first).
    Leave {
        /// The table.
        table: TableId,
    },
    /// Plays a square (`"d3"`). Passes are automatic and never sent.
    Move {
        /// The table.
        table: TableId,
        /// The square, `a1`..`h8`.
        square: String,
    },
    /// Resigns the game at a table.
    Resign {
        /// The table.
        table: TableId,
    },
    /// Asks the opponent to take back one's last move.
    Undo {
        /// The table.
        table: TableId,
    },
    /// Answers the opponent's take-back request.
    UndoReply {
        /// The table.
        table: TableId,
        /// Accept (the moves are taken back) or decline.
        accept: bool,
    },
    /// A chat line to everyone at a table.
    Chat {
        /// The table.
        table: TableId,
        /// At most [`MAX_CHAT_CHARS`] characters after cleaning.
        text: String,
    },
    /// Ends a game whose opponent has been disconnected longer than the
    /// server's grace period (tables without a clock): a win, or a draw.
    Claim {
        /// The table.
        table: TableId,
        /// A draw instead of the win (default `false`).
        #[serde(default)]
        draw: bool,
    },
    /// Keeps the connection alive; answered by `pong` with the same id.
    Ping {
        /// Any number, echoed.
        #[serde(default)]
        id: u64,
    },
}

fn default_true() -> bool {
    true
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Seat {
    /// A player, by name.
    Player {
        /// The player's name.
        name: String,
    },
    /// The server's engine.
    Ai {
        /// Its level, 1–12.
        level: Level,
    },
}

impl Seat {
    /// The name shown for the seat: the player's name or `AI-3`.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            Seat::Player { name } => name.clone(),
            Seat::Ai { level } => format!("AI-{}", level.number()),
        }
    }
}

/// Where a table is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Waiting for a second player.
    Waiting,
    /// The game is on.
    Playing,
    /// The game is over.
    Finished,
}

/// A table as listed in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableInfo {
    /// The table's number.
    pub id: TableId,
    /// The variant.
    pub variant: Variant,
    /// The scoring rule in force.
    pub scoring: ScoringRule,
    /// The clock, if any.
    pub clock: Option<ClockSpec>,
    /// The creator's colour choice.
    pub colour: ColourChoice,
    /// Who may join.
    pub opponent: Opponent,
    /// Black's seat, once colours are known.
    pub black: Option<Seat>,
    /// White's seat, once colours are known.
    pub white: Option<Seat>,
    /// Everyone seated, creator first (before colours are known too).
    pub players: Vec<Seat>,
    /// Waiting, playing or finished.
    pub status: TableStatus,
    /// How many connections watch.
    pub spectators: u32,
}

impl TableInfo {
    /// The rules of this table.
    #[must_use]
    pub fn spec_rules(&self) -> Rules {
        TableSpec {
            variant: self.variant,
            scoring: Some(self.scoring),
            ..TableSpec::default()
        }
        .rules()
    }
}

/// One move as recorded by the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Who moved.
    pub side: Side,
    /// The square (`"d3"`) or `"pass"`.
    pub square: String,
    /// Black's remaining time after the move (with a clock).
    pub black_ms: Option<u64>,
    /// White's remaining time after the move (with a clock).
    pub white_ms: Option<u64>,
}

impl MoveRecord {
    /// The move recorded, on a board of `size`.
    ///
    /// # Errors
    /// A square that is not one of the board's.
    pub fn mv(&self, size: BoardSize) -> Result<Move, ParseError> {
        parse_move_on(&self.square, size)
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Neither side could move.
    Finished,
    /// The loser resigned.
    Resigned,
    /// The loser's time ran out.
    Time,
    /// A player stayed disconnected past the grace period and the opponent
    /// claimed the game (the win, or a draw when `winner` is `null`).
    Abandoned,
}

/// The result of a game, computed by the server with the table's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner, `null` for a draw.
    pub winner: Option<Side>,
    /// Black's score (discs, plus empties under the winner rule).
    pub black: u32,
    /// White's score.
    pub white: u32,
    /// How the game ended.
    pub reason: EndReason,
}

impl GameResult {
    /// Marks `record`, the game that ended so, as GGF marks a game that ended
    /// before its board was played out: a resignation `:r`, a flag fall `:t`,
    /// an abandoned game won `:f` (the winner taking every square, as GGS
    /// scores a forfeit); an abandoned game without a winner (a claimed draw,
    /// or both players gone) is a draw set without playing out, `RE[+0:s]`
    /// (GGF's suffix for a score the players did not play to). A game played
    /// out keeps the result its moves give. The server's export and the
    /// client's saved games both write a salon game this way.
    pub fn mark(&self, record: &mut Record) {
        let rules = record.game.rules();
        let early = match (self.reason, self.winner) {
            (EndReason::Finished, _) => return,
            (EndReason::Resigned, _) => EndedEarly::Resigned,
            (EndReason::Time, _) => EndedEarly::Time,
            (EndReason::Abandoned, Some(_)) => EndedEarly::Forfeit,
            (EndReason::Abandoned, None) => EndedEarly::Agreed,
        };
        record.result = Some(match self.winner {
            Some(w) => forfeit_outcome(rules, w.into()),
            None => {
                let half = rules.size.squares() / 2;
                crate::rules::Outcome {
                    winner: None,
                    black: half,
                    white: half,
                }
            }
        });
        record.ended_early = Some(early);
    }
}

/// The whole state of a table's game: sent on `watch`, on joining, when the
/// game starts, and on resuming a session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The table.
    pub table: TableInfo,
    /// Every move so far, passes included, in order.
    pub moves: Vec<MoveRecord>,
    /// The side to move, `null` when the game is not running.
    pub to_move: Option<Side>,
    /// Black's remaining time now (with a clock).
    pub black_ms: Option<u64>,
    /// White's remaining time now (with a clock).
    pub white_ms: Option<u64>,
    /// The receiver's colour, if seated.
    pub you: Option<Side>,
    /// A pending take-back request, by this side.
    pub undo_requested_by: Option<Side>,
    /// The result, once finished.
    pub result: Option<GameResult>,
    /// The seated players whose connection is gone (version 2).
    #[serde(default)]
    pub away: Vec<Absence>,
    /// The table's last chat lines, oldest first, at most [`CHAT_HISTORY`]
    /// (version 2; `None` from a version-1 server).
    #[serde(default)]
    pub chat: Option<Vec<ChatEntry>>,
}

/// A seated player whose connection is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absence {
    /// The side whose player is away.
    pub side: Side,
    /// Milliseconds until the opponent may `claim` the game (0: now);
    /// `null` when the game cannot be claimed (a table with a clock).
    pub claim_in_ms: Option<u64>,
}

/// One chat line of a table's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatEntry {
    /// The sender's name.
    pub from: String,
    /// The line, cleaned.
    pub text: String,
}

/// Why a take-back request ended without moves taken back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UndoEnd {
    /// The opponent said no.
    #[default]
    Declined,
    /// A move was played meanwhile.
    Moved,
    /// The player who asked, or who was asked, disconnected.
    Disconnected,
}

/// What went wrong with a request; the connection stays open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A request that makes no sense here (e.g. before `hello`, or a second `hello`).
    BadRequest,
    /// The protocol version is not spoken by this server.
    Version,
    /// The name is not valid.
    BadName,
    /// The name belongs to another session.
    NameTaken,
    /// The token does not match the name's session.
    BadToken,
    /// No table with that number.
    NoSuchTable,
    /// The table has no free seat, or is not waiting.
    TableFull,
    /// The table is for an invited player.
    NotInvited,
    /// The sender is not seated at the table.
    NotSeated,
    /// The game is not running.
    NotPlaying,
    /// It is the other side's turn.
    NotYourTurn,
    /// The move is against the rules.
    IllegalMove,
    /// No take-back possible or pending.
    Undo,
    /// The table settings are not valid.
    BadTable,
    /// The server's engine is busy with too many tables.
    AiBusy,
    /// Too many tables or seats for one player.
    Limit,
    /// A running game cannot be left.
    InGame,
    /// The game cannot be claimed: the opponent is here, the grace period
    /// is not over, or the table has a clock (version 2).
    Claim,
}

/// The limits a server puts on each connection, as stated in `welcome`, so
/// that a client can keep within them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Messages (WebSocket pings included) a connection may send per second
    /// on average.
    pub messages_per_sec: f64,
    /// Messages a connection may send at once, before the average applies.
    pub burst: u32,
    /// The largest text frame, in bytes ([`MAX_MESSAGE_BYTES`]).
    pub max_message_bytes: u32,
    /// A connection that sends no message for this long is closed.
    pub idle_timeout_ms: u64,
    /// Connections at once from one address.
    pub max_per_ip: u32,
    /// Connections at once in all.
    pub max_connections: u32,
}

// The rate is finite and positive (the server refuses to start with any
// other), so equality on it is total.
impl Eq for Limits {}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to `hello`: the session's name and token, and the tables.
    Welcome {
        /// [`PROTOCOL_VERSION`].
        protocol: u32,
        /// The name, as cleaned.
        name: String,
        /// The session token (32 hex digits, 128 random bits): keep it to resume.
        token: String,
        /// Whether an existing session was resumed (its games follow as `game`).
        resumed: bool,
        /// The tables now.
        tables: Vec<TableInfo>,
        /// The server's limits on each connection (absent from servers that
        /// do not state them).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limits: Option<Limits>,
    },
    /// The tables now (the answer to `list`).
    Tables {
        /// Every table.
        tables: Vec<TableInfo>,
    },
    /// A table was created or changed (players, status, spectators).
    Table {
        /// The table as it is now.
        table: TableInfo,
    },
    /// A table is gone.
    TableClosed {
        /// Its number.
        table: TableId,
    },
    /// The whole game at a table.
    Game(Box<GameState>),
    /// A move was played (passes included); to players and spectators.
    Moved {
        /// The table.
        table: TableId,
        /// 1-based number of this move in the game.
        ply: usize,
        /// The move.
        #[serde(flatten)]
        mv: MoveRecord,
        /// The side to move next, `null` once the game is over.
        to_move: Option<Side>,
    },
    /// The opponent asks to take back their last move: answer with `undo_reply`.
    UndoRequested {
        /// The table.
        table: TableId,
        /// Who asks.
        by: Side,
    },
    /// A take-back request was declined or lapsed.
    UndoDeclined {
        /// The table.
        table: TableId,
        /// Why (version 2; `declined` when absent).
        #[serde(default)]
        reason: UndoEnd,
    },
    /// Moves were taken back: the game now has `ply` moves.
    Undone {
        /// The table.
        table: TableId,
        /// The number of moves left.
        ply: usize,
        /// The side to move.
        to_move: Side,
        /// Black's remaining time (with a clock).
        black_ms: Option<u64>,
        /// White's remaining time (with a clock).
        white_ms: Option<u64>,
    },
    /// The game is over.
    Ended {
        /// The table.
        table: TableId,
        /// The result.
        result: GameResult,
    },
    /// A chat line, cleaned.
    Chat {
        /// The table.
        table: TableId,
        /// The sender's name.
        from: String,
        /// The line.
        text: String,
    },
    /// A seated player's connection went or came back (version 2); to
    /// everyone else at the table.
    Presence {
        /// The table.
        table: TableId,
        /// The player's side.
        side: Side,
        /// The player's name.
        name: String,
        /// Whether the player is connected now.
        connected: bool,
        /// When disconnected: milliseconds until the opponent may `claim`
        /// the game; `null` when it cannot be claimed (a clock runs).
        claim_in_ms: Option<u64>,
    },
    /// The answer to `ping`.
    Pong {
        /// The ping's id.
        id: u64,
    },
    /// A request was refused; nothing changed.
    Error {
        /// What kind of refusal.
        code: ErrorCode,
        /// A sentence for people.
        message: String,
        /// The table concerned, if any.
        table: Option<TableId>,
        /// With `no_such_table`: the table existed and is closed now
        /// (version 2; `false` for a number never given).
        #[serde(default)]
        closed: bool,
    },
}

/// Why a frame is not a valid client message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The frame is larger than the cap.
    #[error("message of {0} bytes is over the {MAX_MESSAGE_BYTES}-byte limit")]
    TooLarge(usize),
    /// Not a JSON message of this protocol.
    #[error("malformed message: {0}")]
    Malformed(String),
}

/// Reads one client message from a text frame, refusing frames over
/// [`MAX_MESSAGE_BYTES`]. Never panics.
///
/// # Errors
/// [`DecodeError`] saying what is wrong (for the close reason).
pub fn decode_client(text: &str) -> Result<ClientMsg, DecodeError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(DecodeError::TooLarge(text.len()));
    }
    serde_json::from_str(text).map_err(|e| {
        // The message quotes the frame; a close reason must stay short.
        let mut m = e.to_string();
        truncate_bytes(&mut m, 100);
        DecodeError::Malformed(m)
    })
}

/// Reads one server message (for clients).
///
/// # Errors
/// [`DecodeError::Malformed`] when the text is not a server message.
pub fn decode_server(text: &str) -> Result<ServerMsg, DecodeError> {
    serde_json::from_str(text).map_err(|e| DecodeError::Malformed(e.to_string()))
}

/// Writes a message as JSON.
#[must_use]
pub fn encode<T: Serialize>(msg: &T) -> String {
    // The protocol types are plain data (string keys, no maps with non-string
    // keys), so serialisation cannot fail.
    serde_json::to_string(msg).unwrap_or_default()
}
