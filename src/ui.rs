//! The game in the terminal: a ratatui + crossterm full-screen UI in the Elm
//! architecture. Terminal events and AI results become [`Msg`]s; [`update()`] is
//! the only function that changes the [`App`]; [`view()`] draws it. Long work
//! (the AI) runs on a worker thread and comes back as messages tagged with the
//! position it was for.
//!
//! Depends on `rules`, `notation`, the `ai` API and the client side of `net`
//! (its protocol, client and session), with the helpers `i18n`, `dirs`,
//! `storage` and `random`; only `cli` and `screen` depend on `ui`.
//!
//! * [`model`] — the model of a game on screen (players, match, setup,
//!   reviews, new-game choices); [`app`] — the app around it, messages and effects
//! * [`keys`] — the model's keys and the game screen's key map
//! * [`mod@update`] — the pure update function
//! * [`layout`] — the one geometry, for drawing and for mouse hit-tests
//! * [`panel`] — the side panel's text and the rows it takes; [`mod@text`] —
//!   text in rows of a width (words wrapped, paths kept whole)
//! * [`board_input`] — the board's cursor and typed squares, the same on
//!   every screen with a board
//! * [`board`], [`moves`], [`mod@view`], [`newgame`], [`theme`], [`widgets`]
//!   — drawing
//! * [`replay`] — replay mode: stepping through the history, autoplay
//! * [`review`] — the game review in replay (background analysis, mistakes,
//!   summary); [`graph`] — its score graph
//! * [`record`] — saved games, the autosave and the data directory
//! * [`worker`] — the AI thread; [`words`] — sides, levels and results in the
//!   player's language
//! * [`runner`] — the one effect runner: the workers, the files, the
//!   clipboard, for the event loop here and for tests without a terminal
//! * `terminal` — the edge: the full screen, signals, terminal events → [`Msg`]
//! * [`config`] — the remembered new-game choices
//! * [`online`] — the online screen, a component of the app: lobby and
//!   tables of a salon server
//! * [`lesson`] — the guided first game (`reversi learn`); [`rules_help`] —
//!   the rules in full

pub mod app;
pub mod board;
pub mod board_input;
pub mod config;
pub mod graph;
pub mod keys;
pub mod layout;
pub mod lesson;
pub mod model;
pub mod moves;
pub mod newgame;
pub mod online;
pub mod panel;
pub mod record;
pub mod replay;
pub mod review;
pub mod rules_help;
pub mod runner;
mod terminal;
pub mod text;
pub mod theme;
pub mod update;
pub mod view;
pub mod widgets;
pub mod words;
pub mod worker;

#[cfg(test)]
mod tests;

pub use app::{App, Msg, Overlay};
pub use model::{Choices, Look, Player, Setup};
pub use online::Online;
pub use runner::Runner;
pub use update::update;
pub use view::view;

use crate::i18n::Lang;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{IsTerminal, Stdout, stdout};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use terminal::TerminalGuard;
pub use terminal::{message_of, osc52, restore_terminal};

/// How to run the UI.
#[derive(Clone, Debug)]
pub struct Options {
    /// Start this game at once; `None` opens the new-game screen.
    pub start: Option<Setup>,
    /// Glyphs and colours.
    pub look: Look,
    /// Capture the mouse (clicks play); off leaves text selection to the terminal.
    pub mouse: bool,
    /// Transposition table size for the AI, in MiB.
    pub hash_mb: usize,
    /// The opening book the AI plays from (levels 10–12) and the hint uses.
    pub book: Option<std::sync::Arc<crate::ai::book::Book>>,
    /// Seed for colour draws and the AI's randomness; `None` draws one.
    pub seed: Option<u64>,
    /// Where `s` saves the game; `None`: a new file in the data directory.
    pub save: Option<PathBuf>,
    /// Offer to resume an unfinished autosaved game (the new-game screen).
    pub offer_resume: bool,
    /// Open the online screen first (`reversi online`).
    pub online: Option<online::Start>,
    /// Open the guided first game (`reversi learn`) instead of the new-game
    /// screen.
    pub learn: bool,
    /// The language of the screen (until it is changed on the new-game
    /// screen).
    pub lang: Lang,
}

impl Options {
    /// The options of `reversi` with no arguments: the new-game screen in
    /// `lang`, colour unless `NO_COLOR` is set, mouse on.
    #[must_use]
    pub fn interactive(lang: Lang) -> Options {
        Options {
            start: None,
            look: Look {
                color: !no_color(),
                ascii: false,
            },
            mouse: true,
            hash_mb: 64,
            book: crate::ai::book::Book::shipped()
                .ok()
                .filter(|b| !b.is_empty()),
            seed: None,
            save: None,
            offer_resume: true,
            online: None,
            learn: false,
            lang,
        }
    }
}

