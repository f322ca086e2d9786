//! Games on disk for the UI: the GGF record of a match (players as names the
//! reader understands again), the setup to resume or replay a record, and the
//! data directory with its autosave and saved games.
//!
//! Player names: "You" (the person against the AI), "Black"/"White" (two
//! people), "AI level N (name)". Reading, any name that starts with
//! "AI level N" is the AI at that level; every other name is a person.
//! Depends on `rules`, `notation`, `storage`; never on the terminal.

use super::model::{Match, Player, Reviews, Setup};
use crate::i18n::Lang;
use crate::net::text::clean;
use crate::notation::ggf::{EndedEarly, GgfError, Record, parse_ggf, utc_date, write_ggf};
use crate::rules::Color;
use crate::tr;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The autosave's file name in the data directory.
pub const AUTOSAVE: &str = "autosave.ggf";

/// The longest recorded name shown (a file may hold any length).
const NAME_CHARS: usize = 40;

/// The name written for `color`'s player: a loaded game's own name for a
/// person is kept.
#[must_use]
pub fn player_name(m: &Match, color: Color) -> String {
    if let Some(name) = m.recorded_name(color) {
        return name.to_string();
    }
    match m.player(color) {
        Player::Human if m.human_colour().is_some() => "You".into(),
        Player::Human => color.name().into(),
        Player::Ai(l) => format!("AI level {} ({})", l.number(), l.name()),
    }
}

/// The player a name stands for (see the module docs).
#[must_use]
pub fn player_of(name: &str) -> Player {
    let level = name
        .trim()
        .strip_prefix("AI level ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok());
    level.map_or(Player::Human, Player::Ai)
}

/// The record of a match (every recorded move, the redo tail included, and
/// the review so far), undated.
#[must_use]
pub fn record_of(m: &Match) -> Record {
    let mut r = Record::new(m.game.clone());
    r.black = player_name(m, Color::Black);
    r.white = player_name(m, Color::White);
    r.review = m.reviews.cache_text(&m.game);
    r
}

/// The autosave for a match: its record while it has moves and is not over;
/// `None` when there is nothing to keep. (Whether a match is the autosave's
/// game at all, [`super::update`] decides.)
#[must_use]
pub fn autosave_text(m: &Match) -> Option<Box<Record>> {
    let r = record_of(m);
    (!m.game.is_empty() && !r.is_finished()).then(|| Box::new(r))
}

/// The setup for a record: an unfinished game resumes where it was left (its
/// last move, or the move it was undone to, the redo tail kept) with its
/// players; a finished one opens in replay at the start.
#[must_use]
pub fn setup_of(lang: Lang, r: &Record) -> Setup {
    setup(lang, r, false)
}

/// The setup to look through a record, finished or not: replay at the start
/// (`reversi replay FILE`).
#[must_use]
pub fn view_of(lang: Lang, r: &Record) -> Setup {
    setup(lang, r, true)
}

/// How a recorded game ended, for notes: the score, or who resigned or lost
/// on time; "unfinished" without a result.
fn result_text(lang: Lang, r: &Record) -> String {
    let Some(o) = r.result.or_else(|| r.final_outcome()) else {
        return crate::i18n::tr(lang, "result-unfinished");
    };
    let loser = o.winner.map(Color::opponent);
    match (r.ended_early, loser) {
        (Some(EndedEarly::Resigned), Some(l)) => {
            tr!(lang, "result-resigned", side = super::words::side(l))
        }
        (Some(EndedEarly::Time), Some(l)) => {
            tr!(lang, "result-on-time", side = super::words::side(l))
        }
        _ => super::words::outcome(lang, o),
    }
}

fn setup(lang: Lang, r: &Record, view: bool) -> Setup {
    let mut game = r.game.clone();
    // A finished game, or one only looked at, opens in replay at the start.
    let replay = view || r.is_finished();
    // A file's names reach the screen: control sequences are taken out.
    let (black, white) = (clean(&r.black), clean(&r.white));
    let mut players = [player_of(&black), player_of(&white)];
    if players.iter().all(|p| p.is_ai()) && !replay {
        // Two AIs would play on by themselves: the person takes the side to move.
        players[game.side_to_move().index()] = Player::Human;
    }
    let recorded = |player: Player, name: &str| {
        let name = name.trim();
        let ours = ["", "?", "You", "Black", "White"].contains(&name);
        (player == Player::Human && !ours).then(|| name.chars().take(NAME_CHARS).collect())
    };
    let names: [Option<String>; 2] = [recorded(players[0], &black), recorded(players[1], &white)];
    if replay {
        game.jump(0);
    }
    // The note names the players in the screen's language: a recorded name
    // as it is, else "you", the side, or the AI's level.
    let one_person = players.iter().filter(|p| **p == Player::Human).count() == 1;
    let shown = |color: Color| {
        let i = color.index();
        match (&names[i], players[i]) {
            (Some(name), _) => name.clone(),
            (None, Player::Human) if one_person => crate::i18n::tr(lang, "player-you"),
            (None, Player::Human) => super::words::side_name(lang, color),
            (None, Player::Ai(level)) => tr!(
                lang,
                "player-ai",
                n = level.number(),
                name = super::words::level_name(lang, level)
            ),
        }
    };
    let (black, white) = (shown(Color::Black), shown(Color::White));
    let note = if replay {
        tr!(
            lang,
            "note-replay-record",
            black = black.as_str(),
            white = white.as_str(),
            result = result_text(lang, r)
        )
    } else {
        tr!(
            lang,
            "note-resumed",
            black = black.as_str(),
            white = white.as_str(),
            n = game.ply()
        )
    };
    let (reviews, note) = match Reviews::of_record(r) {
        Ok(reviews) => (reviews, note),
        Err(e) => (
            Reviews::default(),
            tr!(
                lang,
                "note-review-unread",
                note = note,
                error = e.to_string()
            ),
        ),
    };
    Setup {
        game,
        players,
        names,
        note: Some(note),
        replay,
        reviews,
    }
}

/// A file-name-safe UTC time stamp: `2026-11-29T13-04-51`.
#[must_use]
pub fn stamp(now: SystemTime) -> String {
    let d = utc_date(now);
    d.trim_end_matches(".UTC")
        .replace('.', "-")
        .replace(['_'], "T")
        .replace(':', "-")
}

/// Where `s` saves a game without `--save`: `games/<time stamp>.ggf`.
#[must_use]
pub fn save_path(data: &Path, now: SystemTime) -> PathBuf {
    let games = data.join("games");
    let stamp = stamp(now);
    // Two saves in the same second (two games sharing the folder) get two files.
    (1..)
        .map(|n| match n {
            1 => games.join(format!("{stamp}.ggf")),
            n => games.join(format!("{stamp}-{n}.ggf")),
        })
        .find(|p| !p.exists())
        .unwrap_or_else(|| games.join(format!("{stamp}.ggf")))
}

/// Why a game file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// It could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// It is no valid GGF.
    #[error("{path} is not a readable game record: {source}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// Where and what.
        source: GgfError,
    },
}

