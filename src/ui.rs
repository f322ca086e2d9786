//! The game in the terminal: a ratatui + crossterm full-screen UI in the Elm
//! architecture. Terminal events and AI results become [`Msg`]s; [`update()`] is
//! the only function that changes the [`App`]; [`view()`] draws it. Long work
//! (the AI) runs on a worker thread and comes back as messages tagged with the
//! position it was for.
//!
//! Depends on `rules`, `notation` and the `ai` API; nothing depends on `ui`.
//!
//! * [`model`] — the model of a game on screen (players, match, setup,
//!   reviews, new-game choices); [`app`] — the app around it, messages and effects
//! * [`keys`] — the model's keys and the game screen's key map
//! * [`mod@update`] — the pure update function
//! * [`layout`] — the one geometry, for drawing and for mouse hit-tests
//! * [`panel`] — the side panel's text and the rows it takes; [`mod@text`] —
//!   text in rows of a width (words wrapped, paths kept whole)
//! * [`board`], [`mod@view`], [`newgame`], [`theme`] — drawing
//! * [`replay`] — replay mode: stepping through the history, autoplay
//! * [`review`] — the game review in replay (background analysis, mistakes,
//!   summary); [`graph`] — its score graph
//! * [`record`] — saved games, the autosave and the data directory
//! * [`worker`] — the AI thread; [`words`] — sides, levels and results in the
//!   player's language
//! * `terminal` — the edge: the full screen, signals, terminal events → [`Msg`]
//! * [`config`] — the remembered new-game choices
//! * [`online`] — the online screen: lobby and tables of a salon server
//! * [`lesson`] — the guided first game (`reversi learn`); [`rules_help`] —
//!   the rules in full

pub mod app;
pub mod board;
pub mod config;
pub mod graph;
pub mod keys;
pub mod layout;
pub mod lesson;
pub mod model;
pub mod newgame;
pub mod online;
pub mod panel;
pub mod record;
pub mod replay;
pub mod review;
pub mod rules_help;
mod terminal;
pub mod text;
pub mod theme;
pub mod update;
pub mod view;
pub mod words;
pub mod worker;

#[cfg(test)]
mod tests;

pub use app::{App, Effect, Msg, Overlay};
pub use model::{Choices, Look, Player, Setup};
pub use update::update;
pub use view::view;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{IsTerminal, Stdout, Write, stdout};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
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
}

