//! Game-by-game comparison of two match runs over the same openings.
//!
//! Two runs of `reversi match` that differ in one player only (new weights,
//! another setting) against the same opponent, from the same openings with
//! the same colours, can be compared pair by pair: game `i` of one run
//! against game `i` of the other. Most pairs end alike, so the difference
//! of the scores has a far smaller error than either score alone (a paired
//! test). Games are compared from the point of view of the *tested*
//! player of each run: the one that is not the common opponent.

use super::stats::mean_and_sd;
use crate::notation::ggf::Record;
use crate::rules::{Color, Move, Outcome};
use std::collections::BTreeSet;

/// Why two runs cannot be compared game by game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    /// The runs hold different numbers of games.
    #[error(
        "the runs hold {first} and {second} games; a game-by-game comparison needs the same games"
    )]
    Count {
        /// Games in the first run.
        first: usize,
        /// Games in the second run.
        second: usize,
    },
    /// A run holds no game.
    #[error("no games to compare")]
    Empty,
    /// No player takes part in both runs.
    #[error("no player takes part in both runs, so there is no common opponent")]
    NoOpponent,
    /// Both players of the runs are the same: which one is the opponent?
    #[error("both runs are between {0} and {1}: name the opponent (--opponent)")]
    Ambiguous(String, String),
    /// The named opponent does not play in both runs.
    #[error("{0} does not play in both runs")]
    UnknownOpponent(String),
    /// A game has no result.
    #[error("game {game} of the {run} run is not over and has no result")]
    Unfinished {
        /// Game number, from 1.
        game: usize,
        /// "first" or "second".
        run: &'static str,
    },
    /// Game `game` starts from another position or opening in the two runs.
    #[error("game {0} starts from different openings in the two runs")]
    Opening(usize),
    /// The opponent is not in game `game` of both runs, or has another colour.
    #[error("in game {0} the opponent does not play the same colour in both runs")]
    Colour(usize),
}

/// One run's result for its tested player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The tested player's name (in the first game).
    pub player: String,
    /// Games won, drawn and lost by the tested player.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses.
    pub losses: usize,
}

impl Tally {
    /// The score as a fraction of the games.
    #[must_use]
    pub fn score(&self) -> f64 {
        let n = (self.wins + self.draws + self.losses).max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }
}

/// The comparison of two runs, the first against the second.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The common opponent.
    pub opponent: String,
    /// Each run's result for its tested player.
    pub runs: [Tally; 2],
    /// Games paired.
    pub games: usize,
    /// The first run's points less the second's, summed over the games.
    pub points: f64,
    /// Half-width of the 95 % interval of `points`.
    pub points_ci: f64,
    /// Mean of the per-game differences of the tested players' disc margins.
    pub margin: f64,
    /// Half-width of the 95 % interval of `margin`.
    pub margin_ci: f64,
    /// Games whose result (win, draw or loss) differs between the runs.
    pub differing: usize,
}

/// Compares `first` with `second` game by game (see the module docs).
/// `opponent` names the common opponent when both runs have the same two
/// players; otherwise it is the one player found in both runs.
///
/// # Errors
/// [`PairError`] when the runs do not hold the same games: another count,
/// another opening or start position, the opponent at another colour, or
/// a game without a result.
pub fn compare(
    first: &[Record],
    second: &[Record],
    opponent: Option<&str>,
) -> Result<Comparison, PairError> {
    if first.len() != second.len() {
        return Err(PairError::Count {
            first: first.len(),
            second: second.len(),
        });
    }
    if first.is_empty() {
        return Err(PairError::Empty);
    }
    let opponent = common_opponent(first, second, opponent)?;
    let mut runs = [Tally::default(), Tally::default()];
    let (mut points, mut margins) = (Vec::new(), Vec::new());
    for (i, (a, b)) in first.iter().zip(second).enumerate() {
        let game = i + 1;
        if a.game.start() != b.game.start() || opening(a) != opening(b) {
            return Err(PairError::Opening(game));
        }
        let colour = opponent_colour(a, &opponent)
            .filter(|c| opponent_colour(b, &opponent) == Some(*c))
            .ok_or(PairError::Colour(game))?;
        let tested = colour.opponent();
        let mut pair = [(0.0, 0); 2];
        for (k, (record, run)) in [(a, "first"), (b, "second")].into_iter().enumerate() {
            let outcome = outcome(record).ok_or(PairError::Unfinished { game, run })?;
            let margin = match tested {
                Color::Black => outcome.black_margin(),
                Color::White => -outcome.black_margin(),
            };
            let tally = &mut runs[k];
            if i == 0 {
                tally.player = name(record, tested).to_string();
            }
            match margin.signum() {
                1 => tally.wins += 1,
                0 => tally.draws += 1,
                _ => tally.losses += 1,
            }
            pair[k] = (f64::from(margin.signum() + 1) / 2.0, margin);
        }
        points.push(pair[0].0 - pair[1].0);
        margins.push(f64::from(pair[0].1 - pair[1].1));
    }
    let n = points.len();
    let (dp, sp) = mean_and_sd(&points);
    let (dm, sm) = mean_and_sd(&margins);
    let root = (n as f64).sqrt();
    Ok(Comparison {
        opponent,
        runs,
        games: n,
        points: dp * n as f64,
        points_ci: 1.96 * sp * root,
        margin: dm,
        margin_ci: 1.96 * sm / root,
        differing: points.iter().filter(|&&d| d != 0.0).count(),
    })
}

