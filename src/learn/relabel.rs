//! Positions labelled by search instead of by game outcome.
//!
//! An outcome label says who won the game a position came from, many moves
//! later and after many mistakes: for an opening position of a tournament
//! game it carries almost no signal (docs/training.md). A search label is the
//! engine's own value of the position: a fixed-depth search of the midgame, an
//! exact solve from `exact` empties. Fitting the evaluation to deeper searches
//! of itself is the bootstrapping step of Logistello's and Egaroucid's
//! training; the exact solves anchor it to the truth at the end.
//!
//! ## Which positions
//! From each game, `per_game` positions drawn at random (all of them when the
//! game has fewer) among those after its random opening plies, with
//! `min_empties..=max_empties` empty squares and a legal move for the side to
//! move. The draw depends only on (`seed`, game number).
//!
//! With `random_plies` R > 0, each drawn position is then carried 0 to R
//! random legal moves further (passes when forced; the walk stops before a
//! position with no move for either side, and the position walked to keeps
//! a legal move). A search meets mostly positions that no good game
//! reaches, a move or two off the best line, and the evaluation is used
//! there; positions from well-played games alone do not show it those.
//! The walk is drawn from the same seeded stream.
//!
//! ## The file format (text, one position per line)
//!
//! ```text
//! # reversi relabel v1 depth=8 exact=18 per-game=8 empties=0..54 seed=1
//! 17 ---XO---…(64 squares) -3.25
//! ```
//!
//! (with ` sel=N` at the end when the midgame search is selective,
//! ` random-plies=R` when positions are walked off the game line, and
//! ` label=mean2` when a midgame label is the mean of two depths, below). The
//! header names the settings; a resumed run must use the same ones. A
//! line holds the game number (0-based over the input files, in order), the
//! board from the side to move's point of view (`X` the side to move, `O` the
//! other side, `-` empty; a1 first, row by row) and the label in discs for the
//! side to move; in self-play files (`selfplay` in the header) a fourth field,
//! the label's line value ([`super::playlabels`]), in discs for the same side.
//! The lines of a game are written together, games in order, so a run
//! stopped at any point resumes from the last game it wrote.
//!
//! ## Which score
//! A midgame label is the score of the search's last iteration, or with
//! `mean_of_two` the mean of its last two iterations' scores
//! ([`mean_of_last_two`], as self-play labels always are): the scores of odd
//! and even depths lean in opposite directions (the side that moves last at
//! the leaves gains), so a label of one depth carries that lean and a fit to
//! it moves the evaluation's side-to-move bias. An exact solve is its own
//! label either way.

use super::selfplay::GameRecord;
use crate::ai::{Engine, Limits, Score};
use crate::random;
use crate::rules::{BoardSize, Color, Move, Position, Rules, Scoring};
use std::sync::atomic::AtomicBool;

/// Settings of a relabelling run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelabelConfig {
    /// Midgame search depth of a label.
    pub depth: u32,
    /// Empties from which a label is an exact solve.
    pub exact: u32,
    /// Positions drawn from each game.
    pub per_game: u32,
    /// Fewest empties of a drawn position.
    pub min_empties: u32,
    /// Most empties of a drawn position.
    pub max_empties: u32,
    /// Seed of the draw.
    pub seed: u64,
    /// ProbCut selectivity of the midgame search (0: none; see
    /// [`Limits::selectivity`]). Exact solves are never selective.
    pub selectivity: u8,
    /// Random moves played from each drawn position before it is labelled,
    /// up to this many (0: none; see the module docs).
    pub random_plies: u32,
    /// A midgame label is the mean of the last two iteration depths' scores
    /// ([`mean_of_last_two`]) rather than the last depth's score.
    pub mean_of_two: bool,
}

