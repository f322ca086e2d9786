//! Engine matches: plays games between two players (built-in AI configurations or
//! external NBoard engines) from balanced openings, colours swapped, and sums up
//! the result with statistics (score, mean disc difference with a confidence
//! interval, Elo difference with an error bar).
//!
//! Every move an external engine sends is checked by our rules; an illegal move,
//! a crash or a time-out loses that game and is reported, never a hang.

use crate::ai::{Engine, Evaluation, Level, LevelError, Limits, PatternWeights, WeightsError};
use crate::notation::ggf::{EndedEarly, MoveNote, Record, forfeit_outcome, write_ggf};
use crate::notation::parse_move;
use crate::random;
use crate::rules::{BoardSize, Color, Game, Move, Position, Rules};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

mod balance;
pub mod paired;
pub use balance::{BalanceConfig, Judged, balanced_openings};

/// Who plays one side of a match.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Our AI with these limits, named for reports.
    Builtin {
        /// A short name, e.g. `level:5`.
        name: String,
        /// The search limits.
        limits: Limits,
        /// The evaluation.
        eval: EvalSpec,
    },
    /// An external engine speaking the NBoard protocol, started with this shell command.
    External {
        /// The command line, run by `sh -c`.
        command: String,
    },
    /// A reference player that does not search.
    Reference(Reference),
}

/// The reference players that anchor the level ladder: they need no engine,
/// and their only randomness comes from the match seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// A uniformly random legal move (`random`).
    Random,
    /// The move that flips the most discs, ties broken at random (`greedy`):
    /// how most people play their first games.
    Greedy,
}

impl Reference {
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

/// `base` with one setting of a built-in player (`depth`, `time`, …) applied;
/// `eval` and `weights` also set the evaluation in `eval`.
fn with_setting(
    base: Limits,
    key: &str,
    value: &str,
    eval: &mut EvalSpec,
) -> Result<Limits, SpecError> {
    let range = |setting: &'static str, expected: &'static str| SpecError::Range {
        setting,
        value: value.trim().to_string(),
        expected,
    };
    let empties = |setting: &'static str| -> Result<u32, SpecError> {
        let n: u32 = number(value, "a number of empties")?;
        if n > 64 {
            return Err(range(setting, "0 to 64 empties"));
        }
        Ok(n)
    };
    let depth = |setting: &'static str| -> Result<u32, SpecError> {
        let d: u32 = number(value, "a depth")?;
        if !(1..=60).contains(&d) {
            return Err(range(setting, "1 to 60"));
        }
        Ok(d)
    };
    let selectivity = |setting: &'static str, least: u8, expected: &'static str| {
        value
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|n| (least..=4).contains(n))
            .ok_or_else(|| range(setting, expected))
    };
    Ok(match key {
        "level" => value.parse::<Level>()?.limits(),
        "depth" => Limits {
            depth: depth("depth")?,
            time: None,
            noise: 0,
            ..base
        },
        "nominal" => Limits::nominal(depth("nominal")?),
        "time" => {
            let s: f64 = number(value, "a time in seconds")?;
            if !(0.001..=3600.0).contains(&s) {
                return Err(range("time", "0.001 to 3600 seconds"));
            }
            Limits {
                time: Some(Duration::from_secs_f64(s)),
                depth: base.depth.max(60),
                ..base
            }
        }
        "eval" => Limits {
            evaluation: evaluation_setting(value, eval)?,
            ..base
        },
        "open" => Limits {
            opening_depth: Some(depth("open")?),
            ..base
        },
        "settle" => {
            let k: u32 = number(value, "a number of iterations")?;
            if k > 60 {
                return Err(range("settle", "0 to 60 iterations"));
            }
            Limits { settle: k, ..base }
        }
        "doubt" => {
            let k: u32 = number(value, "a number of plies")?;
            if k > 60 {
                return Err(range("doubt", "0 to 60 plies"));
            }
            Limits { doubt: k, ..base }
        }
        "late" => Limits {
            late_depth: Some(depth("late")?),
            ..base
        },
        "exact" => Limits {
            exact_empties: empties("exact")?,
            ..base
        },
        "wld" => Limits {
            wld_empties: empties("wld")?,
            ..base
        },
        "prob" => Limits {
            probable_empties: empties("prob")?,
            ..base
        },
        "sel" => Limits {
            selectivity: selectivity("sel", 0, "a selectivity 0 to 4")?,
            ..base
        },
        "psel" => Limits {
            probable_selectivity: selectivity("psel", 1, "a selectivity 1 to 4")?,
            ..base
        },
        "cautious" => Limits {
            cautious_empties: empties("cautious")?,
            ..base
        },
        "temp" => {
            let t: f64 = number(value, "a temperature in discs")?;
            if !(0.0..=64.0).contains(&t) {
                return Err(range("temp", "0 to 64 discs"));
            }
            Limits {
                temperature: (t * 100.0).round() as i32,
                ..base
            }
        }
        "book" => {
            let book = if value.trim().eq_ignore_ascii_case("off") {
                None
            } else {
                let d: f64 = number(value, "a margin in discs, or off")?;
                if !(0.0..=64.0).contains(&d) {
                    return Err(range("book", "0 to 64 discs, or off"));
                }
                Some((d * 100.0).round() as u16)
            };
            Limits { book, ..base }
        }
        "weights" => {
            let w = PatternWeights::read(std::path::Path::new(value.trim())).map_err(|source| {
                SpecError::Weights {
                    path: value.trim().to_string(),
                    source,
                }
            })?;
            *eval = EvalSpec::Weights(Arc::new(w));
            base
        }
        k => return Err(SpecError::Setting(k.to_string())),
    })
}

