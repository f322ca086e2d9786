//! Game review: for every ply of a game, the value of the best move and of the
//! move played from the mover's point of view, the loss between them, a plain
//! classification, and a summary per player.
//!
//! Depends on `rules`, `notation` (the cache text) and the engine API; no
//! terminal, no printing. The UI reviews ply by ply on its worker thread
//! ([`PlyReview::from_evals`] on each analysis); scripts call [`review_game`].
//!
//! ## Values and the invariant
//! Scores are in discs for the side to move, [`Score::Exact`] where the solver
//! reached the end of the game. The loss of a ply is `best_score −
//! played_score` (never below 0). Where every value is exact, the played
//! move's value is minus the value of the next position, so the losses
//! telescope: over a run of exact plies, Black's losses minus White's equal the
//! fall of Black's exact value from the first position of the run to the last,
//! and at a finished game the last value is the final result. The review never
//! contradicts the result.
//!
//! ## Classes
//! | class | loss (discs) | mark |
//! |---|---|---|
//! | best | below 1 | |
//! | inaccuracy | 1 to below 4 | `?!` |
//! | mistake | 4 to below 10 | `?` |
//! | blunder | 10 or more | `??` |
//!
//! A pass is forced: it is always "best" and is not counted as a choice.

use super::{Engine, Limits, MoveEval, Score};
use crate::rules::{Color, Game, Move, Position, Rules};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// The least loss (discs) of an inaccuracy.
pub const INACCURACY: f64 = 1.0;
/// The least loss (discs) of a mistake.
pub const MISTAKE: f64 = 4.0;
/// The least loss (discs) of a blunder.
pub const BLUNDER: f64 = 10.0;

/// The default midgame depth of a review.
pub const DEFAULT_DEPTH: u32 = 8;

/// The limits of a review at `depth`: no time limit (the figures do not depend
/// on the machine's speed), no noise, no selectivity, and an exact solve when
/// at most `depth + 6` squares (at most 18) are empty.
#[must_use]
pub fn limits(depth: u32) -> Limits {
    Limits {
        exact_empties: (depth + 6).min(18),
        ..Limits::depth(depth.clamp(1, 60))
    }
}

/// How costly a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// The best move, or within a disc of it.
    Best,
    /// Lost 1 to 4 discs.
    Inaccuracy,
    /// Lost 4 to 10 discs.
    Mistake,
    /// Lost 10 discs or more.
    Blunder,
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 4] = [
        Class::Best,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class of a loss in discs.
    #[must_use]
    pub fn of(loss: f64) -> Class {
        if loss >= BLUNDER {
            Class::Blunder
        } else if loss >= MISTAKE {
            Class::Mistake
        } else if loss >= INACCURACY {
            Class::Inaccuracy
        } else {
            Class::Best
        }
    }

    /// The annotation mark: nothing, `?!`, `?` or `??`.
    #[must_use]
    pub fn mark(self) -> &'static str {
        ["", "?!", "?", "??"][self.index()]
    }

    /// The class's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        ["best", "inaccuracy", "mistake", "blunder"][self.index()]
    }

    /// 0 (best) to 3 (blunder).
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The review of one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyReview {
    /// The best move (`Pass` for a forced pass).
    pub best: Move,
    /// Its value for the mover.
    pub best_score: Score,
    /// The value of the move played, for the mover.
    pub played_score: Score,
}

impl PlyReview {
    /// The review of playing `played` in a position whose moves were scored
    /// `evals` (best first, as [`Engine::analyze`] returns them). `None` when
    /// `played` is not among them (the analysis was cut short).
    #[must_use]
    pub fn from_evals(played: Move, evals: &[MoveEval]) -> Option<PlyReview> {
        // The highest score; on a tie the first (the engine's choice).
        let best = evals
            .iter()
            .fold(None, |acc: Option<&MoveEval>, e| match acc {
                Some(a) if a.score.discs() >= e.score.discs() => Some(a),
                _ => Some(e),
            })?;
        let played_eval = evals.iter().find(|e| e.mv == played)?;
        let best = if played_eval.score.discs() >= best.score.discs() {
            played_eval
        } else {
            best
        };
        Some(PlyReview {
            best: best.mv,
            best_score: best.score,
            played_score: played_eval.score,
        })
    }

