//! Text forms of the game: squares (`d3`), move transcripts (`f5d6c3…`) and board
//! strings (the 64-character OBF form, or 36 characters for 6×6), including OBF
//! lines with their `MOVE:score` annotations.
//!
//! Game records in GGF live in [`ggf`], the WTHOR database in [`wthor`],
//! Logistello's game list in [`logbook`]; [`collection`] reads and writes any
//! of them as one list of games; [`openings`] names the classic openings.
//!
//! Depends on [`crate::rules`] only. Every parse error says where (a 1-based
//! column, and the move number for transcripts) and why.

pub mod collection;
pub mod ggf;
pub mod logbook;
pub mod openings;
pub mod wthor;

use crate::rules::{BoardSize, Color, IllegalMove, Move, Position, PositionError, Square, Status};
use std::fmt;

/// Why some text could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct ParseError {
    /// 1-based character column in the input where the problem starts.
    pub column: usize,
    /// What is wrong.
    pub reason: Reason,
}

/// What is wrong in a [`ParseError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Text that should be a square is not one.
    NotASquare(String),
    /// A square outside the board (e.g. `g1` on 6×6).
    OffBoard(Square, BoardSize),
    /// The n-th move of a transcript (1-based) is not a square or a pass.
    BadToken {
        /// 1-based number of the move in the transcript.
        index: usize,
        /// The offending text.
        text: String,
    },
    /// The n-th move of a transcript is not legal.
    Illegal {
        /// 1-based number of the move in the transcript.
        index: usize,
        /// The move.
        mv: Move,
        /// The side that was to move.
        color: Color,
        /// Why the rules refuse it.
        why: IllegalMove,
    },
    /// A board string has the wrong number of squares.
    BoardLength(usize),
    /// A board string has a character that is not a disc or an empty square.
    BoardChar(char),
    /// A board string has no valid side to move after the squares.
    SideToMove(String),
    /// A board string describes an invalid position.
    Position(PositionError),
    /// An OBF annotation is not `MOVE:score`.
    Annotation(String),
    /// The input is empty.
    Empty,
    /// Something else was expected here (the text says what).
    Expected(String),
    /// A move marked as one colour's while the other colour, which has a legal
    /// move, is to move (formats that mark each move's colour).
    OutOfTurn {
        /// 1-based number of the move.
        index: usize,
        /// The colour the move is marked with.
        marked: Color,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NotASquare(t) => write!(f, "\"{}\" is not a square", t.escape_debug()),
            Reason::OffBoard(sq, size) => write!(f, "{sq} is not on the {size} board"),
            Reason::BadToken { index, text } => {
                write!(
                    f,
                    "move {index}: \"{}\" is not a square",
                    text.escape_debug()
                )
            }
            Reason::Illegal {
                index,
                mv,
                color,
                why,
            } => {
                write!(f, "move {index}: {mv} is not legal for {color}")?;
                match why {
                    IllegalMove::EnclosesNothing(_) => f.write_str(" (it encloses no line)"),
                    IllegalMove::Occupied(_) => f.write_str(" (the square is occupied)"),
                    IllegalMove::OffBoard(_, size) => write!(f, " (not on the {size} board)"),
                    IllegalMove::PassNotAllowed(_) => f.write_str(" (a legal move exists)"),
                    IllegalMove::GameOver => f.write_str(" (the game is over)"),
                }
            }
            Reason::BoardLength(n) => {
                write!(f, "a board needs 64 squares (or 36 for 6x6), found {n}")
            }
            Reason::BoardChar(c) => write!(f, "'{c}' is not a square of a board (X, O or -)"),
            Reason::SideToMove(t) => write!(f, "side to move must be X or O, found \"{t}\""),
            Reason::Position(e) => e.fmt(f),
            Reason::Annotation(t) => write!(f, "\"{t}\" is not a MOVE:score annotation"),
            Reason::Empty => f.write_str("nothing to read"),
            Reason::Expected(what) => write!(f, "expected {what}"),
            Reason::OutOfTurn { index, marked } => write!(
                f,
                "move {index} is marked as {marked}'s, but {} is to move and has a legal move",
                marked.opponent()
            ),
        }
    }
}

fn err(column: usize, reason: Reason) -> ParseError {
    ParseError { column, reason }
}

/// Reads a square such as `d3` or `D3` (on the 8×8 grid).
///
/// # Errors
/// [`Reason::NotASquare`] unless the text is a column letter a–h then a row 1–8.
///
/// ```
/// use reversi::notation::parse_square;
/// assert_eq!(parse_square("F5").unwrap().to_string(), "f5");
/// assert!(parse_square("h9").is_err());
/// ```
pub fn parse_square(text: &str) -> Result<Square, ParseError> {
    let t = text.trim();
    let b = t.as_bytes();
    if b.len() == 2 {
        let c = b[0].to_ascii_lowercase();
        if (b'a'..=b'h').contains(&c) && (b'1'..=b'8').contains(&b[1]) {
            return Ok(Square::at(c - b'a', b[1] - b'1'));
        }
    }
    Err(err(1, Reason::NotASquare(t.to_string())))
}

