//! The model of one game on screen: who plays, the match (the one [`Game`]
//! and the UI state around it: cursor, mode, AI job, hint, pace), how a game
//! starts ([`Setup`]), the reviews kept with it, the new-game choices and the
//! look. [`super::app`] holds the whole app's state around it.
//!
//! `Game` stays the one source of truth for the board, the moves, whose turn
//! it is, passes and the result; this module only adds UI state. Depends on
//! `rules` and on the `ai` API types; never on the terminal nor on any other
//! module of the UI.

use super::board_input::BoardInput;
use crate::ai::review::{self, PlyReview};
use crate::ai::{Level, MoveEval, Progress, SearchResult};
use crate::i18n::Lang;
use crate::notation::ggf::Record;
use crate::rules::{BoardSize, Color, Game, Move, Position, Rules, Scoring};
use std::time::{Duration, Instant};

/// Who plays one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the keyboard (or mouse).
    Human,
    /// The AI at a level.
    Ai(Level),
}

impl Player {
    /// Whether this is the AI.
    #[must_use]
    pub fn is_ai(self) -> bool {
        matches!(self, Player::Ai(_))
    }
}

/// Whom the game is against, as chosen on the new-game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// A person against the AI.
    Computer,
    /// Two people on one keyboard.
    Human,
    /// The AI against itself, to watch.
    Watch,
    /// A table at a salon server (the online screen; its own form chooses
    /// the rules and the clock).
    Online,
}

/// The colour the person wants against the AI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourChoice {
    /// Drawn at random when the game starts.
    Random,
    /// A fixed colour.
    Fixed(Color),
}

/// The choices of the new-game screen; remembered in the config file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choices {
    /// Against whom.
    pub opponent: Opponent,
    /// The person's colour against the AI.
    pub colour: ColourChoice,
    /// The AI's level.
    pub level: Level,
    /// Board size.
    pub size: BoardSize,
    /// Anti Reversi (fewest discs wins).
    pub anti: bool,
    /// Scoring rule for empty squares at the end.
    pub scoring: Scoring,
    /// The language chosen on the screen; `None`: the one of `--lang` or of
    /// the locale variables.
    pub language: Option<Lang>,
}

impl Default for Choices {
    /// Against the AI at a medium level, colour drawn at random, 8×8.
    fn default() -> Choices {
        Choices {
            opponent: Opponent::Computer,
            colour: ColourChoice::Random,
            level: Level::DEFAULT,
            size: BoardSize::Eight,
            anti: false,
            scoring: Scoring::EmptiesToNobody,
            language: None,
        }
    }
}

impl Choices {
    /// The rules these choices select.
    #[must_use]
    pub fn rules(&self) -> Rules {
        Rules {
            size: self.size,
            anti: self.anti,
            scoring: self.scoring,
        }
    }
}

/// The new-game screen: the choices and which field is selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewGameForm {
    /// The values of the fields.
    pub choices: Choices,
    /// The selected field, an index into [`super::newgame::FIELDS`].
    pub field: usize,
}

/// A game being played or watched.
#[derive(Clone, Debug)]
pub struct Match {
    /// The one history of the game.
    pub game: Game,
    /// Who plays Black and White, indexed by [`Color::index`].
    pub players: [Player; 2],
    /// The recorded names of people in a loaded game, by colour (see
    /// [`Setup::names`]).
    pub names: [Option<String>; 2],
    /// The board cursor and a column letter typed.
    pub input: BoardInput,
    /// The search for the AI's move, while one runs.
    pub ai: Option<AiJob>,
    /// The hint analysis: running or shown.
    pub hint: Option<Hint>,
    /// Delay between moves when the AI plays, so a person can follow.
    pub pace: Pace,
    /// The AI does not start thinking while paused (after stepping back in a
    /// game without a person, or by Space when watching).
    pub paused: bool,
    /// Playing, or replaying the game's history.
    pub mode: Mode,
    /// The moves reviewed so far (kept when replay is left, saved with the game).
    pub reviews: Reviews,
    /// Opened to look through (a game file, a finished online game): not the
    /// autosave's game, and quitting asks nothing, until play goes on from it.
    pub viewing: bool,
}

/// How a game starts: rules, position, moves already played and the players.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The game, with its moves so far (the cursor is the ply shown first).
    pub game: Game,
    /// Black's and White's players.
    pub players: [Player; 2],
    /// The names a loaded game gives its people (Black's and White's),
    /// shown instead of "Human"; `None` for a person playing here.
    pub names: [Option<String>; 2],
    /// A message for the status line (e.g. who got which colour).
    pub note: Option<String>,
    /// Open in replay mode (a finished or loaded game to look through).
    pub replay: bool,
    /// Moves reviewed before (from the saved record).
    pub reviews: Reviews,
}

impl Setup {
    /// A new game from the start position of `rules`.
    #[must_use]
    pub fn new(rules: Rules, players: [Player; 2]) -> Setup {
        Setup {
            game: Game::new(rules),
            players,
            names: [None, None],
            note: None,
            replay: false,
            reviews: Reviews::default(),
        }
    }
}

/// The midgame depth of the review in the UI (the same as `reversi review`'s
/// default, so both give the same figures).
pub const REVIEW_DEPTH: u32 = review::DEFAULT_DEPTH;

/// Reviewed plies, by the position before the move and the move: they stay
/// right when the game is cut short and played on differently.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reviews {
    entries: Vec<(Position, Move, PlyReview)>,
}

impl Reviews {
    /// The review of playing `mv` in `position`, if known.
    #[must_use]
    pub fn get(&self, position: &Position, mv: Move) -> Option<PlyReview> {
        self.entries
            .iter()
            .find(|(p, m, _)| p == position && *m == mv)
            .map(|(_, _, r)| *r)
    }

