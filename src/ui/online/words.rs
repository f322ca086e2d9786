//! Every sentence and label the online screen shows, in one place (for the
//! message catalogue). Text from other players is passed in already cleaned.

use crate::net::protocol::{
    ClockSpec, ColourChoice, EndReason, GameResult, Opponent, ScoringRule, Seat, Side, TableStatus,
    Variant,
};
use std::time::Duration;

/// "Black" or "White".
#[must_use]
pub fn side(side: Side) -> &'static str {
    match side {
        Side::Black => "Black",
        Side::White => "White",
    }
}

/// A variant's name.
#[must_use]
pub fn variant(v: Variant) -> &'static str {
    match v {
        Variant::Eight => "8×8",
        Variant::Six => "6×6",
        Variant::Anti => "Anti 8×8",
    }
}

/// A scoring rule's name.
#[must_use]
pub fn scoring(s: ScoringRule) -> &'static str {
    match s {
        ScoringRule::EmptiesToNobody => "empties to nobody",
        ScoringRule::EmptiesToWinner => "empties to winner",
    }
}

/// A colour choice.
#[must_use]
pub fn colour(c: ColourChoice) -> &'static str {
    match c {
        ColourChoice::Random => "random",
        ColourChoice::Black => "Black",
        ColourChoice::White => "White",
    }
}

/// A clock: `5+3` (minutes and seconds of increment), or "no clock".
#[must_use]
pub fn clock(c: Option<ClockSpec>) -> String {
    match c {
        None => "no clock".into(),
        Some(c) => {
            let base = c.base_ms / 1000;
            let base = if base % 60 == 0 {
                format!("{}", base / 60)
            } else {
                format!("{base}s")
            };
            format!("{base}+{}", c.increment_ms / 1000)
        }
    }
}

/// A table's status.
#[must_use]
pub fn status(s: TableStatus) -> &'static str {
    match s {
        TableStatus::Waiting => "waiting",
        TableStatus::Playing => "playing",
        TableStatus::Finished => "finished",
    }
}

/// Who may sit at a table.
#[must_use]
pub fn opponent(o: &Opponent) -> String {
    match o {
        Opponent::Open => "anyone".into(),
        Opponent::Invite { name } => format!("only {name}"),
        Opponent::Ai { level } => format!("server AI level {level}"),
    }
}

/// A seat's label.
#[must_use]
pub fn seat(s: &Seat) -> String {
    s.label()
}