impl RelabelConfig {
    /// The header line of a file of these labels (without the newline).
    #[must_use]
    pub fn header(&self) -> String {
        let mut header = format!(
            "# reversi relabel v1 depth={} exact={} per-game={} empties={}..{} seed={}",
            self.depth, self.exact, self.per_game, self.min_empties, self.max_empties, self.seed
        );
        // The settings added later are named only when they are used, so
        // files written without them keep their header and resume.
        if self.selectivity > 0 {
            header.push_str(&format!(" sel={}", self.selectivity));
        }
        if self.random_plies > 0 {
            header.push_str(&format!(" random-plies={}", self.random_plies));
        }
        if self.mean_of_two {
            header.push_str(" label=mean2");
        }
        header
    }
}

/// Whether a file's first line is a relabel header (of any settings).
#[must_use]
pub fn is_header(line: &str) -> bool {
    line.starts_with("# reversi relabel ")
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// The game it came from (0-based over the run's input).
    pub game: usize,
    /// The side to move's discs.
    pub player: u64,
    /// The other side's discs.
    pub opponent: u64,
    /// The label for the side to move, in hundredths of a disc.
    pub score: i32,
    /// Self-play only: the label of the furthest position the game reached
    /// from this one without a random move, for this position's side to
    /// move (hundredths; see [`super::playlabels`]). `None` for positions
    /// `relabel` takes from games, and in self-play files written without it.
    pub line: Option<i32>,
}

/// Hundredths of a disc as the file writes them (`-3.25`).
fn hundredths(v: i32) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// Discs as the file writes them, in hundredths; `None` when out of range.
fn parse_hundredths(text: &str) -> Option<i32> {
    let v: f64 = text.parse().ok()?;
    let v = (v * 100.0).round();
    (v.is_finite() && v.abs() <= 6400.0).then_some(v as i32)
}

