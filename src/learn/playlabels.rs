//! Labels from self-play: every position the engine searches in a game
//! against itself becomes a labelled position, with the search's own score.
//!
//! Games start either with random moves or, given a collection of games
//! (tournament games, say), with the first moves of one of them: game `i`
//! takes the opening of collection game `i mod n`, as many moves of it as
//! the random opening would have had, so that the labels cover the even
//! positions good players reach as well as lopsided ones.
//!
//! A self-play game at a selective depth costs about what labelling a few
//! drawn positions by [`super::relabel`] does, but labels all of its
//! positions, and consecutive searches share the table: many more labels
//! for the same time. Each game starts with `random_min..=random_max`
//! uniformly random moves (lopsided positions as well as even ones), and
//! after that each move is a random legal one with probability `explore`
//! (thousandths), so the games also pass through positions a move off the
//! engine's best line, the kind a search evaluates at its leaves.
//!
//! ## The label
//! In the midgame, the mean of the scores of the last two depths of the
//! iterative deepening (`depth − 1` and `depth`): one odd and one even
//! search, so the label does not lean to the side that moved last at the
//! leaves. From `exact` empties the search solves and the label is the exact
//! margin. Scores are in discs for the side to move, empties counted for
//! nobody, as in [`super::relabel`].
//!
//! ## The line value
//! Each label also carries the label of the furthest position the game went
//! on to reach from it without a random move (an exploring move, or the end
//! of the game), turned to this position's side to move; an exact label is
//! its own line value. Along the engine's own line, a position a dozen plies
//! later is searched by the same depth from that much further on, and from
//! `exact` empties it is solved: the line value sees past the search's
//! horizon, at the price of the engine's own mistakes on the way. `reversi
//! train --ahead W` fits to `(1 − W)·label + W·line value`.
//!
//! The file is a labels file of [`super::relabel`] (its header names these
//! settings, with `selfplay`), so `reversi train` reads it as it reads the
//! relabelled positions. Game `i` depends only on (`seed`, `i`) and the
//! settings: a fresh table for every game.

use super::relabel::{Labelled, label_search, mean_of_last_two};
use crate::ai::{Engine, Score};
use crate::random;
use crate::rules::{BoardSize, Color, Move, Position};
use std::sync::atomic::AtomicBool;

/// Settings of a self-play labelling run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayLabelConfig {
    /// Midgame search depth.
    pub depth: u32,
    /// Empties from which the search solves exactly.
    pub exact: u32,
    /// ProbCut selectivity of the midgame search (see [`Limits::selectivity`]).
    pub selectivity: u8,
    /// Fewest random opening plies.
    pub random_min: u32,
    /// Most random opening plies.
    pub random_max: u32,
    /// Chance in thousandths that a move after the opening is a random one.
    pub explore: u32,
    /// Seed of the games.
    pub seed: u64,
}

impl PlayLabelConfig {
    /// The header line of a labels file of these settings (no newline).
    #[must_use]
    pub fn header(&self) -> String {
        format!(
            "# reversi relabel v1 selfplay depth={} exact={} sel={} random={}..{} explore={} seed={}",
            self.depth,
            self.exact,
            self.selectivity,
            self.random_min,
            self.random_max,
            self.explore,
            self.seed
        )
    }
}

