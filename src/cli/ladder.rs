//! `reversi bench --ladder`: re-measures the level ladder. Every level plays
//! `greedy` (the most-flips reference player) and the level below, from the
//! same balanced random openings with colours swapped, and one markdown
//! table row per level gives the scores, the Elo differences with their 95 %
//! intervals and the level's time per move (mean and longest).
//!
//! The strong levels win nearly every game against `greedy` and are costly:
//! `greedy_up_to` leaves them out of that match.

use super::UserError;
use crate::ai::Level;
use crate::ai::Reference;
use crate::arena::{self, GameResult, MatchConfig, MoveTimes, PlayerSpec, Summary};
use crate::rules::{BoardSize, Move, Rules};
use std::io::Write;
use std::time::Duration;

/// Hash table size of each engine in the ladder's games, MiB.
const HASH_MB: usize = 16;
/// Random plies of the openings (as `reversi match`).
const OPENING_PLIES: usize = 8;

/// What to measure.
#[derive(Clone, Copy, Debug)]
pub struct LadderRun {
    /// The weakest and the strongest level measured.
    pub levels: (Level, Level),
    /// Games per match.
    pub games: usize,
    /// Games played at once.
    pub threads: usize,
    /// Seed of the openings and the players' randomness.
    pub seed: u64,
    /// The strongest level that plays `greedy`.
    pub greedy_up_to: Level,
}

/// Reads `FROM-TO` (or a single level `N`) as a range of levels.
///
/// # Errors
/// A message naming what is not a level, or a range going down.
pub fn parse_levels(text: &str) -> Result<(Level, Level), String> {
    let (from, to) = match text.split_once('-') {
        Some((a, b)) => (parse_level(a)?, parse_level(b)?),
        None => (parse_level(text)?, parse_level(text)?),
    };
    if from > to {
        return Err(format!("`{text}`: the range goes down"));
    }
    Ok((from, to))
}

/// Reads a level (number or name) with [`Level`]'s `FromStr`.
///
/// # Errors
/// The one message naming what is not a level.
pub fn parse_level(text: &str) -> Result<Level, String> {
    text.parse::<Level>().map_err(|e| e.to_string())
}

fn level_spec(level: Level) -> PlayerSpec {
    PlayerSpec::Builtin {
        name: format!("level:{}", level.number()),
        limits: level.limits(),
        eval: arena::EvalSpec::Default,
    }
}

/// One match of the ladder: its summary, and the time per move of A.
fn measure(
    a: PlayerSpec,
    b: PlayerSpec,
    openings: &[Vec<Move>],
    run: &LadderRun,
) -> (Summary, MoveTimes) {
    let config = MatchConfig {
        a,
        b,
        rules: Rules::standard(BoardSize::Eight),
        timeout: Duration::from_secs(10),
        hash_mb: HASH_MB,
        seed: run.seed,
    };
    let results: Vec<GameResult> =
        arena::play_match(&config, openings, run.games, run.threads, |_| {
            Ok::<(), std::convert::Infallible>(())
        })
        .unwrap_or_else(|never| match never {});
    let s = arena::summarize(&results);
    let times = s.times[0].clone();
    (s, times)
}

/// "52.5 % (+50 =5 −45), +17 ± 67" for a summary of `games` games.
fn cells(s: &Summary, games: usize) -> String {
    let points = s.wins as f64 + s.draws as f64 / 2.0;
    format!(
        "{games} | {:.1} % (+{} ={} −{}) | {:+.0} ± {:.0}",
        100.0 * points / games.max(1) as f64,
        s.wins,
        s.draws,
        s.losses,
        s.elo,
        s.elo_error
    )
}

/// Runs the ladder, printing the table row by row.
///
/// # Errors
/// Only on a failure to write to `out`.
pub fn run(run: &LadderRun, out: &mut impl Write) -> Result<(), UserError> {
    let openings = arena::random_openings(
        BoardSize::Eight,
        OPENING_PLIES,
        run.games.div_ceil(2),
        run.seed,
    );
    writeln!(
        out,
        "ladder: levels {} to {}, {} games per match (colours swapped), seed {}, \
         {} at once",
        run.levels.0.number(),
        run.levels.1.number(),
        run.games,
        run.seed,
        run.threads
    )?;
    writeln!(
        out,
        "| level | games | vs greedy | Elo vs greedy | games | vs the level below | Elo vs below | time/move mean | time/move max |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|---|---|---|")?;
    out.flush()?;
    let greedy = PlayerSpec::Reference(Reference::Greedy);
    for level in Level::ALL
        .into_iter()
        .filter(|l| (run.levels.0..=run.levels.1).contains(l))
    {
        let mut times = MoveTimes::default();
        let vs_greedy = if level > run.greedy_up_to {
            "— | not played | —".to_string()
        } else {
            let (s, c) = measure(level_spec(level), greedy.clone(), &openings, run);
            times = times.merge(&c);
            cells(&s, run.games)
        };
        let below = match Level::new(level.number() - 1) {
            Some(b) => {
                let (s, c) = measure(level_spec(level), level_spec(b), &openings, run);
                times = times.merge(&c);
                cells(&s, run.games)
            }
            None => "— | — | —".to_string(),
        };
        writeln!(
            out,
            "| {} {} | {vs_greedy} | {below} | {:.2} ms | {:.0} ms |",
            level.number(),
            level.name(),
            times.mean().as_secs_f64() * 1e3,
            times.max().as_secs_f64() * 1e3
        )?;
        out.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_ranges_parse() {
        let l = |n| Level::new(n).unwrap();
        assert_eq!(parse_levels("1-3"), Ok((l(1), l(3))));
        assert_eq!(parse_levels("4"), Ok((l(4), l(4))));
        assert!(parse_levels("3-1").is_err());
        assert!(parse_levels("0-2").is_err());
        assert!(parse_levels("x").is_err());
        assert_eq!(parse_level(" 12 "), Ok(Level::MAX));
        assert!(parse_level("13").is_err());
    }
}