/// The spellings of a pass, longest first: `pass`, and `pa` as GGF and NBoard
/// write it (any case).
const PASS_WORDS: [&str; 2] = ["pass", "pa"];

/// Reads one move: a square such as `d3` (any case) or a pass (`pa` or
/// `pass`, any case), as GGF, NBoard and the match protocol write them.
///
/// # Errors
/// [`Reason::NotASquare`] for anything else.
///
/// ```
/// use reversi::notation::parse_move;
/// use reversi::rules::Move;
/// assert_eq!(parse_move("PA").unwrap(), Move::Pass);
/// assert_eq!(parse_move("F5").unwrap().to_string(), "f5");
/// ```
pub fn parse_move(text: &str) -> Result<Move, ParseError> {
    let t = text.trim();
    if PASS_WORDS.iter().any(|w| t.eq_ignore_ascii_case(w)) {
        Ok(Move::Pass)
    } else {
        parse_square(t).map(Move::Place)
    }
}

/// Writes one move as GGF and NBoard do: the square (`d3`) or `PA` for a pass
/// (NBoard upper-cases the square). [`Move`]'s `Display` writes `pass`
/// instead, for people.
#[must_use]
pub fn write_move(mv: Move) -> String {
    match mv {
        Move::Place(sq) => sq.to_string(),
        Move::Pass => "PA".to_string(),
    }
}

/// Reads one move as [`parse_move`] does and checks that a square lies on a
/// board of `size`.
///
/// # Errors
/// As [`parse_square_on`].
pub fn parse_move_on(text: &str, size: BoardSize) -> Result<Move, ParseError> {
    match parse_move(text)? {
        Move::Place(_) => parse_square_on(text.trim(), size).map(Move::Place),
        Move::Pass => Ok(Move::Pass),
    }
}

/// Reads a square and checks it lies on a board of `size`.
///
/// # Errors
/// As [`parse_square`], or [`Reason::OffBoard`].
pub fn parse_square_on(text: &str, size: BoardSize) -> Result<Square, ParseError> {
    let sq = parse_square(text)?;
    if size.contains(sq) {
        Ok(sq)
    } else {
        Err(err(1, Reason::OffBoard(sq, size)))
    }
}

/// Writes moves as a canonical transcript: lowercase squares, no separators,
/// passes left out (they are re-derived when reading).
///
/// ```
/// use reversi::notation::{parse_transcript, write_transcript};
/// use reversi::rules::{BoardSize, Position};
/// let start = Position::initial(BoardSize::Eight);
/// let moves = parse_transcript("F5 d6, c3-d3", &start).unwrap();
/// assert_eq!(write_transcript(&moves), "f5d6c3d3");
/// ```
#[must_use]
pub fn write_transcript(moves: &[Move]) -> String {
    moves
        .iter()
        .filter_map(|m| match m {
            Move::Place(sq) => Some(sq.to_string()),
            Move::Pass => None,
        })
        .collect()
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | '-' | ';' | '.' | '–')
}

/// Reads a transcript played from `start` and returns every move, with the
/// forced passes made explicit.
///
/// Tolerant: squares in either case, separated or not by spaces, commas or
/// dashes; `pa` or `pass` is accepted only where the side to move has no move,
/// and missing passes are added.
///
/// # Errors
/// A [`ParseError`] naming the move number: a token that is not a square, a square
/// off the board, or a move that is not legal for the side to move.
pub fn parse_transcript(text: &str, start: &Position) -> Result<Vec<Move>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut moves = Vec::new();
    let mut pos = *start;
    let mut i = 0;
    let mut index = 0;
    while i < chars.len() {
        if is_separator(chars[i]) {
            i += 1;
            continue;
        }
        index += 1;
        let column = i + 1;
        let rest: String = chars[i..]
            .iter()
            .take(4)
            .collect::<String>()
            .to_ascii_lowercase();
        let (mv, len) = if let Some(word) = PASS_WORDS.iter().find(|w| rest.starts_with(*w)) {
            (Move::Pass, word.len())
        } else {
            let tok: String = chars[i..].iter().take(2).collect();
            match parse_square(&tok) {
                Ok(sq) if chars.get(i + 2).is_none_or(|c| !c.is_ascii_digit()) => {
                    (Move::Place(sq), 2)
                }
                _ => {
                    let text: String = chars[i..]
                        .iter()
                        .take_while(|c| !is_separator(**c))
                        .take(8)
                        .collect();
                    let text =
                        if text.len() > 3 && text.chars().take(2).all(|c| c.is_alphanumeric()) {
                            let s: String = text.chars().take(2).collect();
                            if parse_square(&s).is_ok() { text } else { s }
                        } else {
                            text
                        };
                    return Err(err(column, Reason::BadToken { index, text }));
                }
            }
        };
        if let Move::Place(sq) = mv {
            if !pos.size().contains(sq) {
                let why = IllegalMove::OffBoard(sq, pos.size());
                let color = pos.side_to_move();
                return Err(err(
                    column,
                    Reason::Illegal {
                        index,
                        mv,
                        color,
                        why,
                    },
                ));
            }
            if matches!(pos.status(), Status::MustPass(_)) {
                moves.push(Move::Pass);
                pos = pos.play_unchecked(Move::Pass);
            }
        }
        let color = pos.side_to_move();
        pos = pos.play(mv).map_err(|why| {
            err(
                column,
                Reason::Illegal {
                    index,
                    mv,
                    color,
                    why,
                },
            )
        })?;
        moves.push(mv);
        i += len;
    }
    Ok(moves)
}