/// Plays game number `index` of `config`, labelling every position searched
/// after the opening (in game order): random moves, or with `openings`
/// the first moves of `openings[index mod n]` (fewer when that game is
/// shorter).
pub fn play_labelled(
    engine: &mut Engine,
    config: &PlayLabelConfig,
    openings: Option<&[Vec<Move>]>,
    index: u64,
) -> Vec<Labelled> {
    engine.clear();
    let (rules, limits) = label_search(config.depth, config.exact, config.selectivity);
    let stop = AtomicBool::new(false);
    let mut rng = random::stream(config.seed, index);
    let span = config.random_max.saturating_sub(config.random_min) as usize + 1;
    let random_plies = config.random_min as usize + random::below(&mut rng, span);
    let mut p = Position::initial(BoardSize::Eight);
    let mut out = Vec::new();
    // Per label: the side to move, and whether the line stops there (an
    // exact label, or a random move played from it).
    let mut line_ends: Vec<(Color, bool)> = Vec::new();
    let mut ply = 0;
    while !p.is_game_over() {
        let mv = if !p.has_legal_move() {
            Move::Pass
        } else {
            let list = p.moves_list();
            let explore = random::below(&mut rng, 1000) < config.explore as usize;
            let given = openings
                .filter(|o| !o.is_empty())
                .and_then(|o| o[index as usize % o.len()].get(ply).copied())
                .filter(|&m| p.is_legal(m) && ply < random_plies);
            if let Some(m) = given {
                m
            } else if ply < random_plies && openings.is_none() {
                list[random::below(&mut rng, list.len())]
            } else {
                let mut scores = Vec::new();
                let r = engine.search(&p, &rules, &limits, &stop, index, &mut |pr| {
                    scores.push((pr.depth, pr.score));
                });
                out.push(Labelled {
                    game: index as usize,
                    player: p.player(),
                    opponent: p.opponent(),
                    score: mean_of_last_two(&scores, r.score),
                    line: None,
                });
                line_ends.push((
                    p.side_to_move(),
                    explore || matches!(r.score, Score::Exact(_)),
                ));
                if explore {
                    list[random::below(&mut rng, list.len())]
                } else {
                    r.best_move
                }
            }
        };
        p = p.play_unchecked(mv);
        ply += 1;
    }
    set_line_values(&mut out, &line_ends);
    out
}