/// The common opponent: `named` if it plays in both runs, else the one
/// player found in both.
fn common_opponent(
    first: &[Record],
    second: &[Record],
    named: Option<&str>,
) -> Result<String, PairError> {
    let names = |run: &[Record]| -> BTreeSet<String> {
        run.iter()
            .flat_map(|r| [r.black.clone(), r.white.clone()])
            .collect()
    };
    let (one, two) = (names(first), names(second));
    let common: Vec<&String> = one.intersection(&two).collect();
    match (named, common.as_slice()) {
        (Some(n), _) if common.iter().any(|c| c.as_str() == n) => Ok(n.to_string()),
        (Some(n), _) => Err(PairError::UnknownOpponent(n.to_string())),
        (None, [only]) => Ok((*only).clone()),
        (None, []) => Err(PairError::NoOpponent),
        (None, [x, y, ..]) => Err(PairError::Ambiguous((*x).clone(), (*y).clone())),
    }
}

/// The moves made before the first timed one: the opening a match game
/// started from (all the moves when none is timed).
fn opening(record: &Record) -> &[Move] {
    let moves = record.game.moves();
    let played = record
        .notes
        .iter()
        .position(|n| n.time.is_some())
        .unwrap_or(moves.len());
    &moves[..played.min(moves.len())]
}

/// The colour `name` plays in `record`, if it plays (Black when it plays
/// both sides).
fn opponent_colour(record: &Record, name: &str) -> Option<Color> {
    if record.black == name {
        Some(Color::Black)
    } else if record.white == name {
        Some(Color::White)
    } else {
        None
    }
}

fn name(record: &Record, colour: Color) -> &str {
    match colour {
        Color::Black => &record.black,
        Color::White => &record.white,
    }
}

