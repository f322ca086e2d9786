//! Game collections in any of the formats this crate reads: WTHOR (`.wtb`, with
//! `WTHOR.JOU`/`WTHOR.TRN` names when they lie beside it), GGF (`.ggf`),
//! Logistello's list (`.gam`) and transcripts (one game per line, `#` comments).
//! Every format is read into GGF [`Record`]s (moves, names, place, date,
//! result), and every format but WTHOR is written from them.
//!
//! WTHOR games are scored with the empties to the winner, as the federation
//! scores them (GGF keeps that rule in `RU`); the other formats use the usual
//! 8×8 rule, empties to nobody. The result of a game played out is its board's.
//! A game that stops before its end (about 400 WTHOR games: unfinished or
//! timed out) keeps the score its source records, marked as not played out
//! (`RE[+16:f]` in GGF). [`final_margin`] gives the board's own margin, or
//! nothing for such a game, which is what a trainer should use.
//!
//! Depends on [`crate::rules`] and the other notation modules only.

use super::ggf::{EndedEarly, GgfError, Record, parse_ggf, write_ggf};
use super::wthor::{Names, PLAYER_LEN, TOURNAMENT_LEN, Wtb, WthorError, parse_names, parse_wtb};
use super::{logbook, parse_transcript_lines, write_transcript};
use crate::rules::{BoardSize, Color, Game, Outcome, Position, Rules, Scoring};
use std::path::{Path, PathBuf};

/// A game-collection format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The WTHOR database (`.wtb`; read only).
    Wthor,
    /// GGF, several games per file.
    Ggf,
    /// Logistello's list (`+d3-c3…: -04 10`).
    Logbook,
    /// Move transcripts, one game per line.
    Transcripts,
}

impl Format {
    /// The format an extension names: `wtb`, `ggf`, `gam`, `txt` (any case),
    /// also under a `.gz` (`logbook.gam.gz`).
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        if ext == "gz" {
            return Format::from_path(Path::new(path.file_stem()?));
        }
        match ext.as_str() {
            "wtb" => Some(Format::Wthor),
            "ggf" => Some(Format::Ggf),
            "gam" => Some(Format::Logbook),
            "txt" => Some(Format::Transcripts),
            _ => None,
        }
    }

    /// The format of a text by its first game: `(;` is GGF, `+`/`-` then a
    /// letter is Logistello's list, anything else transcripts.
    #[must_use]
    pub fn sniff(text: &str) -> Format {
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or("");
        let mut c = first.chars();
        match (c.next(), c.next()) {
            (Some('('), _) => Format::Ggf,
            (Some('+' | '-'), Some(l)) if l.is_ascii_alphabetic() => Format::Logbook,
            _ => Format::Transcripts,
        }
    }

    /// The format's name as on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Wthor => "wthor",
            Format::Ggf => "ggf",
            Format::Logbook => "logbook",
            Format::Transcripts => "transcripts",
        }
    }
}

/// Why a collection cannot be read or written; every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum CollectionError {
    /// The file cannot be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A WTHOR file is malformed (the error names the game and move).
    #[error("{}: {source}", path.display())]
    Wthor {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: WthorError,
    },
    /// A GGF file is malformed.
    #[error("{}: game {game}: {source}", path.display())]
    Ggf {
        /// The file.
        path: PathBuf,
        /// 1-based number of the game the error is in.
        game: usize,
        /// Where and what.
        source: GgfError,
    },
    /// A line of a text list (Logistello's or transcripts) is not a game.
    #[error("{}:{line}:{column}: game {game}: {message}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// 1-based number of the game on that line.
        game: usize,
        /// What is wrong.
        message: String,
    },
    /// A game cannot be written in the chosen format.
    #[error("{}: game {game}: {reason}", path.display())]
    Unwritable {
        /// The file being written.
        path: PathBuf,
        /// 1-based number of the game.
        game: usize,
        /// Why.
        reason: String,
    },
    /// WTHOR is read but not written.
    #[error("{}: WTHOR files are read, not written (write GGF, a list or transcripts: --to ggf, logbook or transcripts, or an OUT ending in .ggf, .gam or .txt)", path.display())]
    WthorOut {
        /// The file.
        path: PathBuf,
    },
}