impl Labelled {
    /// The position as one line of the file format (without the newline).
    #[must_use]
    pub fn to_line(&self) -> String {
        let board: String = (0..64)
            .map(|i| {
                let bit = 1u64 << i;
                if self.player & bit != 0 {
                    'X'
                } else if self.opponent & bit != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        let mut line = format!("{} {board} {}", self.game, hundredths(self.score));
        if let Some(v) = self.line {
            line.push(' ');
            line.push_str(&hundredths(v));
        }
        line
    }

    /// The label to fit, in discs: `(1 − ahead)·score + ahead·line value`
    /// (the score alone without a line value). `ahead` is within 0..=1.
    #[must_use]
    pub fn target(&self, ahead: f64) -> f64 {
        let score = f64::from(self.score);
        let blended = self
            .line
            .map_or(score, |v| (1.0 - ahead) * score + ahead * f64::from(v));
        blended / 100.0
    }

    /// Parses one line; `None` when it is malformed.
    #[must_use]
    pub fn parse_line(line: &str) -> Option<Labelled> {
        let mut parts = line.split_ascii_whitespace();
        let game = parts.next()?.parse().ok()?;
        let board = parts.next()?.as_bytes();
        let score = parse_hundredths(parts.next()?)?;
        let line = match parts.next() {
            Some(text) => Some(parse_hundredths(text)?),
            None => None,
        };
        if parts.next().is_some() || board.len() != 64 {
            return None;
        }
        let (mut player, mut opponent) = (0u64, 0u64);
        for (i, &c) in board.iter().enumerate() {
            match c {
                b'X' => player |= 1 << i,
                b'O' => opponent |= 1 << i,
                b'-' => {}
                _ => return None,
            }
        }
        Some(Labelled {
            game,
            player,
            opponent,
            score,
            line,
        })
    }
}

/// The positions of game number `index` that the run `config` labels, in
/// the order of the game (see the module docs).
#[must_use]
pub fn drawn_positions(game: &GameRecord, index: usize, config: &RelabelConfig) -> Vec<Position> {
    let eligible: Vec<Position> = game
        .positions()
        .into_iter()
        .filter(|(ply, p)| {
            let e = p.empties().count();
            *ply >= game.random_plies as usize
                && (config.min_empties..=config.max_empties).contains(&e)
                && p.has_legal_move()
        })
        .map(|(_, p)| p)
        .collect();
    let keep = (config.per_game as usize).min(eligible.len());
    let mut rng = random::stream(config.seed, index as u64);
    // A partial Fisher–Yates shuffle picks `keep` of them.
    let mut order: Vec<usize> = (0..eligible.len()).collect();
    for i in 0..keep {
        let j = i + random::below(&mut rng, order.len() - i);
        order.swap(i, j);
    }
    let mut chosen = order[..keep].to_vec();
    chosen.sort_unstable();
    chosen
        .iter()
        .map(|&i| random_walk(eligible[i], config.random_plies, &mut rng))
        .collect()
}

/// `start` carried 0 to `plies` random legal moves further (see the module
/// docs); a position with a legal move when `start` has one.
fn random_walk(start: Position, plies: u32, rng: &mut random::Rng) -> Position {
    if plies == 0 {
        return start;
    }
    let steps = random::below(rng, plies as usize + 1);
    let mut p = start;
    for _ in 0..steps {
        let moves: Vec<_> = p.legal_moves().iter().collect();
        if moves.is_empty() {
            break;
        }
        let mut next = p.play_unchecked(Move::Place(moves[random::below(rng, moves.len())]));
        if !next.has_legal_move() {
            next = next.play_unchecked(Move::Pass);
        }
        if !next.has_legal_move() {
            break;
        }
        p = next;
    }
    p
}

/// The rules and limits of a labelling search: 8×8 with empties counted
/// for nobody (as the outcome labels), `depth` plies at `selectivity`,
/// exact from `exact` empties.
#[must_use]
pub fn label_search(depth: u32, exact: u32, selectivity: u8) -> (Rules, Limits) {
    let rules = Rules {
        scoring: Scoring::EmptiesToNobody,
        ..Rules::standard(BoardSize::Eight)
    };
    let limits = Limits {
        exact_empties: exact,
        selectivity,
        ..Limits::depth(depth)
    };
    (rules, limits)
}

/// The label of `position`: `engine`'s score at `config.depth` (or the
/// mean of depths `depth − 1` and `depth`, see the module docs), exact from
/// `config.exact` empties, in hundredths of a disc for the side to move
/// (empties counted for nobody, as the outcome labels).
pub fn label(engine: &mut Engine, position: &Position, config: &RelabelConfig) -> i32 {
    let (rules, limits) = label_search(config.depth, config.exact, config.selectivity);
    let stop = AtomicBool::new(false);
    let mut scores = Vec::new();
    let last = engine
        .search(position, &rules, &limits, &stop, 0, &mut |pr| {
            scores.push((pr.depth, pr.score));
        })
        .score;
    if config.mean_of_two {
        mean_of_last_two(&scores, last)
    } else {
        score_of(last)
    }
}

/// A search score in hundredths of a disc.
fn score_of(score: Score) -> i32 {
    match score {
        Score::Exact(d) => d * 100,
        Score::Estimate(c) => c,
    }
}

/// The label of one search from its iterations' `(depth, score)` and its
/// final score `last` (hundredths): an exact score as it is; an estimate as
/// the mean of the last two iterations when they are consecutive depths
/// (one odd, one even), else `last`.
#[must_use]
pub fn mean_of_last_two(scores: &[(u32, Score)], last: Score) -> i32 {
    let Score::Estimate(c) = last else {
        return score_of(last);
    };
    let mut estimates = scores.iter().rev().filter_map(|&(depth, s)| match s {
        Score::Estimate(v) => Some((depth, v)),
        Score::Exact(_) => None,
    });
    match (estimates.next(), estimates.next()) {
        (Some((d2, b)), Some((d1, a))) if d1 + 1 == d2 => (a + b).div_euclid(2),
        _ => c,
    }
}

/// The labelled positions of game number `index` (a fresh table for each
/// game, so the labels do not depend on which games a thread saw before).
pub fn relabel_game(
    engine: &mut Engine,
    game: &GameRecord,
    index: usize,
    config: &RelabelConfig,
) -> Vec<Labelled> {
    engine.clear();
    drawn_positions(game, index, config)
        .iter()
        .map(|p| Labelled {
            game: index,
            player: p.player(),
            opponent: p.opponent(),
            score: label(engine, p, config),
            line: None,
        })
        .collect()
}

/// The colour-free position of a labelled line (Black to move).
#[must_use]
pub fn position_of(l: &Labelled) -> Position {
    Position::from_side_relative(l.player, l.opponent, Color::Black, BoardSize::Eight)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole game: two random plies, then depth 1, exact from 4 empties.
    fn game() -> GameRecord {
        let config = super::super::selfplay::SelfPlayConfig {
            depth: 1,
            exact: 4,
            random_min: 2,
            random_max: 2,
            seed: 3,
        };
        super::super::selfplay::play_game(&mut Engine::new(1), &config, 0)
    }

    /// `engine`'s score of `p` under `rules` and `limits`.
    fn search(engine: &mut Engine, p: &Position, rules: &Rules, limits: &Limits) -> Score {
        let never = AtomicBool::new(false);
        engine
            .search(p, rules, limits, &never, 0, &mut |_| {})
            .score
    }

    fn config() -> RelabelConfig {
        RelabelConfig {
            depth: 2,
            exact: 8,
            per_game: 5,
            min_empties: 0,
            max_empties: 54,
            seed: 1,
            selectivity: 0,
            random_plies: 0,
            mean_of_two: false,
        }
    }

    #[test]
    fn lines_round_trip() {
        let g = game();
        let mut e = Engine::new(1);
        let labelled = relabel_game(&mut e, &g, 7, &config());
        assert_eq!(labelled.len(), 5);
        for l in &labelled {
            assert_eq!(
                Labelled::parse_line(&l.to_line()),
                Some(*l),
                "{}",
                l.to_line()
            );
        }
        let neg = Labelled {
            score: -5,
            ..labelled[0]
        };
        assert!(neg.to_line().ends_with(" -0.05"));
        assert_eq!(Labelled::parse_line(&neg.to_line()), Some(neg));
        let with_line = Labelled {
            line: Some(-1250),
            ..neg
        };
        assert!(with_line.to_line().ends_with(" -0.05 -12.50"));
        assert_eq!(Labelled::parse_line(&with_line.to_line()), Some(with_line));
        let board = "-".repeat(64);
        for bad in [
            "",
            "1 XO 3",
            "x ---- 1",
            &format!("1 {} 1", "Z".repeat(64)),
            &format!("1 {board} 1 x"),
            &format!("1 {board} 1 2 3"),
            &format!("1 {board} 65"),
            &format!("1 {board} 1 -64.5"),
            &format!("1 {board} NaN"),
        ] {
            assert_eq!(Labelled::parse_line(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_target_blends_the_line_value_in() {
        let l = Labelled {
            game: 0,
            player: 1,
            opponent: 2,
            score: 400,
            line: Some(-1200),
        };
        assert_eq!(l.target(0.0), 4.0);
        assert_eq!(l.target(1.0), -12.0);
        assert_eq!(l.target(0.25), 0.0);
        let plain = Labelled { line: None, ..l };
        assert_eq!(plain.target(0.75), 4.0);
    }

    #[test]
    fn the_draw_is_reproducible_and_within_the_settings() {
        let g = game();
        let c = config();
        let a = drawn_positions(&g, 3, &c);
        assert_eq!(a, drawn_positions(&g, 3, &c));
        assert_ne!(a, drawn_positions(&g, 4, &c));
        for p in &a {
            assert!(p.empties().count() <= 54 && p.has_legal_move());
        }
        let all = RelabelConfig { per_game: 100, ..c };
        let every = drawn_positions(&g, 3, &all);
        assert!(every.len() > a.len());
        assert!(a.iter().all(|p| every.contains(p)));
    }

    #[test]
    fn random_plies_walk_off_the_drawn_positions_reproducibly() {
        let g = game();
        let c = config();
        let drawn = drawn_positions(&g, 3, &c);
        let walked_config = RelabelConfig {
            random_plies: 4,
            ..c
        };
        let walked = drawn_positions(&g, 3, &walked_config);
        assert_eq!(walked, drawn_positions(&g, 3, &walked_config));
        assert_eq!(walked.len(), drawn.len());
        let mut moved = 0;
        for (d, w) in drawn.iter().zip(&walked) {
            let (de, we) = (d.empties().count(), w.empties().count());
            // At most four placements (passes place nothing) and a move left.
            assert!(we <= de && de - we <= 4, "{de} {we}");
            assert!(w.has_legal_move());
            // Discs only accumulate: every occupied square stays occupied.
            assert_eq!(!d.empties().0 & w.empties().0, 0);
            moved += usize::from(d != w);
        }
        assert!(moved > 0, "some walks move");
        assert!(walked_config.header().ends_with(" random-plies=4"));
        assert!(!c.header().contains("random-plies"));
    }

    #[test]
    fn labels_within_the_exact_range_are_exact_scores() {
        let g = game();
        let c = RelabelConfig {
            min_empties: 0,
            max_empties: 8,
            per_game: 3,
            ..config()
        };
        let mut e = Engine::new(1);
        let rules = Rules {
            scoring: Scoring::EmptiesToNobody,
            ..Rules::standard(BoardSize::Eight)
        };
        for l in relabel_game(&mut e, &g, 0, &c) {
            let exact = search(&mut e, &position_of(&l), &rules, &Limits::exact());
            assert_eq!(Score::Exact(l.score / 100), exact);
            assert_eq!(l.score % 100, 0);
        }
    }

    #[test]
    fn a_mean_of_two_label_is_the_mean_of_fresh_searches_at_both_depths() {
        let g = game();
        let c = RelabelConfig {
            depth: 3,
            min_empties: 20,
            max_empties: 54,
            per_game: 4,
            mean_of_two: true,
            ..config()
        };
        assert!(c.header().ends_with(" label=mean2"));
        assert!(!config().header().contains("label="));
        let last = RelabelConfig {
            mean_of_two: false,
            ..c
        };
        let mut e = Engine::new(1);
        let means = relabel_game(&mut e, &g, 2, &c);
        let lasts = relabel_game(&mut e, &g, 2, &last);
        assert_eq!(means.len(), 4);
        let mut differ = 0;
        for (m, l) in means.iter().zip(&lasts) {
            assert_eq!((m.player, m.opponent), (l.player, l.opponent));
            let p = position_of(m);
            let fresh = |d| {
                let (rules, limits) = label_search(d, c.exact, c.selectivity);
                search(&mut Engine::new(1), &p, &rules, &limits)
            };
            let (Score::Estimate(c2), Score::Estimate(c3)) = (fresh(2), fresh(3)) else {
                panic!("no solve above 8 empties");
            };
            assert_eq!(l.score, c3);
            assert_eq!(m.score, (c2 + c3).div_euclid(2), "{}", m.to_line());
            differ += usize::from(c2 != c3);
        }
        assert!(differ > 0, "the two depths disagree somewhere");
    }

    #[test]
    fn the_mean_of_two_needs_two_consecutive_estimates() {
        let e = Score::Estimate;
        assert_eq!(mean_of_last_two(&[(1, e(10)), (2, e(31))], e(31)), 20);
        assert_eq!(mean_of_last_two(&[(1, e(-10)), (2, e(-31))], e(-31)), -21);
        // Depths that are not consecutive, or a single one: the last score.
        assert_eq!(mean_of_last_two(&[(2, e(10)), (4, e(30))], e(30)), 30);
        assert_eq!(mean_of_last_two(&[(4, e(30))], e(30)), 30);
        // An exact score is its own label, whatever came before.
        assert_eq!(
            mean_of_last_two(
                &[(1, e(10)), (2, e(30)), (60, Score::Exact(4))],
                Score::Exact(4)
            ),
            400
        );
    }
}
