//! Engine matches: plays games between two players (built-in AI
//! configurations, the reference players of [`crate::ai::Reference`] or
//! external NBoard engines) from balanced openings, colours swapped, and sums
//! up the result with statistics (score, mean disc difference with a
//! confidence interval, Elo difference with an error bar).
//!
//! Every move an external engine sends is checked by our rules; an illegal move,
//! a crash or a time-out loses that game and is reported, never a hang.
//!
//! * [`spec`] — who plays: a [`PlayerSpec`] read from `--a`/`--b`;
//! * `external` — an NBoard engine as a child process;
//! * [`times`] — the time each player took, move by move;
//! * [`stats`] — the [`Summary`] of a match;
//! * `balance` — openings a judge search finds even ([`balanced_openings`]);
//! * [`paired`] — two players compared on the same openings, pair by pair.

use crate::ai::{Engine, Limits, Reference};
use crate::notation::ggf::{EndedEarly, MoveNote, Record, forfeit_outcome};
use crate::random;
use crate::rules::{BoardSize, Color, Game, Move, Position, Rules};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

mod balance;
mod external;
pub mod paired;
pub mod spec;
pub mod stats;
pub mod times;
pub use balance::{BalanceConfig, Judged, balanced_openings};
pub use external::check_engine;
pub use spec::{EvalSpec, PlayerSpec, SpecError};
pub use stats::{Summary, summarize};
pub use times::MoveTimes;

use external::External;

/// How a game ended for the side that lost by forfeit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Forfeit {
    /// It sent an illegal or unreadable move.
    #[error("illegal move {0}")]
    Illegal(String),
    /// It did not answer in time.
    #[error("no answer in time")]
    Timeout,
    /// It exited or could not be started.
    #[error("{0}")]
    Crashed(String),
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Index of the opening (0-based).
    pub opening: usize,
    /// Whether player A had Black.
    pub a_is_black: bool,
    /// The game as played.
    pub game: Game,
    /// Disc margin for player A (a forfeit counts as a loss by 64, or 36 on 6×6).
    pub a_margin: i32,
    /// Which player forfeited and why, if one did: (`true` for A, reason).
    pub forfeit: Option<(bool, Forfeit)>,
    /// The time A and B took for their moves.
    pub times: [MoveTimes; 2],
    /// Per move of `game` (the opening's moves without): the mover's own
    /// evaluation, when its engine gave one, and the time it took.
    pub notes: Vec<MoveNote>,
}

impl GameResult {
    /// 1 for an A win, 0.5 for a draw, 0 for a loss.
    #[must_use]
    pub fn a_points(&self) -> f64 {
        match self.a_margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }
    }
}

/// The openings: `count` distinct positions reached by `plies` random legal
/// moves from the start, drawn from `seed`.
#[must_use]
pub fn random_openings(size: BoardSize, plies: usize, count: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut rng = random::seeded(seed);
    let mut attempts = 0;
    while out.len() < count && attempts < count * 1000 + 1000 {
        attempts += 1;
        let mut pos = Position::initial(size);
        let mut moves = Vec::new();
        for _ in 0..plies {
            let Some(&mv) = random::pick(&mut rng, &pos.moves_list()) else {
                break;
            };
            pos = pos.play_unchecked(mv);
            moves.push(mv);
        }
        if !pos.is_game_over() && seen.insert(pos) {
            out.push(moves);
        }
    }
    out
}

/// One side during a game.
enum Side {
    Builtin(Box<Engine>, Limits),
    External(External),
    Reference(Reference),
}

/// Settings shared by all games of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Player A.
    pub a: PlayerSpec,
    /// Player B.
    pub b: PlayerSpec,
    /// Rules of every game.
    pub rules: Rules,
    /// Time allowed to an external engine for one move (and its start-up).
    pub timeout: Duration,
    /// Hash size per built-in engine, MiB.
    pub hash_mb: usize,
    /// Seed for the built-in engines' randomness.
    pub seed: u64,
}

fn start_side(spec: &PlayerSpec, config: &MatchConfig) -> Result<Side, Forfeit> {
    match spec {
        PlayerSpec::Builtin { limits, eval, .. } => {
            let mut engine = Engine::new(config.hash_mb);
            eval.apply_to(&mut engine);
            Ok(Side::Builtin(Box::new(engine), *limits))
        }
        PlayerSpec::External { command } => {
            External::start(command, config.timeout).map(Side::External)
        }
        PlayerSpec::Reference(r) => Ok(Side::Reference(*r)),
    }
}

