//! `Rules`: the variant being played (board size, Anti Reversi, scoring rule) and
//! how a finished position is scored.

use super::position::Position;
use super::square::{BoardSize, Color};
use std::fmt;

/// What happens to empty squares when the game ends before the board is full.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Empty squares count for nobody (the default on 8×8).
    EmptiesToNobody,
    /// Empty squares go to the winner, split evenly on a draw (competition rule;
    /// the default on 6×6). The winner is decided on the discs alone, so the
    /// empties change the score, never the winner; they widen the winner's
    /// lead: added to the winner's count in Reversi, and to the loser's
    /// (larger) count in Anti Reversi, where the smaller count wins.
    EmptiesToWinner,
}

/// The variant of a game: board size, normal or Anti Reversi, scoring rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// 8×8 or 6×6.
    pub size: BoardSize,
    /// Anti Reversi: the side with fewer discs wins.
    pub anti: bool,
    /// What empty squares count for at the end.
    pub scoring: Scoring,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard(BoardSize::Eight)
    }
}

impl Rules {
    /// The usual rules for a board size: empties count for nobody on 8×8, and go to
    /// the winner on 6×6.
    #[must_use]
    pub const fn standard(size: BoardSize) -> Rules {
        let scoring = match size {
            BoardSize::Eight => Scoring::EmptiesToNobody,
            BoardSize::Six => Scoring::EmptiesToWinner,
        };
        Rules {
            size,
            anti: false,
            scoring,
        }
    }

    /// The final result of `position` under these rules, or `None` while a side
    /// can still move.
    #[must_use]
    pub fn outcome(&self, position: &Position) -> Option<Outcome> {
        position.is_game_over().then(|| self.score(position))
    }

    /// Scores `position` as if the game ended now (the counts, the winner, empties
    /// given out by the scoring rule).
    #[must_use]
    pub fn score(&self, position: &Position) -> Outcome {
        let mut black = position.count(Color::Black);
        let mut white = position.count(Color::White);
        let empties = position.empties().count();
        let winner = match black.cmp(&white) {
            std::cmp::Ordering::Greater => Some(if self.anti {
                Color::White
            } else {
                Color::Black
            }),
            std::cmp::Ordering::Less => Some(if self.anti {
                Color::Black
            } else {
                Color::White
            }),
            std::cmp::Ordering::Equal => None,
        };
        if self.scoring == Scoring::EmptiesToWinner {
            // The empties count for the winner: they widen the winner's margin,
            // so they go to the side with more discs (the loser in Anti
            // Reversi), as in `final_margin`.
            match black.cmp(&white) {
                std::cmp::Ordering::Greater => black += empties,
                std::cmp::Ordering::Less => white += empties,
                std::cmp::Ordering::Equal => {
                    black += empties / 2;
                    white += empties - empties / 2;
                }
            }
        }
        Outcome {
            winner,
            black,
            white,
        }
    }

    /// The final margin for the side to move of a finished `position`, in discs
    /// as counted by these rules: positive when the side to move wins (in Anti
    /// Reversi, when it has fewer discs). This is the value the exact endgame
    /// search maximises.
    #[must_use]
    pub fn final_margin(&self, position: &Position) -> i32 {
        final_margin(
            position.player().count_ones() as i32,
            position.opponent().count_ones() as i32,
            position.size().squares() as i32,
            self.anti,
            self.scoring,
        )
    }
}

/// [`Rules::final_margin`] on raw counts: `own` and `theirs` discs on a board of
/// `squares` squares.
#[inline]
#[must_use]
pub fn final_margin(own: i32, theirs: i32, squares: i32, anti: bool, scoring: Scoring) -> i32 {
    let diff = if anti { theirs - own } else { own - theirs };
    match scoring {
        Scoring::EmptiesToNobody => diff,
        Scoring::EmptiesToWinner => {
            let empties = squares - own - theirs;
            diff + diff.signum() * empties
        }
    }
}