/// Reads every game of a GGF file.
///
/// # Errors
/// [`LoadError`] when the file cannot be read or is malformed (truncated,
/// corrupt), naming the line and column.
pub fn load(path: &Path) -> Result<Vec<Record>, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    parse_ggf(&text).map_err(|source| LoadError::Bad {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `record`, dated now, to `path` atomically.
///
/// # Errors
/// Any I/O error; the old file is then left whole.
pub fn save(path: &Path, record: &Record, now: SystemTime) -> std::io::Result<()> {
    let mut r = record.clone();
    if r.date.is_empty() {
        r.date = utc_date(now);
    }
    let mut text = write_ggf(&r);
    text.push('\n');
    crate::storage::atomic_write(path, text.as_bytes())
}

/// What was found in the autosave slot on start.
#[derive(Debug)]
pub enum Autosaved {
    /// No autosave, or a finished game (nothing to resume).
    Nothing,
    /// An unfinished game.
    Unfinished(Box<Record>),
    /// The file was unreadable; it was moved aside (or could not be).
    Corrupt {
        /// A message for the status line.
        message: String,
    },
}

/// Reads the autosave in `data`. A corrupt one is renamed to
/// `autosave.ggf.corrupt-<time stamp>` so that it is kept, never overwritten.
#[must_use]
pub fn read_autosave(lang: Lang, data: &Path, now: SystemTime) -> Autosaved {
    let path = data.join(AUTOSAVE);
    if !path.exists() {
        return Autosaved::Nothing;
    }
    match load(&path) {
        Ok(mut records) if !records.is_empty() => {
            let r = records.swap_remove(0);
            if r.is_finished() || r.game.is_empty() {
                Autosaved::Nothing
            } else {
                Autosaved::Unfinished(Box::new(r))
            }
        }
        Ok(_) => Autosaved::Nothing,
        Err(e) => {
            let aside = data.join(format!("{AUTOSAVE}.corrupt-{}", stamp(now)));
            let message = match std::fs::rename(&path, &aside) {
                Ok(()) => tr!(
                    lang,
                    "note-autosave-moved",
                    error = e.to_string(),
                    path = aside.display().to_string()
                ),
                Err(re) => {
                    tr!(
                        lang,
                        "note-autosave-stuck",
                        error = e.to_string(),
                        reason = re.to_string()
                    )
                }
            };
            Autosaved::Corrupt { message }
        }
    }
}

/// Writes or removes the autosave in `data`.
///
/// # Errors
/// Any I/O error.
pub fn write_autosave(
    data: &Path,
    record: Option<&Record>,
    now: SystemTime,
) -> std::io::Result<()> {
    let path = data.join(AUTOSAVE);
    match record {
        Some(r) => save(&path, r, now),
        None => match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        },
    }
}