/// Reads every game of `path` in `format` (by default from the extension, else
/// from the contents); a file ending in `.gz` is decompressed first. WTHOR
/// games get their names from `WTHOR.JOU` and `WTHOR.TRN` when those lie in
/// the same folder.
///
/// # Errors
/// [`CollectionError`] naming the file, and the game and line where one is bad.
pub fn read_path(path: &Path, format: Option<Format>) -> Result<Vec<Record>, CollectionError> {
    let format = format.or_else(|| Format::from_path(path));
    if format == Some(Format::Wthor) {
        let wtb = read_wtb(path)?;
        let names = names_beside(path)?;
        return Ok(wthor_records(&wtb, &names));
    }
    let mut bytes = std::fs::read(path).map_err(|source| CollectionError::Io {
        path: path.into(),
        source,
    })?;
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
    {
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
            .map_err(|source| CollectionError::Io {
                path: path.into(),
                source,
            })?;
        bytes = text;
    }
    let text = String::from_utf8_lossy(&bytes);
    match format.unwrap_or_else(|| Format::sniff(&text)) {
        Format::Ggf => read_ggf(&text).map_err(|(game, source)| CollectionError::Ggf {
            path: path.into(),
            game,
            source,
        }),
        Format::Logbook => read_logbook(&text, path),
        Format::Transcripts | Format::Wthor => read_transcripts(&text, path),
    }
}

/// The WTHOR name files in `wtb`'s folder (any case), or no names when absent.
///
/// # Errors
/// A name file that exists but cannot be read or is malformed.
pub fn names_beside(wtb: &Path) -> Result<Names, CollectionError> {
    let dir = match wtb.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let find = |name: &str| -> Option<PathBuf> {
        std::fs::read_dir(dir).ok()?.find_map(|e| {
            let e = e.ok()?;
            e.file_name()
                .to_str()
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
                .then(|| e.path())
        })
    };
    let read = |name: &str, record: usize| -> Result<Vec<String>, CollectionError> {
        let Some(p) = find(name) else {
            return Ok(Vec::new());
        };
        let bytes = std::fs::read(&p).map_err(|source| CollectionError::Io {
            path: p.clone(),
            source,
        })?;
        parse_names(&bytes, record).map_err(|source| CollectionError::Wthor { path: p, source })
    };
    Ok(Names {
        players: read("WTHOR.JOU", PLAYER_LEN)?,
        tournaments: read("WTHOR.TRN", TOURNAMENT_LEN)?,
    })
}

/// Reads the `.wtb` game file `path`.
///
/// # Errors
/// [`CollectionError::Io`] when it cannot be read, [`CollectionError::Wthor`]
/// when it is malformed (as [`parse_wtb`]).
pub fn read_wtb(path: &Path) -> Result<Wtb, CollectionError> {
    let bytes = std::fs::read(path).map_err(|source| CollectionError::Io {
        path: path.into(),
        source,
    })?;
    parse_wtb(&bytes).map_err(|source| CollectionError::Wthor {
        path: path.into(),
        source,
    })
}

/// The games of a `.wtb` file as records: names from `names`, the tournament
/// as the place, the year as the date; the board's result, or the recorded
/// score for a game not played out.
#[must_use]
pub fn wthor_records(wtb: &Wtb, names: &Names) -> Vec<Record> {
    wtb.games
        .iter()
        .map(|g| {
            let game = Game::with_moves(WTHOR_RULES, start(), &g.moves)
                .expect("the WTHOR reader checked every move");
            let mut r = Record::new(game);
            r.black = names.player(g.black);
            r.white = names.player(g.white);
            r.place = names.tournament(g.tournament);
            r.date = wtb.header.year.to_string();
            if r.result.is_none() {
                r.result = Some(outcome_of(g.recorded_margin(), 64, false));
                r.ended_early = Some(EndedEarly::Forfeit);
            }
            r
        })
        .collect()
}

/// The rules WTHOR scores by: 8×8, empties to the winner.
const WTHOR_RULES: Rules = Rules {
    scoring: Scoring::EmptiesToWinner,
    ..Rules::standard(BoardSize::Eight)
};

