//! WTHOR files written byte by byte from the format's definition (16-byte
//! headers, 68-byte game records, 20- and 26-byte name records, little-endian
//! integers, moves as `10 × row + column`, passes left out), so that the
//! reader is tested against the definition rather than against itself.
#![allow(dead_code)]

use reversi::rules::Move;

/// One game to write: tournament, black, white, Black's recorded discs, moves.
pub struct Game<'a> {
    /// Tournament number.
    pub tournament: u16,
    /// Black's player number.
    pub black: u16,
    /// White's player number.
    pub white: u16,
    /// Black's final disc count as recorded.
    pub black_discs: u8,
    /// The moves (passes are skipped when writing).
    pub moves: &'a [Move],
}

/// The move byte of a placement: 10 × row + column, a1 = 11.
pub fn move_byte(mv: Move) -> Option<u8> {
    match mv {
        Move::Place(sq) => Some(10 * (sq.row() + 1) + sq.column() + 1),
        Move::Pass => None,
    }
}

/// A `.wtb` file of `games` played in `year`.
pub fn wtb(year: u16, games: &[Game]) -> Vec<u8> {
    let mut f = vec![20, 25, 6, 1]; // made on 2025-06-01
    f.extend((games.len() as u32).to_le_bytes());
    f.extend(0u16.to_le_bytes());
    f.extend(year.to_le_bytes());
    f.extend([8, 0, 22, 0]); // 8×8, games, theoretical depth 22, reserved
    for g in games {
        f.extend(g.tournament.to_le_bytes());
        f.extend(g.black.to_le_bytes());
        f.extend(g.white.to_le_bytes());
        f.push(g.black_discs);
        f.push(g.black_discs); // theoretical score
        let mut moves: Vec<u8> = g.moves.iter().filter_map(|&m| move_byte(m)).collect();
        moves.resize(60, 0);
        f.extend(moves);
    }
    f
}

/// A name file (`WTHOR.JOU` with 20-byte records, `WTHOR.TRN` with 26) of
/// ISO-8859-1 `names`.
pub fn names(record: usize, names: &[&[u8]]) -> Vec<u8> {
    let mut f = vec![20, 25, 6, 1, 0, 0, 0, 0];
    f.extend((names.len() as u16).to_le_bytes());
    f.extend([0u8; 6]);
    for n in names {
        let mut r = n.to_vec();
        r.resize(record, 0);
        f.extend(r);
    }
    f
}