/// Fills in each label's line value (see the module docs) from the end of
/// the game backwards: `ends[i]` is label `i`'s side to move and whether the
/// line stops at it.
fn set_line_values(labels: &mut [Labelled], ends: &[(Color, bool)]) {
    let mut next: Option<(Color, i32)> = None;
    for (l, &(side, stops)) in labels.iter_mut().zip(ends).rev() {
        let value = match next {
            Some((next_side, v)) if !stops => {
                if next_side == side {
                    v
                } else {
                    -v
                }
            }
            _ => l.score,
        };
        l.line = Some(value);
        next = Some((side, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Limits;

    fn config(explore: u32) -> PlayLabelConfig {
        PlayLabelConfig {
            depth: 3,
            exact: 8,
            selectivity: 0,
            random_min: 4,
            random_max: 6,
            explore,
            seed: 9,
        }
    }

    #[test]
    fn a_game_labels_its_searched_positions_reproducibly() {
        let mut e = Engine::new(1);
        let a = play_labelled(&mut e, &config(0), None, 2);
        assert_eq!(a, play_labelled(&mut Engine::new(1), &config(0), None, 2));
        assert_ne!(a, play_labelled(&mut e, &config(0), None, 3));
        // At most 60 placements, of which 4–6 random; every labelled
        // position has a move, and the exact labels are whole discs.
        assert!(a.len() >= 40 && a.len() <= 56, "{}", a.len());
        for l in &a {
            let p = super::super::relabel::position_of(l);
            assert!(p.has_legal_move());
            let empties = p.empties().count();
            if empties <= 8 {
                assert_eq!(l.score % 100, 0, "exact label at {empties} empties");
            }
            assert_eq!(Labelled::parse_line(&l.to_line()), Some(*l));
        }
    }

    #[test]
    fn an_exact_label_is_the_solve_and_a_midgame_one_the_mean_of_two_depths() {
        let (rules, _) = label_search(3, 8, 0);
        let a = play_labelled(&mut Engine::new(1), &config(0), None, 5);
        let never = AtomicBool::new(false);
        for l in [a[0], a[a.len() - 3]] {
            let p = super::super::relabel::position_of(&l);
            let mut e = Engine::new(1);
            let score = |e: &mut Engine, d: u32| {
                let limits = Limits {
                    exact_empties: 8,
                    ..Limits::depth(d)
                };
                e.clear();
                e.search(&p, &rules, &limits, &never, 0, &mut |_| {}).score
            };
            match score(&mut e, 3) {
                Score::Exact(d) => assert_eq!(l.score, d * 100),
                Score::Estimate(c3) => {
                    let Score::Estimate(c2) = score(&mut e, 2) else {
                        panic!("depth 2 solved where depth 3 did not");
                    };
                    // The depth-2 iteration of a depth-3 search may differ
                    // from a fresh depth-2 search only through the table;
                    // with a fresh table at each, they agree.
                    assert_eq!(l.score, (c2 + c3).div_euclid(2), "{}", l.to_line());
                }
            }
        }
    }

    #[test]
    fn line_values_follow_the_line_to_its_end() {
        let w = Color::White;
        let b = Color::Black;
        let label = |score| Labelled {
            game: 0,
            player: 0,
            opponent: 0,
            score,
            line: None,
        };
        // Five labels: sides B W W B W (White moved twice: Black passed),
        // a random move from the second (so the first line stops there),
        // the last one exact.
        let mut labels: Vec<Labelled> = [10, 20, 30, 40, 50].map(label).to_vec();
        let ends = [(b, false), (w, true), (w, false), (b, false), (w, true)];
        set_line_values(&mut labels, &ends);
        let lines: Vec<i32> = labels.iter().map(|l| l.line.unwrap()).collect();
        assert_eq!(lines, [-20, 20, 50, -50, 50]);
    }

    /// Whether the side to move of `b`, the label after `a` in a game with
    /// no random move between, is `a`'s: read off the discs, which only
    /// grow for the side that moved.
    fn same_side(a: &Labelled, b: &Labelled) -> bool {
        let moved = a.player;
        if b.opponent & moved == moved {
            false
        } else {
            assert_eq!(b.player & moved, moved, "not consecutive");
            true
        }
    }

    #[test]
    fn without_random_moves_every_line_value_is_the_first_exact_label() {
        for index in 0..4 {
            let a = play_labelled(&mut Engine::new(1), &config(0), None, index);
            let first_exact = a
                .iter()
                .position(|l| super::super::relabel::position_of(l).empties().count() <= 8)
                .expect("the game reaches the exact solve");
            let mut same = true;
            for i in (0..=first_exact).rev() {
                if i < first_exact {
                    same ^= !same_side(&a[i], &a[i + 1]);
                }
                let v = a[first_exact].score;
                assert_eq!(a[i].line, Some(if same { v } else { -v }), "label {i}");
            }
            for l in &a[first_exact..] {
                assert_eq!(
                    l.line,
                    Some(l.score),
                    "an exact label is its own line value"
                );
            }
        }
    }

    #[test]
    fn when_every_move_is_random_each_label_is_its_own_line_value() {
        let a = play_labelled(&mut Engine::new(1), &config(1000), None, 1);
        assert!(a.iter().all(|l| l.line == Some(l.score)));
    }

    #[test]
    fn exploring_changes_the_games() {
        let mut e = Engine::new(1);
        let quiet = play_labelled(&mut e, &config(0), None, 1);
        let wild = play_labelled(&mut e, &config(500), None, 1);
        assert_ne!(quiet, wild);
        // The opening is drawn before any exploring move: the first
        // labelled position is the same.
        assert_eq!(quiet[0].player, wild[0].player);
        assert!(config(500).header().contains("explore=500 "));
    }

    #[test]
    fn openings_from_a_collection_are_followed() {
        let start = Position::initial(BoardSize::Eight);
        let line = crate::notation::parse_transcript("f5d6c3d3c4f4f6f3e6e7", &start).unwrap();
        let openings = vec![line.clone()];
        let c = PlayLabelConfig {
            random_min: 6,
            random_max: 6,
            ..config(0)
        };
        let a = play_labelled(&mut Engine::new(1), &c, Some(&openings), 0);
        // The first labelled position is the one six moves into the game.
        let mut p = start;
        for &m in &line[..6] {
            p = p.play_unchecked(m);
        }
        assert_eq!((a[0].player, a[0].opponent), (p.player(), p.opponent()));
        assert_ne!(a, play_labelled(&mut Engine::new(1), &c, None, 0));
    }
}
