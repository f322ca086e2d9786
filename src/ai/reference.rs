//! The reference players that anchor the level ladder: `random` and
//! `greedy`. They do not search, so they need no engine; their only
//! randomness is the generator they are given. `reversi match` and the
//! salon's bots play them beside the engine.

use crate::random;
use crate::rules::{Move, Position};

/// A player that does not search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// A uniformly random legal move (`random`).
    Random,
    /// The move that flips the most discs, ties broken at random (`greedy`):
    /// how most people play their first games.
    Greedy,
}

impl Reference {
    /// Both players, `random` first.
    pub const ALL: [Reference; 2] = [Reference::Random, Reference::Greedy];

    /// The name on the command line and in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Reference::Random => "random",
            Reference::Greedy => "greedy",
        }
    }

    /// The move this player makes in `position` (`Pass` when it must pass),
    /// drawing from `rng` between equal choices.
    #[must_use]
    pub fn choose(self, position: &Position, rng: &mut random::Rng) -> Move {
        let moves = position.moves_list();
        let candidates: Vec<Move> = match self {
            Reference::Random => moves,
            Reference::Greedy => {
                let flips = |m: &Move| match m {
                    Move::Place(sq) => position.flips(*sq).count(),
                    Move::Pass => 0,
                };
                let most = moves.iter().map(flips).max().unwrap_or(0);
                moves.into_iter().filter(|m| flips(m) == most).collect()
            }
        };
        random::pick(rng, &candidates)
            .copied()
            .unwrap_or(Move::Pass)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardSize;

    #[test]
    fn greedy_takes_a_most_flips_move_and_random_any_legal_one() {
        let mut p = Position::initial(BoardSize::Eight);
        let mut rng = random::seeded(3);
        let mut seen = std::collections::HashSet::new();
        while !p.is_game_over() {
            let flips = |m: Move| match m {
                Move::Place(sq) => p.flips(sq).count(),
                Move::Pass => 0,
            };
            let most = p.moves_list().into_iter().map(flips).max().unwrap_or(0);
            let g = Reference::Greedy.choose(&p, &mut rng);
            assert!(p.is_legal(g) && flips(g) == most, "{g} in {p:?}");
            let r = Reference::Random.choose(&p, &mut rng);
            assert!(p.is_legal(r), "{r} in {p:?}");
            seen.insert(flips(r) == most);
            p = p.play_unchecked(r);
        }
        // The random player does not always take the biggest capture.
        assert!(seen.contains(&false));
    }
}
