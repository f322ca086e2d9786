//! The game's recurring words in the player's language: the sides, the
//! levels, a result, the rules in short, seconds. The rules and AI modules
//! keep their English `Display` for files and the command line; the screen
//! says them through these.

use crate::ai::Level;
use crate::i18n::{Arg, Lang, tr};
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
pub fn move_name(lang: Lang, mv: crate::rules::Move) -> String {
    match mv {
        crate::rules::Move::Pass => tr(lang, "move-pass"),
        crate::rules::Move::Place(_) => mv.to_string(),
    }
}

/// A side's name on its own: "Black", "Noirs".
#[must_use]
pub fn side_name(lang: Lang, c: Color) -> String {
    tr!(lang, "side-name", side = side(c))
}

/// A level's name: "casual", "loisir".
#[must_use]
pub fn level_name(lang: Lang, level: Level) -> String {
    tr!(lang, "level-name", n = level.number())
}

/// A level with its number: "3 (casual)".
#[must_use]
pub fn level_label(lang: Lang, level: Level) -> String {
    tr!(
        lang,
        "level-label",
        n = level.number(),
        name = level_name(lang, level)
    )
}

/// Whom a level suits and how it plays, as two parts.
#[must_use]
pub fn level_suits(lang: Lang, level: Level) -> (String, String) {
    (
        tr!(lang, "level-who", n = level.number()),
        tr!(lang, "level-how", n = level.number()),
    )
}

/// A result: "Black wins 40–24", "Draw 32–32".
#[must_use]
pub fn outcome(lang: Lang, o: Outcome) -> String {
    let winner = o.winner.map_or("none", side);
    tr!(
        lang,
        "outcome",
        winner = winner,
        black = o.black,
        white = o.white
    )
}

/// The rules in short: "8x8", "6x6 anti, empties to winner".
#[must_use]
pub fn rules(lang: Lang, r: Rules) -> String {
    let mut s = r.size.to_string();
    if r.anti {
        s.push(' ');
        s.push_str(&tr(lang, "rules-short-anti"));
    }
    if r.scoring != Rules::standard(r.size).scoring {
        s.push_str(&match r.scoring {
            Scoring::EmptiesToNobody => tr(lang, "rules-short-nobody"),
            Scoring::EmptiesToWinner => tr(lang, "rules-short-winner"),
        });
    }
    s
}

/// Seconds with `digits` decimals: "1.5 s", "1,5 s".
#[must_use]
pub fn seconds(lang: Lang, secs: f64, digits: u8) -> String {
    tr!(lang, "seconds", s = Arg::decimal(secs, digits))
}

/// A number with its sign and `digits` decimals, the language's way:
/// "+1.5", "-0,5".
#[must_use]
pub fn signed(lang: Lang, x: f64, digits: usize) -> String {
    let text = crate::i18n::decimal(lang, x.abs(), digits);
    let zero = text.chars().all(|c| !c.is_ascii_digit() || c == '0');
    if x < 0.0 && !zero {
        format!("-{text}")
    } else {
        format!("+{text}")
    }
}

/// A search's score the language's way: exact scores as whole discs
/// ("+12"), estimates with a tilde and two decimals ("~+3,45" in French).
#[must_use]
pub fn score(lang: Lang, score: crate::ai::Score) -> String {
    match score {
        crate::ai::Score::Exact(d) => format!("{d:+}"),
        estimate => format!("~{}", signed(lang, estimate.discs(), 2)),
    }
}

/// The catalogue's key for a yes-or-no choice: `yes` or `no`.
#[must_use]
pub fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// "f7 is off the 6×6 board": a square typed as `name` on a board of `size`.
#[must_use]
pub fn off_board(lang: Lang, name: &str, size: BoardSize) -> String {
    tr!(
        lang,
        "status-off-board",
        square = name,
        size = size.to_string()
    )
}

/// The name of the opening `game` has gone through, up to its cursor, in the
/// screen's language ([`crate::notation::openings`]).
#[must_use]
pub fn opening(lang: Lang, game: &crate::rules::Game) -> Option<String> {
    let french = lang == Lang::Fr;
    crate::notation::openings::Openings::shipped()
        .of_played(game)
        .map(|o| o.name(french).to_string())
}