/// The evaluation that `eval:VALUE` names; `hand` and `learned` also choose
/// the weights in `eval`.
fn evaluation_setting(value: &str, eval: &mut EvalSpec) -> Result<Evaluation, SpecError> {
    Ok(match value.trim() {
        "hand" => {
            *eval = EvalSpec::Hand;
            Evaluation::Full
        }
        "learned" => {
            *eval = EvalSpec::Default;
            Evaluation::Full
        }
        "discs" => Evaluation::Discs,
        "mobility" => Evaluation::Mobility,
        v => {
            return Err(SpecError::Range {
                setting: "eval",
                value: v.to_string(),
                expected: "eval:learned, eval:hand, eval:mobility or eval:discs",
            });
        }
    })
}

/// `value` as a number, or an error saying that it is not `what`.
fn number<T: std::str::FromStr>(value: &str, what: &'static str) -> Result<T, SpecError> {
    value.trim().parse().map_err(|_| SpecError::NotNumber {
        value: value.to_string(),
        what,
    })
}

/// Why a built-in player's description (`--a depth:12,sel:4`) is not
/// understood.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SpecError {
    /// No settings at all.
    #[error("empty player: expected random, greedy or settings such as depth:8")]
    Empty,
    /// A part that is not `key:value`.
    #[error(
        "\"{0}\": expected random, greedy, level:N, depth:N, time:SECS, eval:KIND, \
         weights:PATH, open:N, late:N, exact:N, wld:N, prob:N, psel:N, cautious:N, sel:N, settle:N, doubt:N, temp:DISCS or book:DISCS|off"
    )]
    Part(String),
    /// A key that names no setting.
    #[error(
        "\"{0}\": expected level, depth, nominal, time, eval, weights, open, late, exact, wld, prob, psel, cautious, sel, settle, doubt, temp or book"
    )]
    Setting(String),
    /// A value that is not a number.
    #[error("\"{value}\" is not {what}")]
    NotNumber {
        /// The value as written.
        value: String,
        /// What was expected ("a depth").
        what: &'static str,
    },
    /// A value outside its range, or not one of the values allowed.
    #[error("{setting}:{value}: expected {expected}")]
    Range {
        /// The setting (`depth`, `sel`, …).
        setting: &'static str,
        /// The value as written.
        value: String,
        /// The values allowed.
        expected: &'static str,
    },
    /// `level:` names no level.
    #[error(transparent)]
    Level(#[from] LevelError),
    /// `weights:` names a file that cannot be used.
    #[error("weights {path}: {source}")]
    Weights {
        /// The file.
        path: String,
        /// Why it cannot be used.
        source: WeightsError,
    },
}