    /// Keeps the review of playing `mv` in `position`.
    pub fn insert(&mut self, position: Position, mv: Move, r: PlyReview) {
        if self.get(&position, mv).is_none() {
            self.entries.push((position, mv, r));
        }
    }

    /// The review of each recorded move of `game`.
    #[must_use]
    pub fn plies(&self, game: &Game) -> Vec<Option<PlyReview>> {
        game.moves()
            .iter()
            .enumerate()
            .map(|(i, &mv)| game.position_at(i).and_then(|p| self.get(&p, mv)))
            .collect()
    }

    /// The reviews of a record's `RV` property, or why it cannot be read.
    ///
    /// # Errors
    /// The [`review::CacheError`] of a malformed property.
    pub fn of_record(r: &Record) -> Result<Reviews, review::CacheError> {
        let (_, plies) = review::read_cache(&r.review, &r.game)?;
        let mut out = Reviews::default();
        for (i, p) in plies.into_iter().enumerate() {
            if let (Some(p), Some(pos)) = (p, r.game.position_at(i)) {
                out.insert(pos, r.game.moves()[i], p);
            }
        }
        Ok(out)
    }

    /// The `RV` text for `game` (empty when nothing of it is reviewed).
    #[must_use]
    pub fn cache_text(&self, game: &Game) -> String {
        review::write_cache(REVIEW_DEPTH, &self.plies(game))
    }
}

/// What the game screen is doing with the match.
#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// The game is played: moves are made, the AI thinks.
    Play,
    /// The history is replayed: the game's own cursor (the one undo and redo
    /// move) is stepped; nothing is played.
    Replay(Replay),
}

/// The state of replay mode. The shown ply is the game's cursor, never a copy.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// The ply play was at when replay began; leaving with Esc goes back there.
    pub from: usize,
    /// Autoplay: when the last step was shown, while it runs.
    pub autoplay: Option<Instant>,
    /// The time between autoplay steps.
    pub pace: Pace,
    /// The per-ply analysis, once asked for with `a`.
    pub analysis: Option<Analysis>,
}

/// The review of a replayed game while it is shown: the job running, and
/// the plies whose analysis failed (not retried). The results are kept in
/// [`Match::reviews`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// The job running, with the position it analyses.
    pub running: Option<(JobId, Position)>,
    /// Plies (position before, move) not to analyse again.
    pub skipped: Vec<(Position, Move)>,
}

impl Match {
    /// The player of `color`.
    #[must_use]
    pub fn player(&self, color: Color) -> Player {
        self.players[color.index()]
    }

    /// The name a loaded game gives `color`'s person, while a person plays
    /// that side (see [`Setup::names`]).
    #[must_use]
    pub fn recorded_name(&self, color: Color) -> Option<&str> {
        match self.player(color) {
            Player::Human => self.names[color.index()].as_deref(),
            Player::Ai(_) => None,
        }
    }

    /// Whether a person plays at least one side.
    #[must_use]
    pub fn has_human(&self) -> bool {
        self.players.contains(&Player::Human)
    }

    /// The level used for hints and when a person hands a side to the AI.
    #[must_use]
    pub fn ai_level(&self) -> Level {
        self.players
            .iter()
            .find_map(|p| match p {
                Player::Ai(l) => Some(*l),
                Player::Human => None,
            })
            .unwrap_or(Level::DEFAULT)
    }

    /// The colour a person plays when exactly one side is human.
    #[must_use]
    pub fn human_colour(&self) -> Option<Color> {
        match self.players {
            [Player::Human, Player::Ai(_)] => Some(Color::Black),
            [Player::Ai(_), Player::Human] => Some(Color::White),
            _ => None,
        }
    }

    /// The hint's scores when they are for the position shown, best first
    /// (else none).
    #[must_use]
    pub fn hint_shown(&self) -> &[MoveEval] {
        self.hint
            .as_ref()
            .filter(|h| h.position == self.game.position())
            .map_or(&[], |h| &h.evals)
    }

    /// The position before the shown ply's move, and that move: what the
    /// analysis of the shown ply is about.
    #[must_use]
    pub fn shown_move(&self) -> Option<(Position, Move)> {
        let ply = self.game.ply().checked_sub(1)?;
        Some((self.game.position_at(ply)?, self.game.moves()[ply]))
    }
}

/// How fast the AI moves are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pace(pub u8);

impl Pace {
    /// The slowest pace index.
    pub const SLOWEST: u8 = 4;

    /// The minimum time between the start of the AI's turn and its move.
    #[must_use]
    pub fn delay(self) -> Duration {
        Duration::from_millis([0, 250, 600, 1200, 2500][usize::from(self.0.min(Self::SLOWEST))])
    }
}

/// An identifier tagging a job sent to the AI worker.
pub type JobId = u64;

/// The AI's search for its move.
#[derive(Clone, Debug)]
pub struct AiJob {
    /// The job's id.
    pub id: JobId,
    /// The position searched.
    pub position: Position,
    /// When it started (clock of the model).
    pub started: Instant,
    /// The last progress report.
    pub progress: Option<Progress>,
    /// The result, held back until the pace allows playing it.
    pub result: Option<SearchResult>,
}

/// A hint: every legal move's score for the side to move.
#[derive(Clone, Debug)]
pub struct Hint {
    /// The job's id.
    pub id: JobId,
    /// The position analysed.
    pub position: Position,
    /// When the analysis started (clock of the model).
    pub started: Instant,
    /// The scores, best first; empty while the analysis runs.
    pub evals: Vec<MoveEval>,
}

/// How to draw: glyphs and colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Use colours (false when `NO_COLOR` is set).
    pub color: bool,
    /// Only ASCII glyphs.
    pub ascii: bool,
}
