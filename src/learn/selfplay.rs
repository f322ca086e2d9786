//! Self-play games for training the pattern evaluation.
//!
//! Each game starts with a number of uniformly random legal moves (drawn
//! between `random_min` and `random_max`), then both sides are played by the
//! engine at a fixed depth with an exact solve from `exact` empties, without
//! noise. Game `i` depends only on (`seed`, `i`) and the engine settings, so an
//! interrupted run resumes where it stopped and gives the same file.
//!
//! ## The file format (text, one game per line)
//!
//! ```text
//! # reversi selfplay v2 depth=8 exact=18 random=10..20 seed=1
//! 14 f5d6c3d3c4f4f6f3e6e7d7c5b6e3c6b5… -6
//! ```
//!
//! The header names the settings; a resumed run must use the same ones. A game
//! line is the number of random opening plies, the moves with passes omitted
//! (they are re-derived), and Black's final disc margin (empties counted for
//! nobody). A line cut short by a kill is dropped on resume. About 130 bytes
//! per game.

use crate::ai::{Engine, Limits};
use crate::notation::parse_transcript;
use crate::random;
use crate::rules::{BoardSize, Move, Position, Rules, Scoring};
use std::sync::atomic::AtomicBool;

/// Settings of a self-play run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfPlayConfig {
    /// Midgame search depth of both sides.
    pub depth: u32,
    /// Empties from which the engine solves exactly.
    pub exact: u32,
    /// Fewest random opening plies.
    pub random_min: u32,
    /// Most random opening plies.
    pub random_max: u32,
    /// Seed of the openings.
    pub seed: u64,
}

impl SelfPlayConfig {
    /// The header line of a file of these games (without the newline).
    #[must_use]
    pub fn header(&self) -> String {
        format!(
            "# reversi selfplay v2 depth={} exact={} random={}..{} seed={}",
            self.depth, self.exact, self.random_min, self.random_max, self.seed
        )
    }
}

/// One finished self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// How many of the first moves were random.
    pub random_plies: u32,
    /// All moves, passes included.
    pub moves: Vec<Move>,
    /// Black's final disc margin (empties count for nobody).
    pub margin: i32,
}

impl GameRecord {
    /// The game as one line of the file format (without the newline).
    #[must_use]
    pub fn to_line(&self) -> String {
        let mut s = format!("{} ", self.random_plies);
        for m in &self.moves {
            if let Move::Place(sq) = m {
                s.push_str(&sq.to_string());
            }
        }
        s.push_str(&format!(" {:+}", self.margin));
        s
    }

    /// Parses one game line; `None` when it is malformed, illegal or cut short.
    #[must_use]
    pub fn parse_line(line: &str) -> Option<GameRecord> {
        let mut parts = line.split_ascii_whitespace();
        let random_plies: u32 = parts.next()?.parse().ok()?;
        let moves_text = parts.next()?;
        let margin: i32 = parts.next()?.parse().ok()?;
        if parts.next().is_some() {
            return None;
        }
        let start = Position::initial(BoardSize::Eight);
        let moves = parse_transcript(moves_text, &start).ok()?;
        let mut p = start;
        for &m in &moves {
            p = p.play(m).ok()?;
        }
        let black = black_margin(&p);
        (p.is_game_over() && black == margin).then_some(GameRecord {
            random_plies,
            moves,
            margin,
        })
    }

    /// Every position of the game (before each move, and the final one) with
    /// the number of moves played to reach it.
    #[must_use]
    pub fn positions(&self) -> Vec<(usize, Position)> {
        let mut p = Position::initial(BoardSize::Eight);
        let mut out = vec![(0, p)];
        for (i, &m) in self.moves.iter().enumerate() {
            p = p.play_unchecked(m);
            out.push((i + 1, p));
        }
        out
    }
}

/// Black's disc margin as the rules score it, empties counted for nobody.
fn black_margin(p: &Position) -> i32 {
    let rules = Rules {
        scoring: Scoring::EmptiesToNobody,
        ..Rules::standard(p.size())
    };
    rules.score(p).black_margin()
}

/// Why a games file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum GamesFileError {
    /// The file cannot be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A line (1-based) is not a valid game.
    #[error("line {0}: not a valid game")]
    Line(usize),
}

/// Reads the games of a file written by [`run`] (the header and blank lines
/// skipped), at most `max` of them.
///
/// # Errors
/// [`GamesFileError`] on an I/O error or a malformed line.
pub fn read_games(path: &std::path::Path, max: usize) -> Result<Vec<GameRecord>, GamesFileError> {
    use std::io::BufRead;
    let file = std::fs::File::open(path)?;
    let mut games = Vec::new();
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line?;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if games.len() >= max {
            break;
        }
        games.push(GameRecord::parse_line(&line).ok_or(GamesFileError::Line(i + 1))?);
    }
    Ok(games)
}

/// Plays game number `index` of the run `config` with `engine`.
pub fn play_game(engine: &mut Engine, config: &SelfPlayConfig, index: u64) -> GameRecord {
    let rules = Rules::standard(BoardSize::Eight);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        exact_empties: config.exact,
        ..Limits::depth(config.depth)
    };
    let mut rng = random::stream(config.seed, index);
    let span = config.random_max.saturating_sub(config.random_min) as usize + 1;
    let random_plies = config.random_min + random::below(&mut rng, span) as u32;
    let mut p = Position::initial(BoardSize::Eight);
    let mut moves = Vec::new();
    while !p.is_game_over() {
        let mv = if (moves.len() as u32) < random_plies {
            let list = p.moves_list();
            list[random::below(&mut rng, list.len())]
        } else if !p.has_legal_move() {
            Move::Pass
        } else {
            engine
                .search(&p, &rules, &limits, &stop, index, &mut |_| {})
                .best_move
        };
        p = p.play_unchecked(mv);
        moves.push(mv);
    }
    let margin = black_margin(&p);
    GameRecord {
        random_plies: random_plies.min(moves.len() as u32),
        moves,
        margin,
    }
}

/// Plays games `first..count` on `threads` threads, handing each to `on_game`
/// in index order. Stops early (after the games in progress) when `stop` is
/// set. Returns the number of games handed over.
pub fn run(
    config: &SelfPlayConfig,
    first: usize,
    count: usize,
    threads: usize,
    hash_mb: usize,
    stop: &AtomicBool,
    mut on_game: impl FnMut(usize, GameRecord),
) -> usize {
    let mut handed = 0;
    let play = |engine: &mut Engine, i: usize| play_game(engine, config, i as u64);
    let result = crate::parallel::run_in_order(
        first..count,
        threads,
        stop,
        || Engine::new(hash_mb),
        play,
        |i, g| {
            on_game(i, g);
            handed += 1;
            Ok::<_, std::convert::Infallible>(())
        },
    );
    let Ok(()) = result;
    handed
}