/// A line of a transcripts file that [`parse_transcript_lines`] could not
/// read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct LineError {
    /// 1-based line in the text.
    pub line: usize,
    /// 1-based number of the game on that line (blank and comment lines
    /// not counted).
    pub game: usize,
    /// What is wrong, with its column in the line.
    pub error: ParseError,
}

/// Reads a file's text of move transcripts from the start on `size`, one game
/// per line: text after `#` is a comment and blank lines are skipped. Returns
/// each game's moves (passes made explicit) with its 1-based line number.
///
/// ```
/// use reversi::notation::parse_transcript_lines;
/// use reversi::rules::BoardSize;
/// let games = parse_transcript_lines("# openings\nf5d6\n\nc4 # the other\n", BoardSize::Eight)?;
/// assert_eq!(games.iter().map(|(line, moves)| (*line, moves.len())).collect::<Vec<_>>(), [(2, 2), (4, 1)]);
/// # Ok::<(), reversi::notation::LineError>(())
/// ```
///
/// # Errors
/// The first bad line: its number, its game's number and the [`ParseError`]
/// (columns count from the start of the line).
pub fn parse_transcript_lines(
    text: &str,
    size: BoardSize,
) -> Result<Vec<(usize, Vec<Move>)>, LineError> {
    let start = Position::initial(size);
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let moves_text = line.split('#').next().unwrap_or("");
        if moves_text.trim().is_empty() {
            continue;
        }
        let moves = parse_transcript(moves_text, &start).map_err(|error| LineError {
            line: i + 1,
            game: games.len() + 1,
            error,
        })?;
        games.push((i + 1, moves));
    }
    Ok(games)
}

/// Writes a position as a board string: the squares in reading order (a1, b1, …)
/// as `X` (black), `O` (white) or `-`, a space, and the side to move (`X`/`O`).
/// 64 squares on 8×8, 36 on 6×6.
///
/// ```
/// use reversi::notation::write_board;
/// use reversi::rules::{BoardSize, Position};
/// assert_eq!(
///     write_board(&Position::initial(BoardSize::Eight)),
///     "---------------------------OX------XO--------------------------- X"
/// );
/// ```
#[must_use]
pub fn write_board(position: &Position) -> String {
    let mut s: String = position
        .size()
        .iter()
        .map(|sq| match position.disc_at(sq) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => '-',
        })
        .collect();
    s.push(' ');
    s.push(match position.side_to_move() {
        Color::Black => 'X',
        Color::White => 'O',
    });
    s
}