/// The outcome of a game that stopped with Black's margin `margin`: when the
/// margin's parity fits `squares`, the scores add up to the board, else each
/// side's score is its share of the margin.
fn outcome_of(margin: i32, squares: i32, anti: bool) -> Outcome {
    let margin = margin.clamp(-squares, squares);
    let (black, white) = if (squares + margin) % 2 == 0 {
        ((squares + margin) / 2, (squares - margin) / 2)
    } else {
        (margin.max(0), (-margin).max(0))
    };
    let winner = match margin.signum() {
        0 => None,
        1 if !anti => Some(Color::Black),
        -1 if anti => Some(Color::Black),
        _ => Some(Color::White),
    };
    Outcome {
        winner,
        black: black.unsigned_abs(),
        white: white.unsigned_abs(),
    }
}

fn start() -> Position {
    Position::initial(BoardSize::Eight)
}

/// GGF games, with the number of the game an error is in.
fn read_ggf(text: &str) -> Result<Vec<Record>, (usize, GgfError)> {
    parse_ggf(text).map_err(|e| {
        // The game an error is in: the games that start before its line.
        let before: String = text
            .lines()
            .take(e.line)
            .enumerate()
            .map(|(i, l)| {
                if i + 1 == e.line {
                    l.chars().take(e.column.saturating_sub(1)).collect()
                } else {
                    l.to_string()
                }
            })
            .collect();
        (before.matches("(;").count().max(1), e)
    })
}

fn read_logbook(text: &str, path: &Path) -> Result<Vec<Record>, CollectionError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let g = logbook::parse_line(line).map_err(|e| CollectionError::Line {
            path: path.into(),
            line: i + 1,
            column: e.column,
            game: out.len() + 1,
            message: e.reason.to_string(),
        })?;
        let game = Game::with_moves(Rules::default(), start(), &g.moves)
            .expect("the list reader checked every move");
        // The list names no players.
        let mut r = Record::new(game);
        r.place = "logbook".into();
        if r.result.is_none() {
            r.result = Some(outcome_of(g.margin, 64, false));
            r.ended_early = Some(EndedEarly::Forfeit);
        }
        out.push(r);
    }
    Ok(out)
}

fn read_transcripts(text: &str, path: &Path) -> Result<Vec<Record>, CollectionError> {
    let games =
        parse_transcript_lines(text, BoardSize::Eight).map_err(|e| CollectionError::Line {
            path: path.into(),
            line: e.line,
            column: e.error.column,
            game: e.game,
            message: e.error.reason.to_string(),
        })?;
    Ok(games
        .into_iter()
        .map(|(_, moves)| {
            let game = Game::with_moves(Rules::default(), start(), &moves)
                .expect("the transcript reader checked every move");
            Record::new(game)
        })
        .collect())
}

/// Black's disc margin on the final board (empties for nobody), or `None` when
/// the game is not over there.
#[must_use]
pub fn final_margin(record: &Record) -> Option<i32> {
    let last = record.game.position_at(record.game.len())?;
    last.is_game_over()
        .then(|| last.count(Color::Black) as i32 - last.count(Color::White) as i32)
}

/// Writes `records` in `format` as text for the file `path` (named in errors).
///
/// # Errors
/// [`CollectionError::WthorOut`] for WTHOR;
/// [`CollectionError::Unwritable`] for a game the format cannot hold: not
/// from the standard 8×8 start (lists and transcripts), or without a known
/// result (Logistello's list).
pub fn write_text(
    records: &[Record],
    format: Format,
    path: &Path,
) -> Result<String, CollectionError> {
    let unwritable = |game: usize, reason: &str| CollectionError::Unwritable {
        path: path.into(),
        game,
        reason: reason.into(),
    };
    let mut out = String::new();
    for (i, r) in records.iter().enumerate() {
        let from_start = r.game.start() == start() && !r.game.rules().anti;
        match format {
            Format::Wthor => return Err(CollectionError::WthorOut { path: path.into() }),
            Format::Ggf => out.push_str(&write_ggf(r)),
            Format::Transcripts if from_start => out.push_str(&write_transcript(r.game.moves())),
            Format::Logbook if from_start => {
                let margin = final_margin(r)
                    .or_else(|| r.result.map(|o| o.black_margin()))
                    .ok_or_else(|| {
                        unwritable(i + 1, "no result: the game is not over and records none")
                    })?;
                out.push_str(&logbook::write_line(r.game.moves(), margin, "10"));
            }
            Format::Transcripts | Format::Logbook => {
                return Err(unwritable(
                    i + 1,
                    "only games of standard Reversi from the 8x8 start fit this format",
                ));
            }
        }
        out.push('\n');
    }
    Ok(out)
}