impl PlayerSpec {
    /// Reads `random`, `greedy` (the [`Reference`] players), or `level:N`,
    /// `depth:N`, `nominal:N` (the NBoard depth N, [`Limits::nominal`]) or
    /// `time:SECS` (combinable with commas, e.g.
    /// `depth:8,time:0.5`), optionally with `eval:hand` (the hand-written
    /// evaluation), `eval:discs` or `eval:mobility` (one-feature evaluations),
    /// `weights:PATH` (learned weights from a file), `open:N` (depth N while
    /// more than 40 squares are empty), `late:N` (depth N from 34 empty
    /// squares down), `exact:N` (solve exactly
    /// from N empties), `wld:N` (solve for the result only from N empties,
    /// above `exact`), `prob:N` (a probable result-only solve, with endgame
    /// ProbCut and never proven, from N empties, above `exact` and `wld`),
    /// `psel:N` (the probable solve's own selectivity 1–4; without it, the
    /// midgame's), `cautious:N` (the probable solve at 2.6 σ from N empties
    /// down), `sel:N` (ProbCut selectivity 0–4), `settle:N` (stop one
    /// ply short of the depth when N iterations in a row chose the same
    /// move), `doubt:N` (N plies deeper when the last iteration changed the
    /// move), `temp:DISCS` (the temperature of the choice between close
    /// moves) or `book:DISCS` / `book:off` (play from the opening book, a
    /// move drawn within DISCS of the best book move; levels 10–12 use it
    /// already). Without a level, the settings start from a depth-60
    /// search that solves exactly from 10 empties, with no time limit and no
    /// randomness.
    ///
    /// # Errors
    /// [`SpecError`], naming the part that is not understood.
    pub fn parse_builtin(text: &str) -> Result<PlayerSpec, SpecError> {
        for r in [Reference::Random, Reference::Greedy] {
            if text.trim().eq_ignore_ascii_case(r.name()) {
                return Ok(PlayerSpec::Reference(r));
            }
        }
        let mut limits: Option<Limits> = None;
        let mut eval = EvalSpec::Default;
        for part in text.split(',') {
            let (key, value) = part
                .split_once(':')
                .ok_or_else(|| SpecError::Part(part.to_string()))?;
            let base = limits.unwrap_or(Limits {
                exact_empties: 10,
                ..Limits::depth(60)
            });
            limits = Some(with_setting(base, key.trim(), value, &mut eval)?);
        }
        let limits = limits.ok_or(SpecError::Empty)?;
        Ok(PlayerSpec::Builtin {
            name: text.to_string(),
            limits,
            eval,
        })
    }

    /// A short name for reports.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            PlayerSpec::Builtin { name, .. } => name.clone(),
            PlayerSpec::External { command } => command
                .split_whitespace()
                .next()
                .unwrap_or("engine")
                .to_string(),
            PlayerSpec::Reference(r) => r.name().to_string(),
        }
    }
}

/// The evaluation of a built-in player.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalSpec {
    /// The engine's default (the shipped learned weights).
    Default,
    /// The hand-written evaluation (`eval:hand`).
    Hand,
    /// Learned weights from a file (`weights:PATH`).
    Weights(Arc<PatternWeights>),
}

impl EvalSpec {
    /// Sets `engine`'s evaluation to this one.
    pub fn apply_to(&self, engine: &mut Engine) {
        match self {
            EvalSpec::Default => {}
            EvalSpec::Hand => engine.set_weights(None),
            EvalSpec::Weights(w) => engine.set_weights(Some(w.clone())),
        }
    }
}

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

/// Starts the external engine `command`, checks that it answers the NBoard
/// handshake within `timeout`, and stops it again.
///
/// # Errors
/// Why it failed: it could not be started, exited or did not answer.
pub fn check_engine(command: &str, timeout: Duration) -> Result<(), Forfeit> {
    External::start(command, timeout).map(drop)
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
    pub clocks: [Clock; 2],
    /// Per move of `game` (the opening's moves without): the mover's own
    /// evaluation, when its engine gave one, and the time it took.
    pub notes: Vec<MoveNote>,
}