/// Reads a board string (see [`write_board`]); the board size follows from the
/// number of squares. `X`, `x`, `*` or `B` are black, `O`, `o`, `W` white, `-`, `.`
/// or `_` empty; whitespace between squares is ignored. The side to move is `X`
/// or `O` (also `B`/`W`, `*`, any case).
///
/// # Errors
/// [`ParseError`] with the column of a bad character, a wrong length, a missing
/// side to move.
pub fn parse_board(text: &str) -> Result<Position, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut black = 0u64;
    let mut white = 0u64;
    let mut cells: Vec<(usize, Option<Color>)> = Vec::with_capacity(64);
    let mut i = 0;
    while i < chars.len() && cells.len() < 64 {
        let c = chars[i];
        let cell = match c {
            'X' | 'x' | '*' | 'B' | 'b' => Some(Color::Black),
            'O' | 'o' | 'W' | 'w' | '0' => Some(Color::White),
            '-' | '.' | '_' => None,
            c if c.is_whitespace() => {
                // A full board ends the squares: 64 always, 36 only when a
                // lone side to move follows (else it is a spaced-out 8×8 board).
                if cells.len() == 64 || (cells.len() == 36 && only_side_follows(&chars[i..])) {
                    break;
                }
                i += 1;
                continue;
            }
            c => return Err(err(i + 1, Reason::BoardChar(c))),
        };
        cells.push((i, cell));
        i += 1;
    }
    let size = match cells.len() {
        64 => BoardSize::Eight,
        36 => BoardSize::Six,
        0 => return Err(err(1, Reason::Empty)),
        n => return Err(err(chars.len().max(1), Reason::BoardLength(n))),
    };
    for (k, (_, cell)) in cells.iter().enumerate() {
        let side = size.side() as usize;
        let bit = 1u64 << ((k / side) * 8 + k % side);
        match cell {
            Some(Color::Black) => black |= bit,
            Some(Color::White) => white |= bit,
            None => {}
        }
    }
    let rest: String = chars[i..].iter().collect();
    let side_col = i + 1 + rest.len() - rest.trim_start().len();
    let side_text = rest.split(';').next().unwrap_or("").trim();
    let to_move = match side_text {
        "X" | "x" | "B" | "b" | "*" => Color::Black,
        "O" | "o" | "W" | "w" | "0" => Color::White,
        t => return Err(err(side_col, Reason::SideToMove(t.to_string()))),
    };
    crate::rules::Position::from_discs(
        crate::rules::Bitboard(black),
        crate::rules::Bitboard(white),
        to_move,
        size,
    )
    .map_err(|e| err(1, Reason::Position(e)))
}

/// Whether `rest` holds at most one word before any `;` annotations: the side
/// to move of a 36-square board rather than more squares.
fn only_side_follows(rest: &[char]) -> bool {
    rest.iter()
        .take_while(|c| **c != ';')
        .collect::<String>()
        .split_whitespace()
        .count()
        <= 1
}

/// One line of an OBF file: a position and its optional `MOVE:score` annotations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obf {
    /// The position.
    pub position: Position,
    /// The annotated moves with their scores (disc difference for the side to
    /// move after perfect play), in file order.
    pub scores: Vec<(Move, i32)>,
}

/// Reads one OBF line: `<board> <side>; MOVE:score; …` (annotations optional).
///
/// # Errors
/// [`ParseError`] as for [`parse_board`], or a malformed annotation.
pub fn parse_obf(line: &str) -> Result<Obf, ParseError> {
    let (board, rest) = line.split_once(';').unwrap_or((line, ""));
    let position = parse_board(board)?;
    let mut scores = Vec::new();
    let mut column = board.chars().count() + 2;
    for part in rest.split(';') {
        let t = part.trim();
        let width = part.chars().count() + 1;
        if !t.is_empty() {
            let at = column + part.chars().take_while(|c| c.is_whitespace()).count();
            let bad = || err(at, Reason::Annotation(t.to_string()));
            let (m, s) = t.split_once(':').ok_or_else(bad)?;
            let mv = parse_move(m).map_err(|_| bad())?;
            let score: i32 = s
                .trim()
                .trim_start_matches('+')
                .parse()
                .map_err(|_| bad())?;
            scores.push((mv, score));
        }
        column += width;
    }
    Ok(Obf { position, scores })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_off_board_move_names_its_number() {
        let six = Position::initial(BoardSize::Six);
        let e = parse_transcript("c2 g1", &six).unwrap_err();
        assert_eq!(
            e.to_string(),
            "move 2: g1 is not legal for White (not on the 6x6 board)"
        );
        assert_eq!(e.column, 4);
    }

    #[test]
    fn spaced_out_boards_are_read_whole() {
        let spaced: String = "---------------------------OX------XO---------------------------"
            .chars()
            .map(|c| format!("{c} "))
            .collect();
        let p = parse_board(&format!("{spaced}X")).unwrap();
        assert_eq!(p, Position::initial(BoardSize::Eight));
        let fours =
            "---- ---- ---- ---- ---- ---- ---O X--- ---X O--- ---- ---- ---- ---- ---- ---- X";
        assert_eq!(parse_board(fours), Ok(p));
        let six = parse_board("------ ------ --OX-- --XO-- ------ ------ X; C2:+1").unwrap();
        assert_eq!(six, Position::initial(BoardSize::Six));
    }

    #[test]
    fn a_bad_annotation_points_at_its_first_character() {
        let line = "---------------------------OX------XO--------------------------- X; G8+18;";
        let e = parse_obf(line).unwrap_err();
        assert_eq!(e.reason, Reason::Annotation("G8+18".into()));
        assert_eq!(&line[e.column - 1..e.column], "G");
    }
}
