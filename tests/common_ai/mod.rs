//! Helpers for the AI tests: a seeded RNG, random positions, and plain
//! minimax references (no pruning, no table).
#![allow(dead_code)]

use reversi::ai::Evaluator;
use reversi::random;
use reversi::rules::{BoardSize, Position, Rules};

/// The program's seeded generator ([`reversi::random`]).
pub struct Rng(random::Rng);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(random::seeded(seed))
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        random::below(&mut self.0, n)
    }
}

/// A position reached by random moves with exactly `empties` empty squares,
/// or `None` when the random game ended earlier.
pub fn random_position(rng: &mut Rng, size: BoardSize, empties: u32) -> Option<Position> {
    let mut p = Position::initial(size);
    while p.empties().count() > empties {
        let moves = p.moves_list();
        if moves.is_empty() {
            return None;
        }
        p = p.play_unchecked(moves[rng.below(moves.len())]);
    }
    Some(p)
}

/// The exact final margin by plain minimax.
pub fn minimax_exact(p: &Position, rules: &Rules) -> i32 {
    let moves = p.moves_list();
    if moves.is_empty() {
        return rules.final_margin(p);
    }
    moves
        .iter()
        .map(|&m| -minimax_exact(&p.play_unchecked(m), rules))
        .max()
        .unwrap()
}

/// Plain fixed-depth negamax with the same conventions as the engine: the
/// static evaluation at depth 0, a pass costs no depth, a finished game scores
/// its margin × 100, and a search deep enough to reach the end of a small
/// endgame (at most 12 empties) is exact.
pub fn minimax_depth(p: &Position, rules: &Rules, eval: &Evaluator, depth: u32) -> i32 {
    if depth == 0 {
        return eval.evaluate(p);
    }
    let n = p.empties().count();
    if depth >= n && n <= 12 {
        return minimax_exact(p, rules) * 100;
    }
    let moves = p.moves_list();
    if moves.is_empty() {
        return rules.final_margin(p) * 100;
    }
    // A pass uses up a ply, as in the engine.
    moves
        .iter()
        .map(|&m| -minimax_depth(&p.play_unchecked(m), rules, eval, depth - 1))
        .max()
        .unwrap()
}