impl fmt::Display for Rules {
    /// E.g. "8x8", "6x6 anti, empties to winner".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.size)?;
        if self.anti {
            f.write_str(" anti")?;
        }
        if self.scoring != Rules::standard(self.size).scoring {
            f.write_str(match self.scoring {
                Scoring::EmptiesToNobody => ", empties to nobody",
                Scoring::EmptiesToWinner => ", empties to winner",
            })?;
        }
        Ok(())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Black's score (discs, plus empties when the scoring rule gives them).
    pub black: u32,
    /// White's score.
    pub white: u32,
}

impl Outcome {
    /// Black's score minus White's.
    #[must_use]
    pub fn black_margin(&self) -> i32 {
        self.black as i32 - self.white as i32
    }
}

impl fmt::Display for Outcome {
    /// "Black wins 40–24", "White wins 20–16", "Draw 32–32" (winner's score first).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(Color::Black) => write!(f, "Black wins {}–{}", self.black, self.white),
            Some(Color::White) => write!(f, "White wins {}–{}", self.white, self.black),
            None => write!(f, "Draw {}–{}", self.black, self.white),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Bitboard, BoardSize};

    /// Disjoint disc sets on `size` from a small deterministic generator.
    fn positions(size: BoardSize) -> Vec<Position> {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..2000)
            .map(|i| {
                let board = next() & next() & size.mask();
                let black = board & next();
                let white = board & !black;
                let side = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                Position::from_discs(Bitboard(black), Bitboard(white), side, size).unwrap()
            })
            .collect()
    }

    #[test]
    fn empties_to_the_winner_change_the_score_never_the_winner_on_both_boards() {
        for size in [BoardSize::Eight, BoardSize::Six] {
            for anti in [false, true] {
                let by_discs = Rules {
                    size,
                    anti,
                    scoring: Scoring::EmptiesToNobody,
                };
                let to_winner = Rules {
                    scoring: Scoring::EmptiesToWinner,
                    ..by_discs
                };
                for p in positions(size) {
                    let plain = by_discs.score(&p);
                    let o = to_winner.score(&p);
                    let empties = p.empties().count();
                    assert_eq!(o.winner, plain.winner, "{size} anti {anti}: {p:?}");
                    assert_eq!(o.black + o.white, plain.black + plain.white + empties);
                    // The winner's lead grows by exactly the empties: in Anti
                    // Reversi the loser's count takes them.
                    let lead = |o: &Outcome| match o.winner {
                        Some(Color::Black) if anti => -o.black_margin(),
                        Some(Color::Black) => o.black_margin(),
                        Some(Color::White) if anti => o.black_margin(),
                        Some(Color::White) => -o.black_margin(),
                        None => o.black_margin(),
                    };
                    match o.winner {
                        Some(_) => assert_eq!(lead(&o), lead(&plain) + empties as i32),
                        None => assert!(o.black_margin().abs() <= 1, "a draw shares them"),
                    }
                    // The search's margin agrees with the score.
                    let expected = match o.winner {
                        Some(w) if w == p.side_to_move() => lead(&o),
                        Some(_) => -lead(&o),
                        None => 0,
                    };
                    assert_eq!(to_winner.final_margin(&p), expected, "{p:?}");
                }
            }
        }
    }

    #[test]
    fn in_anti_reversi_the_empties_widen_the_winners_margin() {
        // 6×6: Black a1, White b1 c1, 33 empties. Black has fewer discs.
        let p = Position::from_discs(Bitboard(1), Bitboard(0b110), Color::Black, BoardSize::Six)
            .unwrap();
        let anti = Rules {
            anti: true,
            ..Rules::standard(BoardSize::Six)
        };
        let o = anti.score(&p);
        assert_eq!((o.winner, o.black, o.white), (Some(Color::Black), 1, 35));
        assert_eq!(o.to_string(), "Black wins 1–35");
        // The search's margin for Black (to move) is the same 34 discs.
        assert_eq!(anti.final_margin(&p), 34);
        assert_eq!(o.black_margin(), -34);
    }
}
