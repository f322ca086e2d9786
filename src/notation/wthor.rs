//! The WTHOR database of the Fédération Française d'Othello: `.wtb` game files
//! and the `WTHOR.JOU` (players) and `WTHOR.TRN` (tournaments) name files.
//!
//! A game file is a 16-byte header then one 68-byte record per game; a name
//! file a 16-byte header then fixed-size NUL-padded ISO-8859-1 names. All
//! integers are little-endian. Moves are bytes `10 × row + column` (11 = a1,
//! 88 = h8), zero after the last one; passes are not recorded and are re-derived
//! here. The recorded score (Black's discs, empties to the winner) does not
//! always agree with the final board (timed-out or unfinished games); both are
//! kept so that a user of the games chooses. Format description:
//! <https://www.ffothello.org/informatique/la-base-wthor/>.
//!
//! Depends on [`crate::rules`] only. Errors name the game (1-based) and the
//! move number where a record is wrong.

use crate::rules::{BoardSize, Color, IllegalMove, Move, Position, Square, Status};

/// Bytes in the header of every WTHOR file.
pub const HEADER_LEN: usize = 16;
/// Bytes in one game record.
pub const GAME_LEN: usize = 68;
/// Bytes in one player name record (`WTHOR.JOU`).
pub const PLAYER_LEN: usize = 20;
/// Bytes in one tournament name record (`WTHOR.TRN`).
pub const TOURNAMENT_LEN: usize = 26;
/// Move bytes in one game record.
const MOVE_BYTES: usize = 60;

/// The header of a `.wtb` game file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WtbHeader {
    /// When the file was made: century, year, month, day.
    pub created: [u8; 4],
    /// The year of the games.
    pub year: u16,
    /// Depth (empties) of the theoretical score.
    pub depth: u8,
}

/// One game of a `.wtb` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// Tournament number (an index into `WTHOR.TRN`).
    pub tournament: u16,
    /// Black's player number (an index into `WTHOR.JOU`).
    pub black: u16,
    /// White's player number.
    pub white: u16,
    /// Black's final disc count as recorded (empties to the winner).
    pub black_discs: u8,
    /// Black's disc count under perfect play from `depth` empties, as recorded.
    pub theoretical: u8,
    /// The moves from the standard start, passes included.
    pub moves: Vec<Move>,
}

impl WthorGame {
    /// The position after the last move.
    #[must_use]
    pub fn final_position(&self) -> Position {
        self.moves
            .iter()
            .fold(Position::initial(BoardSize::Eight), |p, &m| {
                p.play_unchecked(m)
            })
    }

    /// Black's disc margin as recorded: `2 × black_discs − 64`.
    #[must_use]
    pub fn recorded_margin(&self) -> i32 {
        2 * i32::from(self.black_discs) - 64
    }

    /// Black's disc margin on the final board with the empties to the winner
    /// (the WTHOR convention), or `None` when the game is not over on the board.
    #[must_use]
    pub fn board_margin(&self) -> Option<i32> {
        let p = self.final_position();
        p.is_game_over().then(|| {
            let (b, w) = (p.count(Color::Black) as i32, p.count(Color::White) as i32);
            let empties = 64 - b - w;
            match b.cmp(&w) {
                std::cmp::Ordering::Greater => b + empties - w,
                std::cmp::Ordering::Less => b - w - empties,
                std::cmp::Ordering::Equal => 0,
            }
        })
    }

    /// Whether the recorded score is the final board's.
    #[must_use]
    pub fn score_agrees(&self) -> bool {
        self.board_margin() == Some(self.recorded_margin())
    }

    /// The position the theoretical score is about, and that score as
    /// Black's margin (`2 × theoretical − 64`, empties to the winner): the
    /// position of the game with `depth` empty squares (the header's depth),
    /// after the pass when the side to move there had to pass. `None` when
    /// the game never reached it with a move to play (it ended with more
    /// empties, or was over there), when `depth` is 0 (no theoretical
    /// score), or when the recorded score is not a disc count.
    #[must_use]
    pub fn theoretical_position(&self, depth: u8) -> Option<(Position, i32)> {
        self.theoretical_line(depth, depth).pop()
    }

