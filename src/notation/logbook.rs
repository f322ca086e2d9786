//! Logistello's game-list format (`logbook.gam`): one game per line,
//! `+d3-c3+c4-e3…-b7: -04 10`.
//!
//! `+` marks a Black move and `-` a White move; two moves in a row by one
//! colour mean the other side passed. The number after the colon is the final
//! disc difference, Black minus White (empties count for nobody); the last
//! field is kept as read (`10` in Logistello's own list). Games start from the
//! standard 8×8 position.
//!
//! Depends on [`crate::rules`] only. Errors name the line, the column and the
//! move.

use crate::notation::{ParseError, Reason, parse_square};
use crate::rules::{BoardSize, Color, Move, Position, Status};

/// One game of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogbookGame {
    /// The moves, passes included.
    pub moves: Vec<Move>,
    /// Black's final disc margin as written.
    pub margin: i32,
    /// The field after the margin, as written.
    pub tag: String,
}

/// A line of the list that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct LogbookError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads one game line (see the module docs).
///
/// # Errors
/// [`ParseError`] with the column: a missing `+`/`-` or colon, a token that is
/// not a square, a move that is not legal for its colour, a bad margin.
pub fn parse_line(line: &str) -> Result<LogbookGame, ParseError> {
    let (moves_text, rest) = line.split_once(':').ok_or(ParseError {
        column: line.chars().count() + 1,
        reason: Reason::Annotation("no \":\" before the result".into()),
    })?;
    let moves = parse_moves(moves_text)?;
    let rest_col = moves_text.chars().count() + 2;
    let mut fields = rest.split_whitespace();
    let margin_text = fields.next().unwrap_or("");
    let margin = margin_text
        .trim_start_matches('+')
        .parse::<i32>()
        .ok()
        .filter(|m| (-64..=64).contains(m))
        .ok_or_else(|| ParseError {
            column: rest_col + rest.len() - rest.trim_start().len(),
            reason: Reason::Annotation(format!("\"{margin_text}\" is not a disc margin")),
        })?;
    let tag = fields.collect::<Vec<_>>().join(" ");
    Ok(LogbookGame { moves, margin, tag })
}

/// Reads the `+d3-c3…` part of a line.
fn parse_moves(text: &str) -> Result<Vec<Move>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut pos = Position::initial(BoardSize::Eight);
    let mut moves = Vec::new();
    let mut i = 0;
    let mut index = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        index += 1;
        let column = i + 1;
        let color = match chars[i] {
            '+' => Color::Black,
            '-' => Color::White,
            c => {
                return Err(ParseError {
                    column,
                    reason: Reason::BadToken {
                        index,
                        text: format!("{c} (a move starts with + or -)"),
                    },
                });
            }
        };
        let tok: String = chars[i + 1..].iter().take(2).collect();
        let square = parse_square(&tok).map_err(|_| ParseError {
            column: column + 1,
            reason: Reason::BadToken { index, text: tok },
        })?;
        let mv = Move::Place(square);
        if color != pos.side_to_move() && matches!(pos.status(), Status::MustPass(_)) {
            moves.push(Move::Pass);
            pos = pos.play_unchecked(Move::Pass);
        }
        let mover = pos.side_to_move();
        let illegal = |why| ParseError {
            column,
            reason: Reason::Illegal {
                index,
                mv,
                color: mover,
                why,
            },
        };
        if color != mover {
            return Err(ParseError {
                column,
                reason: Reason::OutOfTurn {
                    index,
                    marked: color,
                },
            });
        }
        pos = pos.play(mv).map_err(illegal)?;
        moves.push(mv);
        i += 3;
    }
    Ok(moves)
}

/// Reads a whole list; blank lines are skipped.
///
/// # Errors
/// [`LogbookError`] at the first line that is not a game.
pub fn parse_logbook(text: &str) -> Result<Vec<LogbookGame>, LogbookError> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let g = parse_line(line).map_err(|e| LogbookError {
            line: i + 1,
            column: e.column,
            message: e.reason.to_string(),
        })?;
        games.push(g);
    }
    Ok(games)
}

/// Writes a game from the standard start as one line (no newline): the moves
/// with their colours (passes left out, as the format implies them), then
/// `: ±MM tag`.
///
/// ```
/// use reversi::notation::logbook::{parse_line, write_line};
/// let g = parse_line("+f5-d6+c3: +03 10").unwrap();
/// assert_eq!(write_line(&g.moves, 3, "10"), "+f5-d6+c3: +03 10");
/// ```
#[must_use]
pub fn write_line(moves: &[Move], margin: i32, tag: &str) -> String {
    let mut s = String::with_capacity(200);
    let mut pos = Position::initial(BoardSize::Eight);
    for &m in moves {
        if let Move::Place(sq) = m {
            s.push(if pos.side_to_move() == Color::Black {
                '+'
            } else {
                '-'
            });
            s.push_str(&sq.to_string());
        }
        pos = pos.play_unchecked(m);
    }
    s.push_str(&format!(": {margin:+03}"));
    if !tag.is_empty() {
        s.push(' ');
        s.push_str(tag);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_is_two_moves_of_one_colour() {
        // From Logistello's list: White passes before Black's last move.
        let line = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+f8-b4+a4-a6+e8-g8+b1-h7+e2-a5+a7-f1+a3-a1+h3-h2+a2-a8+g3-g2+b8-b7+h8-g7+h1+g1: +02 10";
        let g = parse_line(line).unwrap();
        assert_eq!(g.moves.len(), 61);
        assert_eq!(g.moves[59], Move::Pass);
        assert_eq!((g.margin, g.tag.as_str()), (2, "10"));
        assert_eq!(write_line(&g.moves, g.margin, &g.tag), line);
    }

    #[test]
    fn errors_point_at_the_move() {
        let e = parse_line("+d3+c3: +00 10").unwrap_err();
        assert_eq!(e.column, 4);
        assert_eq!(
            e.reason.to_string(),
            "move 2 is marked as Black's, but White is to move and has a legal move"
        );
        let e = parse_line("+d3-c3x: +00 10").unwrap_err();
        assert_eq!(e.column, 7);
        let e = parse_line("+d3-c3: big 10").unwrap_err();
        assert_eq!(e.column, 9);
        let e = parse_logbook("\n+d3-z9: +00 10\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 5: move 2: \"z9\" is not a square"
        );
    }
}
