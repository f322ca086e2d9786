//! `reversi show`: a position as plain text or as one JSON object.
//!
//! The position is the start (the variant's initial position, or `--position`)
//! with the moves of a transcript played on it. Everything printed is derived
//! from a [`Game`]; nothing here knows the rules beyond the `rules` API.

use super::{UserError, VariantArg};
use crate::notation::{write_board, write_transcript};
use crate::rules::{Color, Game, Outcome, Status};
use std::fmt::Write as _;
use std::io::Write as _;

/// Arguments of `reversi show`.
#[derive(Debug, Default, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct ShowArgs {
    /// Moves played from the start, e.g. `f5d6c3` or `f5 d6 c3` (any case;
    /// spaces, commas or dashes between moves; passes are added where forced).
    #[arg(value_name = "MOVES")]
    pub moves: Vec<String>,
    /// Board size (default 8x8, or the size of `--position`).
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// Start from this board string instead: 64 (or 36 for 6x6) squares of
    /// `X`, `O` or `-` from a1 row by row, a space and the side to move,
    /// e.g. `"---------------------------OX------XO--------------------------- X"`.
    #[arg(long, value_name = "OBF", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Anti Reversi and the scoring rule (they change the result shown).
    #[command(flatten)]
    pub rules: super::start::RuleFlags,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `reversi show`.
///
/// # Errors
/// Exit status 2 for a bad board string, a bad or illegal move, or a board
/// string whose size disagrees with `--variant`; 1 if stdout cannot be written.
pub fn run(args: &ShowArgs) -> Result<(), UserError> {
    let game = game(args)?;
    let text = if args.json { json(&game) } else { text(&game) };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The game described by the arguments: start position, then the moves.
fn game(args: &ShowArgs) -> Result<Game, UserError> {
    let transcript = args.moves.join(" ");
    super::start::Start {
        position: args.position.as_deref(),
        variant: args.variant,
        moves: Some(&transcript),
        moves_flag: None,
    }
    .game(|size| args.rules.rules(size))
}

fn disc_char(disc: Option<Color>) -> char {
    match disc {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => '.',
    }
}

/// The status line: who is to move, who must pass, or the result.
fn status_line(game: &Game) -> String {
    match game.status() {
        Status::ToMove(c) => format!("{c} to move"),
        Status::MustPass(c) => format!("{c} has no legal move and must pass"),
        Status::GameOver => match game.outcome() {
            Some(outcome) => format!("Game over: {outcome}"),
            None => "Game over".to_string(),
        },
    }
}

/// The named opening the game went through last (8×8 Othello only).
fn opening(game: &Game) -> Option<&'static crate::notation::openings::Opening> {
    crate::notation::openings::Openings::shipped().of_played(game)
}

/// The plain-text view: the board with coordinates (`X` black, `O` white,
/// `*` a legal move, `.` empty), the disc counts, the legal moves and the status.
pub(super) fn text(game: &Game) -> String {
    let p = game.position();
    let side = p.size().side();
    let legal = p.legal_moves();
    let mut s = String::from(" ");
    for col in 0..side {
        let _ = write!(s, " {}", (b'a' + col) as char);
    }
    s.push('\n');
    for row in 0..side {
        let _ = write!(s, "{}", row + 1);
        for col in 0..side {
            let sq = crate::rules::Square::at(col, row);
            let c = if legal.contains(sq) {
                '*'
            } else {
                disc_char(p.disc_at(sq))
            };
            let _ = write!(s, " {c}");
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "Black (X) {}  White (O) {}",
        p.count(Color::Black),
        p.count(Color::White)
    );
    if !game.played().is_empty() {
        let _ = writeln!(s, "Moves: {}", write_transcript(game.played()));
    }
    if let Some(o) = opening(game) {
        let _ = writeln!(s, "Opening: {} (in French: {})", o.english, o.french);
    }
    if !legal.is_empty() {
        let list: Vec<String> = legal.iter().map(|sq| sq.to_string()).collect();
        let _ = writeln!(s, "Legal moves (*): {}", list.join(" "));
    }
    let _ = writeln!(s, "{}", status_line(game));
    s
}

/// The JSON view of a position (`reversi show --json`), one object on one
/// line; the schema is in `docs/json.md`.
#[derive(Debug, serde::Serialize)]
struct ShowJson {
    variant: String,
    board: String,
    moves: String,
    /// `"black"` or `"white"`.
    side_to_move: &'static str,
    black: u32,
    white: u32,
    legal_moves: Vec<String>,
    /// `"to_move"`, `"must_pass"` or `"game_over"`.
    status: &'static str,
    /// `None` for a draw or a game still going.
    winner: Option<&'static str>,
    /// `None` until the game is over.
    result: Option<String>,
    /// `None` until the game is over.
    score: Option<DiscCount>,
    /// The named opening the game went through last; `None` before the
    /// first one, or off the standard 8×8 game.
    opening: Option<super::OpeningJson>,
}

/// Final disc counts.
#[derive(Debug, serde::Serialize)]
struct DiscCount {
    black: u32,
    white: u32,
}

/// A colour as JSON names it.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The JSON view: one object on one line (with its newline).
fn json(game: &Game) -> String {
    let p = game.position();
    let outcome: Option<Outcome> = game.outcome();
    let view = ShowJson {
        variant: p.size().to_string(),
        board: write_board(&p),
        moves: write_transcript(game.played()),
        side_to_move: color_name(p.side_to_move()),
        black: p.count(Color::Black),
        white: p.count(Color::White),
        legal_moves: p.legal_moves().iter().map(|sq| sq.to_string()).collect(),
        status: match game.status() {
            Status::ToMove(_) => "to_move",
            Status::MustPass(_) => "must_pass",
            Status::GameOver => "game_over",
        },
        winner: outcome.and_then(|o| o.winner).map(color_name),
        result: outcome.map(|o| o.to_string()),
        score: outcome.map(|o| DiscCount {
            black: o.black,
            white: o.white,
        }),
        opening: super::OpeningJson::of(game),
    };
    super::json_line(&view)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_text_marks_the_four_moves() {
        let game = game(&ShowArgs::default()).unwrap();
        let t = text(&game);
        assert!(t.starts_with("  a b c d e f g h\n"), "{t}");
        assert!(t.contains("3 . . . * . . . .\n"), "{t}");
        assert!(t.contains("4 . . * O X . . .\n"), "{t}");
        assert!(t.contains("Black to move"), "{t}");
        assert!(!t.contains("Opening"), "{t}");
    }

    #[test]
    fn the_opening_is_named_in_text_and_json() {
        let args = ShowArgs {
            moves: vec!["f5d6c3d3c4".into()],
            ..ShowArgs::default()
        };
        let game = game(&args).unwrap();
        assert!(text(&game).contains("Opening: Tiger (in French: Tigre)\n"));
        assert!(
            json(&game).contains(r#""opening":{"en":"Tiger","fr":"Tigre","moves":"c4e3f6e6f5"}"#)
        );
        let args = ShowArgs {
            moves: vec!["f5".into()],
            ..ShowArgs::default()
        };
        assert!(json(&game_of(&args)).contains(r#""opening":null"#));
    }

    fn game_of(args: &ShowArgs) -> Game {
        game(args).unwrap()
    }
}
