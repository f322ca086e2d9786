//! The state of the Elm loop: the [`App`] (what the screen shows, the
//! overlay, the status line, the clock), the messages that [`super::update()`]
//! receives and the effects it asks for. The game's own model is in
//! [`super::model`]; the online screen is a component of the app, its model,
//! messages and effects nested in these ([`Screen::Online`], [`Msg::Online`],
//! [`Effect::Online`]). Never depends on the terminal.

use super::keys::KeyPress;
use super::layout::{FORM_SIZE, ScreenLayout, layout};
use super::model::{Choices, JobId, Look, Match, NewGameForm, Setup};
use super::online::{self, Online};
use crate::ai::{Level, MoveEval, Progress, SearchResult};
use crate::i18n::Lang;
use crate::notation::ggf::Record;
use crate::random::{self, Rng};
use crate::rules::{BoardSize, Position, Rules};
use ratatui::layout::Rect;
use std::time::Instant;

/// A window over the screen.
#[derive(Clone, Debug, PartialEq)]
pub enum Overlay {
    /// All keys and the rules.
    Help,
    /// The rules in full, scrolled down by this many rows.
    Rules(u16),
    /// "Quit this unfinished game? y/n".
    ConfirmQuit,
    /// "Continue from this move, dropping the later ones? y/n" (replay).
    ConfirmContinue,
    /// "Resume the unfinished game? y/n" (on start, with the autosaved game).
    Resume(Box<Setup>),
}

/// What the screen is showing.
#[derive(Clone, Debug)]
pub enum Screen {
    /// The new-game screen.
    NewGame(NewGameForm),
    /// A game.
    Play(Box<Match>),
    /// The guided first game.
    Lesson(Box<super::lesson::Lesson>),
    /// The online screen: the lobby and tables of a salon server.
    Online {
        /// The online screen's model.
        online: Box<Online>,
        /// The new-game screen it was opened over, which leaving it shows.
        back: NewGameForm,
    },
}

/// A message: the only way the model changes.
#[derive(Clone, Debug)]
pub enum Msg {
    /// A key was pressed.
    Key(KeyPress),
    /// A left click at a screen cell.
    Click {
        /// Column on screen.
        x: u16,
        /// Row on screen.
        y: u16,
    },
    /// The terminal's size.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// Time passes (drives the spinner and the AI's pace).
    Tick(Instant),
    /// The AI worker reports progress.
    Progress {
        /// The job.
        id: JobId,
        /// The report.
        progress: Progress,
    },
    /// The AI worker found a move.
    Searched {
        /// The job.
        id: JobId,
        /// The position it searched.
        position: Position,
        /// The result.
        result: SearchResult,
    },
    /// The AI worker analysed every move for a hint.
    Analysed {
        /// The job.
        id: JobId,
        /// The position it analysed.
        position: Position,
        /// The scores, best first.
        evals: Vec<MoveEval>,
    },
    /// The AI worker failed on a job (the engine panicked); it has a fresh
    /// engine for the next one.
    Failed {
        /// The job.
        id: JobId,
        /// What went wrong.
        message: String,
    },
    /// A message for the online screen (the network worker's reports).
    Online(online::Msg),
    /// The remembered server, name and tokens, read to open the online
    /// screen (the answer to [`Effect::OpenOnline`]).
    Remembered {
        /// What `online.conf` holds.
        remembered: Box<online::settings::Remembered>,
        /// Connect at once (else show the connect form).
        connect: bool,
    },
    /// Quit at once (a signal).
    Terminate,
    /// Text pasted into the terminal (bracketed paste): text for a line
    /// being typed, never keys.
    Paste(String),
}

/// What a job asks of the AI worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// Search for the move to play, at a level, with a seed for its randomness.
    Move {
        /// The level.
        level: Level,
        /// The seed.
        seed: u64,
    },
    /// Score every legal move.
    Hint {
        /// The level whose limits bound the analysis.
        level: Level,
    },
    /// Score every legal move for the game review.
    Review {
        /// The limits of the analysis.
        limits: crate::ai::Limits,
    },
}

/// A job for the AI worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Its id.
    pub id: JobId,
    /// What to do.
    pub kind: JobKind,
    /// The position.
    pub position: Position,
    /// The rules.
    pub rules: Rules,
}