    /// The positions of the game from `from` empties down to the one
    /// [`Self::theoretical_position`] gives, each with a move to play,
    /// labelled with the same theoretical score: the value of the line as
    /// it was played down to `depth` empties and played perfectly from
    /// there. Empty when that position has none; `from` below `depth`
    /// counts as `depth`.
    #[must_use]
    pub fn theoretical_line(&self, depth: u8, from: u8) -> Vec<(Position, i32)> {
        if depth == 0 || self.theoretical > 64 {
            return Vec::new();
        }
        let margin = 2 * i32::from(self.theoretical) - 64;
        let (depth, from) = (u32::from(depth), u32::from(from.max(depth)));
        let start = Position::initial(BoardSize::Eight);
        let positions = std::iter::once(start).chain(self.moves.iter().scan(start, |p, &m| {
            *p = p.play_unchecked(m);
            Some(*p)
        }));
        let mut line = Vec::new();
        for p in positions.take_while(|p| p.empties().count() >= depth) {
            let empties = p.empties().count();
            if empties <= from && p.has_legal_move() {
                line.push((p, margin));
                if empties == depth {
                    return line;
                }
            }
        }
        Vec::new()
    }
}

/// A whole `.wtb` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wtb {
    /// The header.
    pub header: WtbHeader,
    /// The games in file order.
    pub games: Vec<WthorGame>,
}

/// Why WTHOR bytes cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WthorError {
    /// Fewer bytes than a header.
    #[error("{0} bytes is too short for a WTHOR file (16-byte header)")]
    TooShort(usize),
    /// A header field says this is not a file of 8×8 games.
    #[error("not a WTHOR game file of 8x8 games (header byte {byte} is {value})")]
    NotGames {
        /// Which header byte.
        byte: usize,
        /// Its value.
        value: u8,
    },
    /// The length disagrees with the record count in the header.
    #[error(
        "the header announces {declared} records of {record} bytes, but {found} bytes follow it"
    )]
    Length {
        /// Records announced by the header.
        declared: usize,
        /// Bytes per record.
        record: usize,
        /// Bytes after the header.
        found: usize,
    },
    /// A move byte is not a square.
    #[error("game {game}, move {index}: byte {byte} is not a square (11 = a1 to 88 = h8)")]
    MoveByte {
        /// 1-based game number in the file.
        game: usize,
        /// 1-based move number (passes not counted).
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// A move is not legal.
    #[error("game {game}, move {index}: {square} is not legal for {color}{}", why_text(*.why))]
    Illegal {
        /// 1-based game number in the file.
        game: usize,
        /// 1-based move number (passes not counted).
        index: usize,
        /// The square.
        square: Square,
        /// The side to move.
        color: Color,
        /// Why the rules refuse it.
        why: IllegalMove,
    },
    /// A move byte follows the zero that ended the moves.
    #[error("game {game}, move {index}: a move after the end of the moves")]
    AfterEnd {
        /// 1-based game number in the file.
        game: usize,
        /// 1-based move number.
        index: usize,
    },
}

fn why_text(why: IllegalMove) -> &'static str {
    match why {
        IllegalMove::EnclosesNothing(_) => " (it encloses no line)",
        IllegalMove::Occupied(_) => " (the square is occupied)",
        IllegalMove::GameOver => " (the game is over)",
        IllegalMove::OffBoard(..) | IllegalMove::PassNotAllowed(_) => "",
    }
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

/// The number of records a header announces and the records' bytes, checked
/// against the length.
fn records(bytes: &[u8], count: usize, record: usize) -> Result<&[u8], WthorError> {
    let body = &bytes[HEADER_LEN..];
    if count.checked_mul(record) != Some(body.len()) {
        return Err(WthorError::Length {
            declared: count,
            record,
            found: body.len(),
        });
    }
    Ok(body)
}

/// Reads a `.wtb` game file.
///
/// # Errors
/// [`WthorError`]: a short or inconsistent header, a move byte that is not a
/// square, an illegal move (naming the game and the move).
pub fn parse_wtb(bytes: &[u8]) -> Result<Wtb, WthorError> {
    if bytes.len() < HEADER_LEN {
        return Err(WthorError::TooShort(bytes.len()));
    }
    if !matches!(bytes[12], 0 | 8) {
        return Err(WthorError::NotGames {
            byte: 12,
            value: bytes[12],
        });
    }
    if bytes[13] != 0 {
        return Err(WthorError::NotGames {
            byte: 13,
            value: bytes[13],
        });
    }
    let count = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    let body = records(bytes, count, GAME_LEN)?;
    let header = WtbHeader {
        created: [bytes[0], bytes[1], bytes[2], bytes[3]],
        year: u16_at(bytes, 10),
        depth: bytes[14],
    };
    let games = body
        .chunks_exact(GAME_LEN)
        .enumerate()
        .map(|(i, r)| parse_game(r, i + 1))
        .collect::<Result<_, _>>()?;
    Ok(Wtb { header, games })
}