/// A clock's face: `4:59`, `0:07.3` under ten seconds.
#[must_use]
pub fn time_left(d: Duration) -> String {
    let ms = d.as_millis();
    let secs = ms / 1000;
    if secs < 10 {
        format!("0:0{secs}.{}", (ms % 1000) / 100)
    } else if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// The result line: "Black wins 40–24", "White wins on time", "Draw 32–32".
#[must_use]
pub fn result(r: &GameResult, names: [&str; 2]) -> String {
    let winner = |s: Side| {
        let n = names[super::model::side_index(s)];
        if n.is_empty() {
            side(s).to_string()
        } else {
            format!("{n} ({})", side(s))
        }
    };
    match (r.winner, r.reason) {
        (None, _) => format!("Draw {}–{}", r.black, r.white),
        (Some(w), EndReason::Finished) => {
            format!("{} wins {}–{}", winner(w), r.black, r.white)
        }
        (Some(w), EndReason::Resigned) => format!("{} wins: {} resigned", winner(w), {
            let l = match w {
                Side::Black => Side::White,
                Side::White => Side::Black,
            };
            winner(l)
        }),
        (Some(w), EndReason::Time) => format!("{} wins on time", winner(w)),
    }
}

/// The take-back question.
#[must_use]
pub fn undo_asked(by: &str) -> String {
    format!("{by} asks to take back the last move — y/n")
}

/// Connecting.
pub const CONNECTING: &str = "connecting…";
/// Connected.
pub const CONNECTED: &str = "connected";
/// Not connected yet.
pub const OFFLINE: &str = "not connected";

/// The connection line while reconnecting.
#[must_use]
pub fn reconnecting(attempt: u32) -> String {
    if attempt == 0 {
        "reconnecting…".into()
    } else {
        format!("reconnecting… (attempt {})", attempt + 1)
    }
}

/// The server could not be reached.
#[must_use]
pub fn unreachable(url: &str, reason: &str) -> String {
    format!("Cannot reach the server at {url}: {reason}")
}

/// The server refused the name.
#[must_use]
pub fn refused(message: &str) -> String {
    format!("The server refused: {message}")
}

/// Keys offered when the server cannot be reached.
pub const UNREACHABLE_KEYS: &str = "r try again   e change address or name   Esc back";
/// The connection dropped.
#[must_use]
pub fn lost(reason: &str) -> String {
    format!("Connection lost ({reason}); reconnecting…")
}
/// Back after a drop.
pub const RECONNECTED: &str = "Reconnected";
/// A request needs the connection.
pub const NEED_CONNECTION: &str = "Not connected: wait for the connection to come back";
/// The move is not ours to play.
pub const NOT_YOUR_TURN: &str = "It is not your turn";
/// Spectators cannot move.
pub const WATCHING: &str = "You are watching this table";
/// The typed square is not legal.
#[must_use]
pub fn illegal(square: &str) -> String {
    format!("{square} is not a legal move")
}
/// A move was sent.
#[must_use]
pub fn sent(square: &str) -> String {
    format!("{square} sent")
}
/// A take-back was asked.
pub const UNDO_SENT: &str = "Take-back asked; waiting for the answer";
/// Nothing to take back.
pub const NOTHING_TO_UNDO: &str = "You have no move to take back";
/// The request was declined.
pub const UNDO_DECLINED: &str = "The take-back was declined";
/// The moves were taken back.
pub const UNDONE: &str = "Moves taken back";
/// A take-back answered.
pub const UNDO_ACCEPTED: &str = "You accepted the take-back";
/// A take-back declined by us.
pub const UNDO_REFUSED: &str = "You declined the take-back";
/// Waiting for an opponent.
pub const WAITING: &str = "Waiting for an opponent to join";
/// The table is gone.
pub const TABLE_GONE: &str = "The table is gone";
/// The server says something went wrong.
#[must_use]
pub fn server_error(message: &str) -> String {
    format!("Server: {message}")
}
/// Nothing to join.
pub const NO_TABLE: &str = "No table selected";
/// The finished game was kept.
#[must_use]
pub fn kept(path: &str) -> String {
    format!("Game kept in {path}")
}
/// A bad name in the connect form.
#[must_use]
pub fn bad_name(e: &str) -> String {
    format!("Name: {e}")
}
/// A bad address in the connect form.
pub const BAD_URL: &str = "Address: expected ws://host:port or wss://host:port";

/// The resign question.
pub const CONFIRM_RESIGN: [&str; 2] = ["Resign this game?", "y resign   n keep playing"];
/// The leave question.
pub const CONFIRM_LEAVE: [&str; 2] = ["Leave this table?", "y leave   n stay"];

/// The lobby's column titles.
pub const LOBBY_COLUMNS: [&str; 7] = [
    "#", "Players", "Variant", "Scoring", "Clock", "Status", "Watching",
];
/// The lobby's title.
pub const LOBBY: &str = "Salon";
/// An empty lobby.
pub const NO_TABLES: &str = "No tables yet: press c to create one";
/// The create form's title.
pub const CREATE: &str = "New online table";
/// The create form's fields.
pub const CREATE_FIELDS: [&str; 5] = ["Board", "Empty squares", "Your colour", "Clock", "Opponent"];
/// The connect form's title.
pub const CONNECT: &str = "Play online";
/// The connect form's fields.
pub const CONNECT_FIELDS: [&str; 2] = ["Server", "Your name"];
/// A person may sit.
pub const ANY_PERSON: &str = "a person";
/// The server's engine may sit.
#[must_use]
pub fn server_ai(level: u8) -> String {
    format!("the server's AI, level {level}")
}
/// The label "you".
pub const YOU: &str = "you";
/// Whose turn.
#[must_use]
pub fn to_move(side_name: &str, name: &str, ours: bool) -> String {
    if ours {
        format!("{side_name} to move — your turn")
    } else if name.is_empty() {
        format!("{side_name} to move")
    } else {
        format!("{side_name} to move ({name})")
    }
}
/// Spectators.
#[must_use]
pub fn watching(n: u32) -> String {
    match n {
        0 => String::new(),
        1 => "1 watching".into(),
        n => format!("{n} watching"),
    }
}
/// The chat's title.
pub const CHAT: &str = "Chat";
/// The move list's title.
pub const MOVES: &str = "Moves";
/// A table's title.
#[must_use]
pub fn table_title(id: u64) -> String {
    format!("Table {id}")
}
