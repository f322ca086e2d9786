//! Training samples from self-play games.
//!
//! ## Labels
//! Every position after a game's random opening (and before its end) becomes a
//! sample labelled with the game's final disc margin for the side to move.
//! Self-play solves exactly from its `exact` empties onwards, so for those
//! positions the label *is* the exact score under perfect play. Earlier
//! positions get the outcome of the engine's own continuation: unbiased for
//! the engine's play, noisy, and cheap — thousands of games cost less than a
//! few hundred deep searches. Search scores as labels would teach the
//! evaluation the hand-written evaluation's mistakes; outcomes do not.
//!
//! Samples keep their features as signed weight classes
//! ([`crate::ai::pattern::class_map`]), computed once.

use super::selfplay::GameRecord;
use crate::ai::pattern::{FEATURES, class_map, features};
use crate::random;
use crate::rules::{Color, Position};

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Empty squares.
    pub empties: u8,
    /// The label: final disc margin for the side to move.
    pub target: i8,
    /// Signed weight classes (`±(class + 1)`, 0: no weight).
    pub classes: [i32; FEATURES],
}

impl Sample {
    /// A sample of (`player`, `opponent`) labelled `target`.
    #[must_use]
    pub fn new(player: u64, opponent: u64, target: i8) -> Sample {
        let (map, _) = class_map();
        let f = features(player, opponent);
        let mut classes = [0i32; FEATURES];
        for (c, i) in classes.iter_mut().zip(f) {
            *c = map[i as usize];
        }
        Sample {
            empties: (64 - (player | opponent).count_ones()) as u8,
            target,
            classes,
        }
    }
}

/// A sample of `position` labelled with Black's margin `black`, turned to
/// the side to move's view.
#[must_use]
pub fn sample_for_black(position: &Position, black: i32) -> Sample {
    let margin = match position.side_to_move() {
        Color::Black => black,
        Color::White => -black,
    };
    Sample::new(position.player(), position.opponent(), margin as i8)
}

/// The samples of one game (see the module docs for the labels).
#[must_use]
pub fn samples_of(game: &GameRecord) -> Vec<Sample> {
    game.positions()
        .into_iter()
        .filter(|(ply, p)| *ply >= game.random_plies as usize && !p.is_game_over())
        .map(|(_, p)| sample_for_black(&p, game.margin))
        .collect()
}

/// Games split into training and validation sets by game (positions of one
/// game never land on both sides), reproducibly from `seed`. Returns the
/// indices of the validation games.
#[must_use]
pub fn validation_games(count: usize, fraction: f64, seed: u64) -> Vec<bool> {
    let mut rng = random::seeded(seed);
    (0..count)
        .map(|_| random::unit(&mut rng) < fraction)
        .collect()
}