    /// Discs lost by the move played against the best (0 or more).
    #[must_use]
    pub fn loss(&self) -> f64 {
        (self.best_score.discs() - self.played_score.discs()).max(0.0)
    }

    /// The class of the loss.
    #[must_use]
    pub fn class(&self) -> Class {
        Class::of(self.loss())
    }

    /// Whether both values are exact.
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.best_score.is_exact() && self.played_score.is_exact()
    }

    /// Whether the ply was a forced pass.
    #[must_use]
    pub fn is_pass(&self) -> bool {
        self.best == Move::Pass
    }
}

/// Reviews playing `played` in `position`: every legal move scored under
/// `limits`, from an empty table, so that the figures depend on the position
/// alone (not on the order plies are reviewed in). `None` when the game is
/// over there, `played` is not legal, or `stop` cut the analysis short.
pub fn review_ply(
    engine: &mut Engine,
    position: &Position,
    rules: &Rules,
    played: Move,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<PlyReview> {
    engine.clear();
    let evals = engine.analyze(position, rules, limits, stop, &mut |_| {});
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    PlyReview::from_evals(played, &evals)
}

/// Reviews every recorded move of `game` (the redo tail included), calling
/// `progress(done, total)` after each. Plies not reviewed because `stop` was
/// set are `None`.
pub fn review_game(
    engine: &mut Engine,
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Option<PlyReview>> {
    let rules = game.rules();
    let total = game.len();
    let mut out = Vec::with_capacity(total);
    for (i, &mv) in game.moves().iter().enumerate() {
        let review = game
            .position_at(i)
            .and_then(|p| review_ply(engine, &p, &rules, mv, limits, stop));
        out.push(review);
        progress(i + 1, total);
    }
    out
}

/// +1 when Black is to move at ply `i` of `game`, −1 for White.
fn sign_at(game: &Game, ply: usize) -> f64 {
    match game.position_at(ply).map(|p| p.side_to_move()) {
        Some(Color::White) => -1.0,
        _ => 1.0,
    }
}

/// One point of the score graph: Black's value of a position in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Black's value (positive: Black ahead).
    pub black: f64,
    /// Whether it is exact.
    pub exact: bool,
    /// Whether the move that led here was a pass.
    pub pass: bool,
}

/// Black's value of every position of `game`, from the start (index 0) to the
/// last recorded move: the best value at the start, then the value of each
/// move played. `None` where the ply is not reviewed.
#[must_use]
pub fn black_values(game: &Game, plies: &[Option<PlyReview>]) -> Vec<Option<Point>> {
    let mut out = Vec::with_capacity(game.len() + 1);
    out.push(plies.first().copied().flatten().map(|r| Point {
        black: sign_at(game, 0) * r.best_score.discs(),
        exact: r.best_score.is_exact(),
        pass: false,
    }));
    for i in 0..game.len() {
        out.push(plies.get(i).copied().flatten().map(|r| Point {
            black: sign_at(game, i) * r.played_score.discs(),
            exact: r.played_score.is_exact(),
            pass: game.moves()[i] == Move::Pass,
        }));
    }
    out
}

/// One player's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSummary {
    /// Moves reviewed (forced passes not counted).
    pub moves: usize,
    /// Discs lost over them.
    pub total_loss: f64,
    /// How many moves fell in each [`Class`], by [`Class::index`].
    pub counts: [usize; 4],
    /// The costliest move: its index in the game's moves and its loss.
    pub worst: Option<(usize, f64)>,
}

impl PlayerSummary {
    /// The average loss per move reviewed (0 with none).
    #[must_use]
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_loss / self.moves as f64
        }
    }
}

/// The figures of a whole review.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Black's and White's figures.
    pub players: [PlayerSummary; 2],
    /// Plies reviewed, of all recorded ones.
    pub reviewed: usize,
    /// The moves after which the result was certain: from the position after
    /// this many moves on, every position's value is exact and gives the final
    /// winner (or the draw). `None` when the game is unfinished or the values
    /// near the end are not known exactly.
    pub decided_at: Option<usize>,
}