/// Reads one 68-byte record, game number `game` (1-based, for errors).
fn parse_game(r: &[u8], game: usize) -> Result<WthorGame, WthorError> {
    let mut pos = Position::initial(BoardSize::Eight);
    let mut moves = Vec::with_capacity(MOVE_BYTES + 4);
    let mut ended = false;
    for (k, &byte) in r[8..8 + MOVE_BYTES].iter().enumerate() {
        let index = k + 1;
        if byte == 0 {
            ended = true;
            continue;
        }
        if ended {
            return Err(WthorError::AfterEnd { game, index });
        }
        let (row, column) = (byte / 10, byte % 10);
        if !(1..=8).contains(&row) || !(1..=8).contains(&column) {
            return Err(WthorError::MoveByte { game, index, byte });
        }
        let square = Square::at(column - 1, row - 1);
        if matches!(pos.status(), Status::MustPass(_)) {
            moves.push(Move::Pass);
            pos = pos.play_unchecked(Move::Pass);
        }
        let color = pos.side_to_move();
        pos = pos
            .play(Move::Place(square))
            .map_err(|why| WthorError::Illegal {
                game,
                index,
                square,
                color,
                why,
            })?;
        moves.push(Move::Place(square));
    }
    Ok(WthorGame {
        tournament: u16_at(r, 0),
        black: u16_at(r, 2),
        white: u16_at(r, 4),
        black_discs: r[6],
        theoretical: r[7],
        moves,
    })
}