/// Plays game number `game` of a match from `opening`, A as Black when
/// `a_is_black`; the players' draws come from the match seed and `game`, so
/// two games of one opening (the standard start, say) differ where the
/// players have a choice.
#[must_use]
pub fn play_game(
    config: &MatchConfig,
    game_number: usize,
    opening_index: usize,
    opening: &[Move],
    a_is_black: bool,
) -> GameResult {
    let mut game = Game::new(config.rules);
    for &mv in opening {
        if game.play(mv).is_err() {
            break;
        }
    }
    let squares = config.rules.size.squares() as i32;
    let forfeit = |game: Game, a_lost: bool, why: Forfeit| GameResult {
        opening: opening_index,
        a_is_black,
        game,
        a_margin: if a_lost { -squares } else { squares },
        forfeit: Some((a_lost, why)),
        times: Default::default(),
        notes: Vec::new(),
    };
    let mut a = match start_side(&config.a, config) {
        Ok(s) => s,
        Err(why) => return forfeit(game, true, why),
    };
    let mut b = match start_side(&config.b, config) {
        Ok(s) => s,
        Err(why) => return forfeit(game, false, why),
    };
    let stop = AtomicBool::new(false);
    let mut ply_seed = config.seed ^ (game_number as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
    let mut times: [MoveTimes; 2] = Default::default();
    let mut notes = vec![MoveNote::default(); game.len()];
    while !game.position().is_game_over() {
        let a_to_move = (game.side_to_move() == Color::Black) == a_is_black;
        let side = if a_to_move { &mut a } else { &mut b };
        ply_seed = ply_seed.wrapping_add(1);
        let empties = game.position().empties().count();
        let started = Instant::now();
        let chosen = match side {
            Side::Builtin(engine, limits) => {
                let r = engine.search(
                    &game.position(),
                    &config.rules,
                    limits,
                    &stop,
                    ply_seed,
                    &mut |_| {},
                );
                Ok((r.best_move, Some(r.score.discs())))
            }
            Side::External(ext) => ext.choose(&game, config.timeout),
            Side::Reference(r) => {
                let mut rng = random::seeded(ply_seed);
                Ok((r.choose(&game.position(), &mut rng), None))
            }
        };
        let took = started.elapsed();
        times[usize::from(!a_to_move)].add(empties, took);
        match chosen {
            Ok((mv, eval)) => {
                if let Err(e) = game.play(mv) {
                    let why = Forfeit::Illegal(format!("{mv}: {e}"));
                    return GameResult {
                        times,
                        notes,
                        ..forfeit(game, a_to_move, why)
                    };
                }
                notes.push(MoveNote {
                    eval: eval.filter(|_| mv != Move::Pass),
                    time: Some(took.as_secs_f64()),
                });
            }
            Err(why) => {
                return GameResult {
                    times,
                    notes,
                    ..forfeit(game, a_to_move, why)
                };
            }
        }
    }
    let outcome = config.rules.score(&game.position());
    let black_margin = outcome.black_margin();
    let a_margin_raw = if a_is_black {
        black_margin
    } else {
        -black_margin
    };
    // In Anti Reversi the winner has fewer discs: count the margin for the winner.
    let a_margin = if config.rules.anti {
        -a_margin_raw
    } else {
        a_margin_raw
    };
    GameResult {
        opening: opening_index,
        a_is_black,
        game,
        a_margin,
        forfeit: None,
        times,
        notes,
    }
}

/// Plays `games` games of `config` on up to `threads` threads: game `g`
/// starts from opening `(g / 2) % openings.len()` with A as Black when `g` is
/// even. `report` sees each result as it finishes, with all finished so far
/// (in finishing order, the new one last); its error stops the match. The
/// results come back in game order, each reproducible from the seed whatever
/// the threads.
///
/// # Errors
/// The first error of `report`.
pub fn play_match<E>(
    config: &MatchConfig,
    openings: &[Vec<Move>],
    games: usize,
    threads: usize,
    mut report: impl FnMut(&[GameResult]) -> Result<(), E>,
) -> Result<Vec<GameResult>, E> {
    if openings.is_empty() {
        return Ok(Vec::new());
    }
    let mut slots: Vec<Option<GameResult>> = vec![None; games];
    let mut finished = Vec::new();
    let play = |(): &mut (), g: usize| {
        let o = (g / 2) % openings.len();
        play_game(config, g, o, &openings[o], g.is_multiple_of(2))
    };
    let never = AtomicBool::new(false);
    crate::parallel::run(
        0..games,
        threads,
        &never,
        || (),
        play,
        |g, r| {
            finished.push(r.clone());
            slots[g] = Some(r);
            report(&finished)
        },
    )?;
    Ok(slots.into_iter().flatten().collect())
}

/// The game of a result as a GGF record with player names.
#[must_use]
pub fn record_of(result: &GameResult, a_name: &str, b_name: &str) -> Record {
    let mut record = Record::new(result.game.clone());
    let (black, white) = if result.a_is_black {
        (a_name, b_name)
    } else {
        (b_name, a_name)
    };
    record.black = black.to_string();
    record.white = white.to_string();
    record.place = "reversi match".into();
    if result.notes.len() == record.game.len() {
        record.notes.clone_from(&result.notes);
    }
    if let Some((a_lost, why)) = &result.forfeit {
        let a_color = if result.a_is_black {
            Color::Black
        } else {
            Color::White
        };
        let winner = if *a_lost { a_color.opponent() } else { a_color };
        record.result = Some(forfeit_outcome(result.game.rules(), winner));
        record.ended_early = Some(match why {
            Forfeit::Timeout => EndedEarly::Time,
            Forfeit::Illegal(_) | Forfeit::Crashed(_) => EndedEarly::Forfeit,
        });
    }
    record
}
