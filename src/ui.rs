//! The game in the terminal: a ratatui + crossterm full-screen UI in the Elm
//! architecture. Terminal events and AI results become [`Msg`]s; [`update()`] is
//! the only function that changes the [`App`]; [`view()`] draws it. Long work
//! (the AI) runs on a worker thread and comes back as messages tagged with the
//! position it was for.
//!
//! Depends on `rules`, `notation` and the `ai` API; nothing depends on `ui`.
//!
//! * [`app`] — the model (game setup and reviews included), messages and effects
//! * [`keys`] — the model's keys; terminal key events are mapped to them here
//! * [`mod@update`] — the pure update function
//! * [`layout`] — the one geometry, for drawing and for mouse hit-tests
//! * [`panel`] — the side panel's text and the rows it takes
//! * [`board`], [`mod@view`], [`newgame`], [`theme`] — drawing
//! * [`replay`] — replay mode: stepping through the history, autoplay
//! * [`review`] — the game review in replay (background analysis, mistakes,
//!   summary); [`graph`] — its score graph
//! * [`record`] — saved games, the autosave and the data directory
//! * [`worker`] — the AI thread
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
pub mod newgame;
pub mod online;
pub mod panel;
pub mod record;
pub mod replay;
pub mod review;
pub mod rules_help;
pub mod theme;
pub mod update;
pub mod view;
pub mod worker;

#[cfg(test)]
mod tests;

pub use app::{App, Choices, Effect, Look, Msg, Overlay, Player, Setup};
pub use update::update;
pub use view::view;

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseButton, MouseEventKind,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use keys::{Key, KeyPress};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{IsTerminal, Stdout, Write, stdout};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

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

/// Copies `text` to the clipboard through the terminal: the OSC 52 sequence.
#[must_use]
pub fn osc52(text: &str) -> String {
    const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::from("\x1b]52;c;");
    for chunk in text.as_bytes().chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(B64[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out.push('\x07');
    out
}

/// Puts the terminal back: raw mode off, main screen, mouse released, cursor
/// shown. Safe to call more than once.
pub fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(
        stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

/// Watches SIGTERM, SIGHUP, SIGINT and SIGQUIT: the returned flag asks the
/// event loop to end cleanly. If the loop has not ended a second later (when the
/// terminal is gone, crossterm can spin on its closed input and never return to
/// the loop), the terminal is restored and the process exits with 128 + signal.
fn watch_signals() -> anyhow::Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let signalled = Arc::new(AtomicBool::new(false));
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
    let flag = Arc::clone(&signalled);
    std::thread::Builder::new()
        .name("reversi-signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                flag.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_secs(1));
                restore_terminal();
                std::process::exit(128 + sig);
            }
        })?;
    Ok(signalled)
}

/// Restores the terminal when dropped (on return, on error, on unwinding).
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