/// Reads a name file (`WTHOR.JOU` with `record` = [`PLAYER_LEN`], `WTHOR.TRN`
/// with [`TOURNAMENT_LEN`]): the names in file order, decoded from ISO-8859-1,
/// each cut at its first NUL.
///
/// # Errors
/// [`WthorError::TooShort`] or [`WthorError::Length`] when the header count and
/// the length disagree.
pub fn parse_names(bytes: &[u8], record: usize) -> Result<Vec<String>, WthorError> {
    if bytes.len() < HEADER_LEN {
        return Err(WthorError::TooShort(bytes.len()));
    }
    let count = usize::from(u16_at(bytes, 8));
    let body = records(bytes, count, record.max(1))?;
    Ok(body
        .chunks_exact(record.max(1))
        .map(|r| {
            r.iter()
                .take_while(|&&b| b != 0)
                .map(|&b| char::from(b))
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect())
}

/// Player and tournament names for WTHOR games (either list may be empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// Player names by number (`WTHOR.JOU`).
    pub players: Vec<String>,
    /// Tournament names by number (`WTHOR.TRN`).
    pub tournaments: Vec<String>,
}

impl Names {
    /// Player number `n`'s name, or `#n` when unknown.
    #[must_use]
    pub fn player(&self, n: u16) -> String {
        name_or_number(&self.players, n)
    }

    /// Tournament number `n`'s name, or `#n` when unknown.
    #[must_use]
    pub fn tournament(&self, n: u16) -> String {
        name_or_number(&self.tournaments, n)
    }
}

fn name_or_number(names: &[String], n: u16) -> String {
    match names.get(usize::from(n)) {
        Some(s) if !s.is_empty() => s.clone(),
        _ => format!("#{n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &[u8], black_discs: u8) -> Vec<u8> {
        let mut r = vec![0u8; GAME_LEN];
        r[0..2].copy_from_slice(&3u16.to_le_bytes());
        r[2..4].copy_from_slice(&1u16.to_le_bytes());
        r[4..6].copy_from_slice(&2u16.to_le_bytes());
        r[6] = black_discs;
        r[8..8 + moves.len()].copy_from_slice(moves);
        r
    }

    fn file(records: &[Vec<u8>]) -> Vec<u8> {
        let mut f = vec![20, 24, 1, 2];
        f.extend((records.len() as u32).to_le_bytes());
        f.extend([0, 0, 0xe8, 0x07, 8, 0, 22, 0]);
        for r in records {
            f.extend(r);
        }
        f
    }

    #[test]
    fn a_short_game_is_read_with_its_numbers() {
        // f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c5: not over after 12 moves.
        let w = parse_wtb(&file(&[record(
            &[56, 64, 33, 34, 43, 46, 66, 36, 65, 75, 74, 53],
            40,
        )]))
        .unwrap();
        assert_eq!(w.header.year, 2024);
        assert_eq!(w.header.depth, 22);
        let g = &w.games[0];
        assert_eq!(
            (g.tournament, g.black, g.white, g.black_discs),
            (3, 1, 2, 40)
        );
        assert_eq!(
            crate::notation::write_transcript(&g.moves),
            "f5d6c3d3c4f4f6f3e6e7d7c5"
        );
        assert_eq!(g.recorded_margin(), 16);
        assert_eq!(g.board_margin(), None);
        assert!(!g.score_agrees());
    }

    #[test]
    fn the_theoretical_score_labels_the_position_at_the_depth() {
        let mut r = record(&[56, 64, 33, 34, 43, 46, 66, 36, 65, 75, 74, 53], 40);
        r[7] = 23;
        let w = parse_wtb(&file(&[r.clone()])).unwrap();
        let g = &w.games[0];
        let start = Position::initial(BoardSize::Eight);
        let after = |text: &str| {
            crate::notation::parse_transcript(text, &start)
                .unwrap()
                .into_iter()
                .fold(start, |p, m| p.play_unchecked(m))
        };
        // 50 empties: after the first ten moves, Black to move; 23 discs
        // for Black under perfect play is a margin of -18.
        assert_eq!(
            g.theoretical_position(50),
            Some((after("f5d6c3d3c4f4f6f3e6e7"), -18))
        );
        // The last position of the record counts; a depth the game never
        // reached, or 0, has none.
        assert_eq!(
            g.theoretical_position(48),
            Some((after("f5d6c3d3c4f4f6f3e6e7d7c5"), -18))
        );
        assert_eq!(g.theoretical_position(47), None);
        assert_eq!(g.theoretical_position(0), None);
        assert_eq!(g.theoretical_position(61), None);
        // A score that is not a disc count labels nothing.
        r[7] = 65;
        let w = parse_wtb(&file(&[r])).unwrap();
        assert_eq!(w.games[0].theoretical_position(50), None);
        // The line: every position from 52 empties down to the depth's,
        // with the same label; none when the depth is never reached.
        let line = g.theoretical_line(50, 52);
        let moves = [
            "f5d6c3d3c4f4f6f3",
            "f5d6c3d3c4f4f6f3e6",
            "f5d6c3d3c4f4f6f3e6e7",
        ];
        assert_eq!(
            line,
            moves.iter().map(|t| (after(t), -18)).collect::<Vec<_>>()
        );
        assert_eq!(g.theoretical_line(50, 40), vec![(after(moves[2]), -18)]);
        assert!(g.theoretical_line(47, 52).is_empty());
    }

    #[test]
    fn bad_records_name_the_game_and_move() {
        let e = parse_wtb(&file(&[record(&[56], 33), record(&[56, 99], 33)])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "game 2, move 2: byte 99 is not a square (11 = a1 to 88 = h8)"
        );
        let e = parse_wtb(&file(&[record(&[11], 33)])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "game 1, move 1: a1 is not legal for Black (it encloses no line)"
        );
        let e = parse_wtb(&file(&[record(&[56, 0, 64], 33)])).unwrap_err();
        assert_eq!(e, WthorError::AfterEnd { game: 1, index: 3 });
        let mut f = file(&[record(&[56], 33)]);
        f.pop();
        assert!(matches!(parse_wtb(&f), Err(WthorError::Length { .. })));
    }

    #[test]
    fn names_are_latin1_and_cut_at_nul() {
        let mut f = vec![0u8; HEADER_LEN];
        f[8] = 2;
        let mut a = vec![0u8; PLAYER_LEN];
        a[..5].copy_from_slice(b"L\xe9a B");
        f.extend(a);
        f.extend(vec![0u8; PLAYER_LEN]);
        let names = parse_names(&f, PLAYER_LEN).unwrap();
        assert_eq!(names, vec!["Léa B".to_string(), String::new()]);
        let n = Names {
            players: names,
            tournaments: vec![],
        };
        assert_eq!(n.player(0), "Léa B");
        assert_eq!(n.player(1), "#1");
        assert_eq!(n.tournament(7), "#7");
    }
}