impl Options {
    /// The options of `reversi` with no arguments: the new-game screen, colour
    /// unless `NO_COLOR` is set, mouse on.
    #[must_use]
    pub fn interactive() -> Options {
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
    let seed = options.seed.unwrap_or_else(crate::random::fresh_seed);
    let config_dir = crate::dirs::config_dir().ok();
    let (choices, notice) = match config_dir.as_deref().map(config::load) {
        Some(Ok(Some(c))) => (c, None),
        Some(Ok(None)) | None => (Choices::default(), None),
        Some(Err(e)) => (
            Choices::default(),
            Some(crate::tr!("status-config-unused", error = e.to_string())),
        ),
    };
    let mut app = App::new(choices, options.look, seed, now);
    app.status = notice;
    let data_dir = crate::dirs::data_dir().ok();
    if let Some(setup) = options.start {
        update::start(&mut app, setup);
    } else if options.learn {
        if let app::Screen::NewGame(form) = &app.screen {
            app.screen = app::Screen::Lesson(Box::new(lesson::Lesson::new(*form)));
        }
    } else if options.offer_resume
        && let Some(dir) = &data_dir
    {
        match record::read_autosave(dir, std::time::SystemTime::now()) {
            record::Autosaved::Nothing => {}
            record::Autosaved::Unfinished(r) => {
                app.overlay = Some(Overlay::Resume(Box::new(record::setup_of(&r))));
            }
            record::Autosaved::Corrupt { message } => app.status = Some(message),
        }
    }

    let signalled = terminal::watch_signals()?;

    let _guard = TerminalGuard;
    let mut terminal = terminal::init_terminal(options.mouse)?;
    let (tx, rx) = channel();
    let mut runtime = Runtime {
        worker: worker::Worker::spawn(options.hash_mb, options.book.clone(), tx),
        config_dir,
        data_dir,
        save: options.save,
        trust: options
            .online
            .as_ref()
            .map(|s| s.trust.clone())
            .unwrap_or_default(),
        go_online: options.online,
    };
    let result = event_loop(&mut app, &mut terminal, &mut runtime, &rx, &signalled);
    runtime.worker.shut_down();
    drop(terminal);
    restore_terminal();
    result
}

/// Feeds every message to [`update()`], carries out its effects and draws,
/// until the app quits.
fn event_loop(
    app: &mut App,
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    runtime: &mut Runtime,
    rx: &Receiver<Msg>,
    signalled: &AtomicBool,
) -> anyhow::Result<()> {
    let size = terminal.size()?;
    let mut pending = vec![Msg::Resize {
        width: size.width,
        height: size.height,
    }];
    loop {
        if let Some(start) = runtime.go_online.take() {
            let places = online::Places {
                config: runtime.config_dir.clone(),
                data: runtime.data_dir.clone(),
                save: runtime.save.clone(),
            };
            match online::run(terminal, start, app.look, &places, signalled)? {
                online::Exit::Quit => return Ok(()),
                online::Exit::Back => {}
                online::Exit::Replay(r) => {
                    update::start(app, record::setup_of(&r));
                    app.back_online = true;
                }
            }
            terminal.clear()?;
        }
        pending.push(Msg::Tick(Instant::now()));
        pending.extend(rx.try_iter());
        if signalled.load(Ordering::Relaxed) {
            pending.push(Msg::Terminate);
        }
        for msg in pending.drain(..) {
            for effect in update(app, msg) {
                runtime.perform(app, effect);
            }
        }
        if app.quit {
            return Ok(());
        }
        crate::i18n::set_language(app.lang);
        terminal.draw(|f| view(app, f))?;
        let wait = Duration::from_millis(if is_busy(app) { 40 } else { 200 });
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

/// Whether something moves on screen without input (the AI thinking,
/// autoplay, the review running): then the screen is redrawn more often.
fn is_busy(app: &App) -> bool {
    app.current().is_some_and(|m| {
        m.ai.is_some()
            || matches!(&m.mode, model::Mode::Replay(r) if r.autoplay.is_some() || r.analysis.as_ref().is_some_and(|a| a.running.is_some()))
    })
}

/// What carries out the effects [`update()`] asks for: the AI worker, the
/// config and data folders, the file `s` saves to.
struct Runtime {
    worker: worker::Worker,
    config_dir: Option<PathBuf>,
    data_dir: Option<PathBuf>,
    save: Option<PathBuf>,
    /// The online screen to open next (from the new-game screen, or at start).
    go_online: Option<online::Start>,
    /// The certificates the online screen believes over `wss://` (those of
    /// `reversi online --ca`, else Mozilla's roots).
    trust: crate::net::client::Trust,
}

impl Runtime {
    /// Carries out `effect`; a failure is reported in the status line.
    fn perform(&mut self, app: &mut App, effect: Effect) {
        match effect {
            Effect::Start(job) => self.worker.start(job),
            Effect::Stop(id) => self.worker.stop(id),
            Effect::SaveChoices(c) => {
                if let Some(dir) = &self.config_dir
                    && let Err(e) = config::save(dir, &c)
                {
                    app.status = Some(crate::tr!(
                        "status-choices-not-saved",
                        error = e.to_string()
                    ));
                }
            }
            Effect::GoOnline | Effect::BackOnline => {
                let server = self
                    .config_dir
                    .as_deref()
                    .map_or_else(|| online::settings::parse(""), online::settings::load);
                self.go_online = Some(online::Start {
                    server,
                    connect: matches!(effect, Effect::BackOnline),
                    intent: None,
                    trust: self.trust.clone(),
                });
            }
            Effect::Save(r) => {
                let now = std::time::SystemTime::now();
                let path = match &self.save {
                    Some(p) => Ok(p.clone()),
                    None => crate::dirs::data_dir().map(|d| record::save_path(&d, now)),
                };
                app.status = Some(match path {
                    Err(e) => crate::tr!("status-not-saved", error = e.to_string()),
                    Ok(p) => match record::save(&p, &r, now) {
                        Ok(()) => crate::tr!("status-saved-to", path = crate::dirs::shown(&p)),
                        Err(e) => crate::tr!(
                            "status-not-saved-to",
                            path = crate::dirs::shown(&p),
                            error = e.to_string()
                        ),
                    },
                });
            }
            Effect::Copy(text) => {
                let mut out = stdout();
                let _ = out.write_all(osc52(&text).as_bytes());
                let _ = out.flush();
            }
            Effect::Autosave(r) => {
                if let Some(dir) = &self.data_dir
                    && let Err(e) =
                        record::write_autosave(dir, r.as_deref(), std::time::SystemTime::now())
                {
                    app.status = Some(crate::tr!("status-autosave-failed", error = e.to_string()));
                }
            }
        }
    }
}