/// The summary of the review `plies` of `game`.
#[must_use]
pub fn summarize(game: &Game, plies: &[Option<PlyReview>]) -> Summary {
    let mut s = Summary::default();
    for (i, r) in plies.iter().enumerate().take(game.len()) {
        let Some(r) = r else { continue };
        s.reviewed += 1;
        if r.is_pass() {
            continue;
        }
        let side = usize::from(sign_at(game, i) < 0.0);
        let p = &mut s.players[side];
        let loss = r.loss();
        p.moves += 1;
        p.total_loss += loss;
        p.counts[r.class().index()] += 1;
        if loss > 0.0 && p.worst.is_none_or(|(_, w)| loss > w) {
            p.worst = Some((i, loss));
        }
    }
    s.decided_at = decided_at(game, plies);
    s
}

fn sign(x: f64) -> i32 {
    i32::from(x > 0.0) - i32::from(x < 0.0)
}

fn decided_at(game: &Game, plies: &[Option<PlyReview>]) -> Option<usize> {
    let last = game.position_at(game.len())?;
    if !last.is_game_over() {
        return None;
    }
    // The final margin for Black under the game's rules (Anti Reversi included).
    let result = sign(sign_at(game, game.len()) * f64::from(game.rules().final_margin(&last)));
    let values = black_values(game, plies);
    let mut decided = None;
    for (k, v) in values.iter().enumerate().rev() {
        match v {
            Some(p) if p.exact && sign(p.black) == result => {
                decided = Some(k);
            }
            _ => break,
        }
    }
    decided
}

/// Why a cached review could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("review entry {entry}: {reason}")]
pub struct CacheError {
    /// 1-based entry (move number).
    pub entry: usize,
    /// What is wrong.
    pub reason: String,
}

/// The cache text of a review (the value of our GGF property `RV`): the depth,
/// then one entry per recorded move, `best/best_score/played_score` with
/// scores as [`Score`] displays them (`+4` exact, `~+1.25` an estimate), or
/// `-` for a move not reviewed. Empty when no ply is reviewed.
#[must_use]
pub fn write_cache(depth: u32, plies: &[Option<PlyReview>]) -> String {
    if plies.iter().all(Option::is_none) {
        return String::new();
    }
    let mut s = format!("d{depth}");
    for r in plies {
        s.push(' ');
        match r {
            None => s.push('-'),
            Some(r) => {
                let best = crate::notation::write_move(r.best);
                s.push_str(&format!("{best}/{}/{}", r.best_score, r.played_score));
            }
        }
    }
    s
}

fn parse_score(t: &str) -> Option<Score> {
    match t.strip_prefix('~') {
        Some(e) => {
            let v: f64 = e.parse().ok()?;
            v.is_finite()
                .then(|| Score::Estimate((v * 100.0).round() as i32))
        }
        None => t.parse().ok().map(Score::Exact),
    }
}

/// Reads the cache text written by [`write_cache`] for `game`: the depth and
/// one review per recorded move.
///
/// # Errors
/// [`CacheError`] when an entry is malformed, names an illegal best move, or
/// there are more entries than moves.
pub fn read_cache(text: &str, game: &Game) -> Result<(u32, Vec<Option<PlyReview>>), CacheError> {
    let mut tokens = text.split_whitespace();
    let depth = match tokens.next() {
        None => return Ok((0, vec![None; game.len()])),
        Some(t) => t
            .strip_prefix('d')
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| CacheError {
                entry: 0,
                reason: format!("\"{t}\": expected the depth, e.g. d8"),
            })?,
    };
    let mut plies = vec![None; game.len()];
    for (i, t) in tokens.enumerate() {
        let err = |reason: String| CacheError {
            entry: i + 1,
            reason,
        };
        if i >= game.len() {
            return Err(err(format!("the game has only {} moves", game.len())));
        }
        if t == "-" {
            continue;
        }
        let parts: Vec<&str> = t.split('/').collect();
        let [best, b, p] = parts[..] else {
            return Err(err(format!("\"{t}\": expected best/score/score")));
        };
        let best =
            crate::notation::parse_move(best).map_err(|e| err(format!("\"{best}\": {e}")))?;
        let position = game.position_at(i).unwrap_or(game.start());
        if !position.is_legal(best) {
            return Err(err(format!("{best} is not legal there")));
        }
        let score = |s: &str| parse_score(s).ok_or_else(|| err(format!("\"{s}\" is not a score")));
        plies[i] = Some(PlyReview {
            best,
            best_score: score(b)?,
            played_score: score(p)?,
        });
    }
    Ok((depth, plies))
}
