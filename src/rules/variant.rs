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
    /// the default on 6×6).
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
            match winner {
                Some(Color::Black) => black += empties,
                Some(Color::White) => white += empties,
                None => {
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