/// The time one player took for its moves in a game (or a match): each move's
/// time with the number of empty squares it was played at.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// (empties before the move, time) for each move timed, passes included.
    times: Vec<(u8, Duration)>,
}

impl Clock {
    /// Adds one move, played with `empties` empty squares, that took `time`.
    pub fn add(&mut self, empties: u32, time: Duration) {
        self.times.push((empties.min(255) as u8, time));
    }

    /// This clock and `other` together.
    #[must_use]
    pub fn merge(mut self, other: &Clock) -> Clock {
        self.times.extend_from_slice(&other.times);
        self
    }

    /// The moves timed.
    #[must_use]
    pub fn moves(&self) -> usize {
        self.times.len()
    }

    /// The longest time (zero when no move was timed).
    #[must_use]
    pub fn max(&self) -> Duration {
        self.times.iter().map(|t| t.1).max().unwrap_or_default()
    }

    /// The mean time per move (zero when no move was timed).
    #[must_use]
    pub fn mean(&self) -> Duration {
        mean(self.times.iter().map(|t| t.1))
    }

    /// The median time per move (the mean of the middle two for an even
    /// count; zero when no move was timed).
    #[must_use]
    pub fn median(&self) -> Duration {
        let mut t: Vec<Duration> = self.times.iter().map(|t| t.1).collect();
        t.sort_unstable();
        match t.len() {
            0 => Duration::ZERO,
            n if n % 2 == 1 => t[n / 2],
            n => (t[n / 2 - 1] + t[n / 2]) / 2,
        }
    }

    /// The mean time of the moves played with `empties` in that range of
    /// empty squares, and how many there were.
    #[must_use]
    pub fn mean_in(&self, empties: std::ops::RangeInclusive<u32>) -> (Duration, usize) {
        let inside: Vec<Duration> = self
            .times
            .iter()
            .filter(|t| empties.contains(&u32::from(t.0)))
            .map(|t| t.1)
            .collect();
        (mean(inside.iter().copied()), inside.len())
    }
}