/// Whether `NO_COLOR` asks for no colour (set and not empty, per no-color.org).
#[must_use]
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Whether stdin and stdout are a terminal, as the full-screen UI needs.
#[must_use]
pub fn has_terminal() -> bool {
    std::io::stdin().is_terminal() && stdout().is_terminal()
}

/// The message when there is no terminal.
pub const NO_TERMINAL: &str = "the game needs a terminal; see `reversi --help` for the commands that do not (e.g. `reversi show`)";

/// Runs the game until the player quits.
///
/// # Errors
/// A terminal I/O error (the terminal is restored first).
pub fn run(options: Options) -> anyhow::Result<()> {
    let now = Instant::now();
    let lang = options.lang;
    let seed = options.seed.unwrap_or_else(crate::random::fresh_seed);
    let config_dir = crate::dirs::config_dir().ok();
    let (choices, notice) = match config_dir.as_deref().map(config::load) {
        Some(Ok(Some(c))) => (c, None),
        Some(Ok(None)) | None => (Choices::default(), None),
        Some(Err(e)) => (
            Choices::default(),
            Some(crate::tr!(
                lang,
                "status-config-unused",
                error = e.to_string()
            )),
        ),
    };
    let mut app = App::new(choices, options.look, seed, now);
    app.book.clone_from(&options.book);
    app.lang = lang;
    app.status = notice;
    let places = runner::Places {
        config: config_dir,
        data: crate::dirs::data_dir(),
        save: options.save,
    };
    let mut opening = Vec::new();
    if let Some(setup) = options.start {
        update::start(&mut app, setup);
    } else if let Some(start) = options.online.clone() {
        let tokens = places
            .config
            .as_deref()
            .map(|dir| online::settings::read(dir).tokens)
            .unwrap_or_default();
        opening = update::open_online(&mut app, start.server, tokens, start.intent, start.connect);
    } else if options.learn {
        if let app::Screen::NewGame(form) = &app.screen {
            app.screen = app::Screen::Lesson(Box::new(lesson::Lesson::new(*form)));
        }
    } else if options.offer_resume
        && let Ok(dir) = &places.data
    {
        match record::read_autosave(lang, dir, std::time::SystemTime::now()) {
            record::Autosaved::Nothing => {}
            record::Autosaved::Unfinished(r) => {
                app.overlay = Some(Overlay::Resume(Box::new(record::setup_of(lang, &r))));
            }
            record::Autosaved::Corrupt { message } => app.status = Some(message),
        }
    }

    let signalled = terminal::watch_signals()?;

    let _guard = TerminalGuard;
    let mut terminal = terminal::init_terminal(options.mouse)?;
    let engine = runner::Engine {
        hash_mb: options.hash_mb,
        book: options.book,
    };
    let trust = options.online.map(|s| s.trust).unwrap_or_default();
    let mut runner = Runner::new(engine, places, trust);
    runner.perform_all(&mut app, opening);
    let result = event_loop(&mut app, &mut terminal, &mut runner, &signalled);
    runner.shut_down();
    drop(terminal);
    restore_terminal();
    result
}

/// Feeds every message to [`update()`] through the runner, which carries out
/// its effects, and draws, until the app quits.
fn event_loop(
    app: &mut App,
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    runner: &mut Runner,
    signalled: &AtomicBool,
) -> anyhow::Result<()> {
    let size = terminal.size()?;
    let mut pending = vec![Msg::Resize {
        width: size.width,
        height: size.height,
    }];
    loop {
        pending.push(Msg::Tick(Instant::now()));
        for msg in pending.drain(..) {
            runner.handle(app, msg);
        }
        runner.handle_reports(app);
        if signalled.load(Ordering::Relaxed) {
            runner.handle(app, Msg::Terminate);
        }
        if app.quit {
            return Ok(());
        }
        terminal.draw(|f| view(app, f))?;
        let wait = Duration::from_millis(pace(app));
        if crossterm::event::poll(wait)? {
            loop {
                if let Some(msg) = message_of(crossterm::event::read()?) {
                    pending.push(msg);
                }
                if !crossterm::event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
    }
}

/// How long to wait for input before drawing again, in milliseconds: less
/// while something moves on screen without input (the AI thinking,
/// autoplay, the review running, a table's clock).
fn pace(app: &App) -> u64 {
    let busy = app.current().is_some_and(|m| {
        m.ai.is_some()
            || matches!(&m.mode, model::Mode::Replay(r) if r.autoplay.is_some() || r.analysis.as_ref().is_some_and(|a| a.running.is_some()))
    });
    let ticking = app
        .online()
        .and_then(Online::table)
        .is_some_and(|t| t.clocks.is_some() && t.is_playing());
    if busy {
        40
    } else if ticking {
        100
    } else {
        200
    }
}
