//! The game's recurring words in the player's language: the sides, the
//! levels, a result, the rules in short, seconds. The rules and AI modules
//! keep their English `Display` for files and the command line; the screen
//! says them through these.

use crate::ai::Level;
use crate::i18n::{Arg, tr};
use crate::rules::{BoardSize, Color, Outcome, Rules, Scoring};
use crate::tr;

/// The catalogue's key for a side: `black` or `white` (messages choose
/// their words, and their grammar, by it).
#[must_use]
pub fn side(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A move in a move list: its square, or "pass" in the screen's language.
#[must_use]
pub fn move_name(mv: crate::rules::Move) -> String {
    match mv {
        crate::rules::Move::Pass => tr("move-pass"),
        crate::rules::Move::Place(_) => mv.to_string(),
    }
}

/// A side's name on its own: "Black", "Noirs".
#[must_use]
pub fn side_name(c: Color) -> String {
    tr!("side-name", side = side(c))
}

/// A level's name: "casual", "loisir".
#[must_use]
pub fn level_name(level: Level) -> String {
    tr!("level-name", n = level.number())
}

/// A level with its number: "3 (casual)".
#[must_use]
pub fn level_label(level: Level) -> String {
    tr!("level-label", n = level.number(), name = level_name(level))
}

/// Whom a level suits and how it plays, as two parts.
#[must_use]
pub fn level_suits(level: Level) -> (String, String) {
    (
        tr!("level-who", n = level.number()),
        tr!("level-how", n = level.number()),
    )
}

/// A result: "Black wins 40–24", "Draw 32–32".
#[must_use]
pub fn outcome(o: Outcome) -> String {
    let winner = o.winner.map_or("none", side);
    tr!("outcome", winner = winner, black = o.black, white = o.white)
}

/// The rules in short: "8x8", "6x6 anti, empties to winner".
#[must_use]
pub fn rules(r: Rules) -> String {
    let mut s = r.size.to_string();
    if r.anti {
        s.push(' ');
        s.push_str(&tr("rules-short-anti"));
    }
    if r.scoring != Rules::standard(r.size).scoring {
        s.push_str(&match r.scoring {
            Scoring::EmptiesToNobody => tr("rules-short-nobody"),
            Scoring::EmptiesToWinner => tr("rules-short-winner"),
        });
    }
    s
}

/// Seconds with `digits` decimals: "1.5 s", "1,5 s".
#[must_use]
pub fn seconds(secs: f64, digits: u8) -> String {
    tr!("seconds", s = Arg::decimal(secs, digits))
}

/// A number with its sign and `digits` decimals, the language's way:
/// "+1.5", "-0,5".
#[must_use]
pub fn signed(x: f64, digits: usize) -> String {
    let text = crate::i18n::decimal(x.abs(), digits);
    let zero = text.chars().all(|c| !c.is_ascii_digit() || c == '0');
    if x < 0.0 && !zero {
        format!("-{text}")
    } else {
        format!("+{text}")
    }
}

/// The catalogue's key for a yes-or-no choice: `yes` or `no`.
#[must_use]
pub fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// "f7 is off the 6×6 board": a square typed as `name` on a board of `size`.
#[must_use]
pub fn off_board(name: &str, size: BoardSize) -> String {
    tr!("status-off-board", square = name, size = size.to_string())
}