fn init_terminal(mouse: bool) -> std::io::Result<Terminal<CrosstermBackend<Stdout>>> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // A panic in the AI worker is caught there and shown in the status
        // line; any other panic ends the program, so restore the terminal first.
        if std::thread::current().name() != Some(worker::THREAD_NAME) {
            restore_terminal();
            hook(info);
        }
    }));
    enable_raw_mode()?;
    // Erased explicitly: after a crash the terminal may still be on the
    // alternate screen, and entering it again keeps what is there.
    execute!(
        stdout(),
        EnterAlternateScreen,
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All),
        crossterm::cursor::MoveTo(0, 0),
        crossterm::cursor::Hide
    )?;
    if mouse {
        execute!(stdout(), EnableMouseCapture)?;
    }
    Terminal::new(CrosstermBackend::new(stdout()))
}

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
            Some(format!("Config not used ({e}); defaults chosen")),
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

    let signalled = watch_signals()?;

    let _guard = TerminalGuard;
    let mut terminal = init_terminal(options.mouse)?;
    let size = terminal.size()?;
    let (tx, rx) = channel();
    let mut worker = worker::Worker::spawn(options.hash_mb, tx);
    let mut pending = vec![Msg::Resize {
        width: size.width,
        height: size.height,
    }];

    let places = online::Places {
        config: config_dir.clone(),
        data: data_dir.clone(),
        save: options.save.clone(),
    };
    let mut go_online = options.online;
    let result = (|| -> anyhow::Result<()> {
        loop {
            if let Some(start) = go_online.take() {
                let exit = online::run(&mut terminal, start, app.look, &places, &signalled)?;
                match exit {
                    online::Exit::Quit => return Ok(()),
                    online::Exit::Back => {}
                    online::Exit::Replay(r) => update::start(&mut app, record::setup_of(&r)),
                }
                terminal.clear()?;
            }
            pending.push(Msg::Tick(Instant::now()));
            pending.extend(rx.try_iter());
            if signalled.load(Ordering::Relaxed) {
                pending.push(Msg::Terminate);
            }
            for msg in pending.drain(..) {
                for effect in update(&mut app, msg) {
                    match effect {
                        Effect::Start(job) => worker.start(job),
                        Effect::Stop(id) => worker.stop(id),
                        Effect::SaveChoices(c) => {
                            if let Some(dir) = &config_dir
                                && let Err(e) = config::save(dir, &c)
                            {
                                app.status = Some(format!("Choices not saved: {e}"));
                            }
                        }
                        Effect::Save(r) => {
                            let now = std::time::SystemTime::now();
                            let path = match &options.save {
                                Some(p) => Ok(p.clone()),
                                None => crate::dirs::data_dir().map(|d| record::save_path(&d, now)),
                            };
                            app.status = Some(match path {
                                Err(e) => format!("Not saved: {e}"),
                                Ok(p) => match record::save(&p, &r, now) {
                                    Ok(()) => format!("Saved to {}", p.display()),
                                    Err(e) => format!("Not saved to {}: {e}", p.display()),
                                },
                            });
                        }
                        Effect::GoOnline => {
                            let server = config_dir.as_deref().map_or_else(
                                || online::settings::parse(""),
                                online::settings::load,
                            );
                            go_online = Some(online::Start {
                                server,
                                connect: false,
                                intent: None,
                            });
                        }
                        Effect::Copy(text) => {
                            let mut out = stdout();
                            let _ = out.write_all(osc52(&text).as_bytes());
                            let _ = out.flush();
                        }
                        Effect::Autosave(r) => {
                            if let Some(dir) = &data_dir
                                && let Err(e) = record::write_autosave(
                                    dir,
                                    r.as_deref(),
                                    std::time::SystemTime::now(),
                                )
                            {
                                app.status = Some(format!("Autosave failed: {e}"));
                            }
                        }
                    }
                }
            }
            if app.quit {
                return Ok(());
            }
            crate::i18n::set_language(app.lang);
            terminal.draw(|f| view(&app, f))?;
            let busy = app.current().is_some_and(|m| {
                m.ai.is_some()
                    || matches!(&m.mode, app::Mode::Replay(r) if r.autoplay.is_some() || r.analysis.as_ref().is_some_and(|a| a.running.is_some()))
            });
            let wait = Duration::from_millis(if busy { 40 } else { 200 });
            if event::poll(wait)? {
                loop {
                    if let Some(msg) = message_of(event::read()?) {
                        pending.push(msg);
                    }
                    if !event::poll(Duration::ZERO)? {
                        break;
                    }
                }
            }
        }
    })();
    worker.shut_down();
    drop(terminal);
    restore_terminal();
    result
}

/// The message for a terminal event: key presses (not releases or repeats of
/// a release), left clicks and resizes.
#[must_use]
pub fn message_of(event: Event) -> Option<Msg> {
    match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => Some(Msg::Key(key_press(key))),
        Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => Some(Msg::Click {
            x: m.column,
            y: m.row,
        }),
        Event::Resize(width, height) => Some(Msg::Resize { width, height }),
        _ => None,
    }
}

/// The model's key press for a terminal key event.
#[must_use]
pub fn key_press(event: KeyEvent) -> KeyPress {
    let key = match event.code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Backspace => Key::Backspace,
        _ => Key::Other,
    };
    let held = |m| event.modifiers.contains(m);
    KeyPress {
        key,
        ctrl: held(KeyModifiers::CONTROL),
        alt: held(KeyModifiers::ALT),
        shift: held(KeyModifiers::SHIFT),
    }
}