fn mean(times: impl Iterator<Item = Duration>) -> Duration {
    let (n, total) = times.fold((0u32, Duration::ZERO), |(n, s), t| (n + 1, s + t));
    total.checked_div(n.max(1)).unwrap_or_default()
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

/// A running external NBoard engine.
struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl External {
    fn start(command: &str, timeout: Duration) -> Result<External, Forfeit> {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group, so that everything it starts can be stopped with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .spawn()
            .map_err(|e| Forfeit::Crashed(format!("cannot start \"{command}\": {e}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| Forfeit::Crashed("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Forfeit::Crashed("no stdout".into()))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = External {
            child,
            stdin,
            lines,
        };
        e.send("nboard 2")?;
        e.send("ping 0")?;
        e.wait_for(|l| l.trim() == "pong 0", timeout)?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Forfeit::Crashed(format!("engine input closed: {e}")))
    }

    fn wait_for(
        &mut self,
        want: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, Forfeit> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if want(&line) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(Forfeit::Timeout),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Forfeit::Crashed("the engine exited".into()));
                }
            }
        }
    }

    /// The engine's move, with its evaluation in discs when the `===` line
    /// gives one (`=== move/eval/time`).
    fn choose(&mut self, game: &Game, timeout: Duration) -> Result<(Move, Option<f64>), Forfeit> {
        let mut record = Record::new(game.clone());
        record.notes.clear();
        self.send(&format!("set game {}", write_ggf(&record)))?;
        self.send("go")?;
        let line = self.wait_for(|l| l.starts_with("==="), timeout)?;
        let mut fields = line.trim_start_matches("===").trim().split('/');
        let text = fields.next().unwrap_or("").trim().to_string();
        let eval = fields.next().and_then(|e| e.trim().parse::<f64>().ok());
        let mv = parse_move(&text)
            .map_err(|_| Forfeit::Illegal(format!("unreadable move \"{text}\"")))?;
        Ok((mv, eval.filter(|e| e.is_finite())))
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(20));
        if let Ok(None) = self.child.try_wait() {
            #[cfg(unix)]
            let _ = Command::new("kill")
                .args(["-s", "KILL", "--", &format!("-{}", self.child.id())])
                .stderr(Stdio::null())
                .status();
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
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
        clocks: Default::default(),
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
    let mut clocks: [Clock; 2] = Default::default();
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
        clocks[usize::from(!a_to_move)].add(empties, took);
        match chosen {
            Ok((mv, eval)) => {
                if let Err(e) = game.play(mv) {
                    let why = Forfeit::Illegal(format!("{mv}: {e}"));
                    return GameResult {
                        clocks,
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
                    clocks,
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
        clocks,
        notes,
    }
}

/// The summary of a match from A's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games won by A.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost by A.
    pub losses: usize,
    /// Mean disc margin for A.
    pub mean_margin: f64,
    /// Half-width of the 95% confidence interval of the mean margin.
    pub margin_ci: f64,
    /// Elo difference A − B from the score (a bound when A won or lost every game).
    pub elo: f64,
    /// Half-width of the 95% interval of the Elo difference.
    pub elo_error: f64,
    /// The time A and B took, over all games.
    pub clocks: [Clock; 2],
}

impl Summary {
    /// The Elo difference and its 95% half-width in whole points:
    /// "+12 ± 191"; a difference that rounds to zero reads "+0".
    #[must_use]
    pub fn elo_text(&self) -> String {
        format!(
            "{:+} ± {}",
            self.elo.round() as i64,
            self.elo_error.round() as i64
        )
    }
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Mean and sample standard deviation (0 for fewer than two values; the
/// mean of none is 0).
fn mean_and_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n.max(1.0);
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// Sums up results from A's point of view.
#[must_use]
pub fn summarize(results: &[GameResult]) -> Summary {
    let n = results.len().max(1) as f64;
    let wins = results.iter().filter(|r| r.a_margin > 0).count();
    let draws = results.iter().filter(|r| r.a_margin == 0).count();
    let losses = results.len() - wins - draws;
    let margins: Vec<f64> = results.iter().map(|r| f64::from(r.a_margin)).collect();
    let (mean_margin, margin_sd) = mean_and_sd(&margins);
    let margin_ci = 1.96 * margin_sd / n.sqrt();
    let points: Vec<f64> = results.iter().map(GameResult::a_points).collect();
    let (score, points_sd) = mean_and_sd(&points);
    let se = points_sd / n.sqrt();
    // A perfect (or nil) score has no finite Elo estimate: it is kept half a game
    // away from 100% (0%), which gives a lower (upper) bound.
    let elo = elo_of(score.clamp(0.5 / n, 1.0 - 0.5 / n));
    // The interval is taken on the score, kept inside (0, 1) by half a game.
    let lo = (score - 1.96 * se).max(0.5 / n);
    let hi = (score + 1.96 * se).min(1.0 - 0.5 / n);
    let elo_error = (elo_of(hi) - elo_of(lo)).abs() / 2.0;
    Summary {
        wins,
        draws,
        losses,
        mean_margin,
        margin_ci,
        elo,
        elo_error,
        clocks: results.iter().fold(<[Clock; 2]>::default(), |[a, b], r| {
            [a.merge(&r.clocks[0]), b.merge(&r.clocks[1])]
        }),
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn clock_medians_means_and_phases() {
        let ms = Duration::from_millis;
        let mut c = Clock::default();
        assert_eq!((c.median(), c.mean(), c.max()), (ms(0), ms(0), ms(0)));
        for (empties, t) in [(50, 1), (30, 2), (10, 9)] {
            c.add(empties, ms(t));
        }
        assert_eq!((c.median(), c.mean(), c.max()), (ms(2), ms(4), ms(9)));
        let mut d = Clock::default();
        d.add(12, ms(5));
        let both = c.merge(&d);
        assert_eq!(
            (both.moves(), both.median()),
            (4, Duration::from_micros(3500))
        );
        assert_eq!(both.mean_in(0..=20), (ms(7), 2));
        assert_eq!(both.mean_in(21..=40), (ms(2), 1));
        assert_eq!(both.mean_in(60..=64), (ms(0), 0));
    }

    #[test]
    fn reference_players_are_read_by_name() {
        assert_eq!(
            PlayerSpec::parse_builtin("greedy").unwrap(),
            PlayerSpec::Reference(Reference::Greedy)
        );
        assert_eq!(
            PlayerSpec::parse_builtin(" Random ").unwrap().name(),
            "random"
        );
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("depth:3,eval:mobility,temp:0.5,exact:4,sel:2")
        else {
            panic!("a built-in player");
        };
        assert_eq!(
            (limits.depth, limits.evaluation, limits.temperature),
            (3, Evaluation::Mobility, 50)
        );
        assert_eq!((limits.exact_empties, limits.selectivity), (4, 2));
        let Ok(PlayerSpec::Builtin { limits, .. }) = PlayerSpec::parse_builtin("nominal:16") else {
            panic!("a built-in player");
        };
        assert_eq!(limits, Limits::nominal(16));
        let Ok(PlayerSpec::Builtin { limits, .. }) = PlayerSpec::parse_builtin("depth:18,open:16")
        else {
            panic!("a built-in player");
        };
        assert_eq!((limits.depth, limits.opening_depth), (18, Some(16)));
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("depth:18,open:16,late:20")
        else {
            panic!("a built-in player");
        };
        assert_eq!(limits.late_depth, Some(20));
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("nominal:16,prob:26")
        else {
            panic!("a built-in player");
        };
        assert_eq!(
            limits,
            Limits {
                probable_empties: 26,
                ..Limits::nominal(16)
            }
        );
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("nominal:16,prob:24,psel:1")
        else {
            panic!("a built-in player");
        };
        assert_eq!(
            (limits.probable_empties, limits.probable_selectivity),
            (24, 1)
        );
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("nominal:16,cautious:0")
        else {
            panic!("a built-in player");
        };
        assert_eq!(
            (
                Limits::nominal(16).cautious_empties,
                limits.cautious_empties
            ),
            (24, 0)
        );
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("nominal:16,settle:3,doubt:2")
        else {
            panic!("a built-in player");
        };
        assert_eq!((limits.settle, limits.doubt), (3, 2));
        for (bad, message) in [
            ("settle:61", "settle:61: expected 0 to 60 iterations"),
            ("doubt:99", "doubt:99: expected 0 to 60 plies"),
            ("doubt:x", "\"x\" is not a number of plies"),
        ] {
            assert_eq!(
                PlayerSpec::parse_builtin(bad).unwrap_err().to_string(),
                message
            );
        }
        for bad in ["psel:0", "psel:5", "psel:x"] {
            assert_eq!(
                PlayerSpec::parse_builtin(bad).unwrap_err().to_string(),
                format!("{bad}: expected a selectivity 1 to 4")
            );
        }
        assert_eq!(
            PlayerSpec::parse_builtin("prob:65")
                .unwrap_err()
                .to_string(),
            "prob:65: expected 0 to 64 empties"
        );
    }

    #[test]
    fn a_bad_player_says_which_part_and_why() {
        let err = |text: &str| PlayerSpec::parse_builtin(text).unwrap_err();
        assert!(matches!(err(""), SpecError::Part(_)));
        assert!(matches!(err("depth:2,colour:x"), SpecError::Setting(k) if k == "colour"));
        assert!(matches!(
            err("depth:x"),
            SpecError::NotNumber {
                what: "a depth",
                ..
            }
        ));
        assert_eq!(err("depth:61").to_string(), "depth:61: expected 1 to 60");
        assert_eq!(err("open:0").to_string(), "open:0: expected 1 to 60");
        assert_eq!(
            err("nominal:61").to_string(),
            "nominal:61: expected 1 to 60"
        );
        assert_eq!(
            err("depth:4,sel:5").to_string(),
            "sel:5: expected a selectivity 0 to 4"
        );
        assert!(matches!(err("level:0"), SpecError::Level(_)));
        let missing = err("depth:2,weights:/nonexistent/w.rvw");
        assert!(matches!(missing, SpecError::Weights { .. }));
        assert!(
            missing
                .to_string()
                .starts_with("weights /nonexistent/w.rvw: "),
            "{missing}"
        );
        assert!(
            std::error::Error::source(&missing).is_some(),
            "the I/O error is kept"
        );
    }
}