/// Something [`super::update()`] asks the runtime to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Start a job on the AI worker.
    Start(Job),
    /// Stop a running job at once (its result will be dropped).
    Stop(JobId),
    /// Remember the new-game choices.
    SaveChoices(Choices),
    /// Save the game to the chosen file or the data directory (the runtime
    /// dates it and reports the path in the status line).
    Save(Box<Record>),
    /// Copy the text to the clipboard through the terminal (OSC 52).
    Copy(String),
    /// Write the autosave, or remove it (`None`: no unfinished game).
    Autosave(Option<Box<Record>>),
    /// Read the remembered server and name and open the online screen
    /// with them (answered by [`Msg::Remembered`]); `connect`: at once
    /// (back to the salon a finished online game was opened from), else
    /// the connect form.
    OpenOnline {
        /// Connect at once.
        connect: bool,
    },
    /// What the online screen asks (its network worker, its files).
    Online(online::Effect),
}

/// The whole UI state.
#[derive(Clone, Debug)]
pub struct App {
    /// What is shown.
    pub(super) screen: Screen,
    /// A window on top, if any.
    pub(super) overlay: Option<Overlay>,
    /// The status line's message.
    pub(super) status: Option<String>,
    /// Whether legal-move dots are shown.
    pub(super) dots: bool,
    /// Glyphs and colours.
    pub(super) look: Look,
    /// The language of the screen: every word drawn and said is in it.
    pub(super) lang: Lang,
    /// The terminal size (for hit-testing clicks with the drawing layout).
    pub(super) area: (u16, u16),
    /// The time of the last tick.
    pub(super) clock: Instant,
    /// Whether the program should end.
    pub(super) quit: bool,
    /// The random generator (colour draws and AI seeds).
    pub(super) rng: Rng,
    /// The id of the next job.
    pub(super) next_job: JobId,
    /// The game left for the new-game screen, which Esc returns to.
    pub(super) suspended: Option<Box<Match>>,
    /// The autosave last asked for (`None`: removed), so that it is written
    /// only when the game changed.
    pub(super) autosaved: Option<Box<Record>>,
    /// The new-game choices the current game was started with, if it came
    /// from the new-game screen (`n` preselects them, a colour drawn at
    /// random included).
    pub(super) started_with: Option<Choices>,
    /// The new-game screen's choices as last set there (or read at the
    /// start): a game only looked at leaves them as they were.
    pub(super) form_choices: Choices,
    /// The game shown was opened from the online screen (`v` after a game),
    /// which leaving its replay goes back to.
    pub(super) back_online: bool,
    /// The opening book, for the review's "left the book" lines (the
    /// worker has its own for the searches).
    pub(super) book: Option<std::sync::Arc<crate::ai::book::Book>>,
}

impl App {
    /// An app showing the new-game screen with `choices`, in the language
    /// they chose (English when none).
    #[must_use]
    pub fn new(choices: Choices, look: Look, seed: u64, now: Instant) -> App {
        App {
            screen: Screen::NewGame(NewGameForm { choices, field: 0 }),
            overlay: None,
            status: None,
            dots: true,
            look,
            lang: choices.language.unwrap_or_default(),
            area: (100, 40),
            clock: now,
            quit: false,
            rng: random::seeded(seed),
            next_job: 1,
            suspended: None,
            autosaved: None,
            started_with: None,
            form_choices: choices,
            back_online: false,
            book: None,
        }
    }

    /// How the screen is drawn.
    #[must_use]
    pub fn look(&self) -> Look {
        self.look
    }

    /// The screen's language.
    #[must_use]
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The terminal size last reported.
    #[must_use]
    pub fn area(&self) -> (u16, u16) {
        self.area
    }

    /// The game being played, if any.
    #[must_use]
    pub fn current(&self) -> Option<&Match> {
        match &self.screen {
            Screen::Play(m) => Some(m),
            Screen::NewGame(_) | Screen::Lesson(_) | Screen::Online { .. } => None,
        }
    }

    /// The online screen, when it is shown.
    #[must_use]
    pub fn online(&self) -> Option<&Online> {
        match &self.screen {
            Screen::Online { online, .. } => Some(online),
            _ => None,
        }
    }

    /// Whether a screen of `area` is too small for what is shown: "Terminal
    /// too small" is drawn instead (and game keys are ignored, since their
    /// effect could not be seen).
    #[must_use]
    pub fn is_too_small(&self, area: Rect) -> bool {
        let board = match &self.screen {
            Screen::NewGame(_) => {
                let (w, h) = FORM_SIZE;
                return area.width < w || area.height < h;
            }
            Screen::Play(m) => m.game.rules().size,
            Screen::Lesson(_) => BoardSize::Eight,
            Screen::Online { online, .. } => {
                let (w, h) = online.needed_size();
                return area.width < w || area.height < h;
            }
        };
        matches!(layout(area, board), ScreenLayout::TooSmall { .. })
    }

    /// The next 64 random bits.
    pub fn random(&mut self) -> u64 {
        random::next(&mut self.rng)
    }
}