/// The written result (a forfeit's included), else the board's.
fn outcome(record: &Record) -> Option<Outcome> {
    record.result.or_else(|| record.final_outcome())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::ggf::MoveNote;
    use crate::rules::{Game, Rules};

    /// A finished game: `moves` from the start (the first `opening` untimed),
    /// then a game between two fixed strategies to the end, with `black` and
    /// `white` as the players' names.
    fn game(opening_moves: &[&str], first_legal: bool, black: &str, white: &str) -> Record {
        let mut g = Game::new(Rules::default());
        let mut notes = Vec::new();
        for m in opening_moves {
            let mv = crate::notation::parse_move(m).unwrap();
            g.play(mv).unwrap();
            notes.push(MoveNote::default());
        }
        while !g.position().is_game_over() {
            let moves = g.position().moves_list();
            let mv = if first_legal {
                moves[0]
            } else {
                moves[moves.len() - 1]
            };
            g.play(mv).unwrap();
            notes.push(MoveNote {
                eval: None,
                time: Some(0.01),
            });
        }
        let mut r = Record::new(g);
        r.black = black.into();
        r.white = white.into();
        r.notes = notes;
        r
    }

    fn pair_run(tested: &str, strategies: &[bool]) -> Vec<Record> {
        strategies
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                if i % 2 == 0 {
                    game(&["f5", "d6"], s, tested, "B")
                } else {
                    game(&["f5", "d6"], s, "B", tested)
                }
            })
            .collect()
    }

    #[test]
    fn a_run_against_itself_differs_by_nothing() {
        let run = pair_run("A", &[true, false, true, false]);
        let other = pair_run("A2", &[true, false, true, false]);
        let c = compare(&run, &other, None).unwrap();
        assert_eq!(c.opponent, "B");
        assert_eq!(
            (c.points, c.points_ci, c.margin, c.differing),
            (0.0, 0.0, 0.0, 0)
        );
        assert_eq!(c.runs[0].player, "A");
        assert_eq!(c.runs[1].player, "A2");
        assert_eq!(
            c.runs[0],
            Tally {
                player: "A".into(),
                ..c.runs[1].clone()
            }
        );
    }

    #[test]
    fn the_difference_is_the_sum_of_the_pairs_and_swapping_negates_it() {
        let one = pair_run("A", &[true, true, false, false]);
        let two = pair_run("C", &[false, true, true, false]);
        let c = compare(&one, &two, None).unwrap();
        let points = |run: &[Record], tested: &str| -> Vec<f64> {
            run.iter()
                .map(|r| {
                    let m = outcome(r).unwrap().black_margin();
                    let m = if r.black == tested { m } else { -m };
                    f64::from(m.signum() + 1) / 2.0
                })
                .collect()
        };
        let (p1, p2) = (points(&one, "A"), points(&two, "C"));
        let expected: f64 = p1.iter().zip(&p2).map(|(a, b)| a - b).sum();
        assert!((c.points - expected).abs() < 1e-9);
        assert_eq!(
            c.differing,
            p1.iter().zip(&p2).filter(|(a, b)| a != b).count()
        );
        let back = compare(&two, &one, None).unwrap();
        assert!((back.points + c.points).abs() < 1e-9);
        assert!((back.margin + c.margin).abs() < 1e-9);
        assert!((back.points_ci - c.points_ci).abs() < 1e-9);
        let score = |t: &Tally| t.score() * 4.0;
        assert!((score(&c.runs[0]) - p1.iter().sum::<f64>()).abs() < 1e-9);
    }

    #[test]
    fn runs_of_other_games_are_refused() {
        let one = pair_run("A", &[true, false]);
        assert_eq!(
            compare(&one, &one[..1], None),
            Err(PairError::Count {
                first: 2,
                second: 1
            })
        );
        assert_eq!(compare(&[], &[], None), Err(PairError::Empty));
        let other_opening = vec![
            game(&["f5", "f6"], true, "C", "B"),
            game(&["f5", "d6"], false, "B", "C"),
        ];
        assert_eq!(
            compare(&one, &other_opening, None),
            Err(PairError::Opening(1))
        );
        let colours = vec![
            game(&["f5", "d6"], true, "B", "C"),
            game(&["f5", "d6"], false, "B", "C"),
        ];
        assert_eq!(compare(&one, &colours, None), Err(PairError::Colour(1)));
        let strangers = pair_run("X", &[true, false])
            .into_iter()
            .map(|mut r| {
                for n in [&mut r.black, &mut r.white] {
                    if n == "B" {
                        *n = "Y".into();
                    }
                }
                r
            })
            .collect::<Vec<_>>();
        assert_eq!(compare(&one, &strangers, None), Err(PairError::NoOpponent));
        assert!(matches!(
            compare(&one, &one, None),
            Err(PairError::Ambiguous(..))
        ));
        let same = compare(&one, &one, Some("B")).unwrap();
        assert_eq!((same.points, same.differing), (0.0, 0));
        assert_eq!(
            compare(&one, &one, Some("Z")),
            Err(PairError::UnknownOpponent("Z".into()))
        );
    }

    #[test]
    fn an_unfinished_game_is_named() {
        let one = pair_run("A", &[true, false]);
        let mut two = pair_run("C", &[true, false]);
        let g = &mut two[1].game;
        g.jump(10);
        g.truncate();
        two[1].notes.truncate(10);
        two[1].result = None;
        assert_eq!(
            compare(&one, &two, None),
            Err(PairError::Unfinished {
                game: 2,
                run: "second"
            })
        );
    }
}
