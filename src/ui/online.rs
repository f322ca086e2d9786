//! The online screen: play or watch at a salon server's table from the
//! terminal. Its own small Elm loop beside the local game's: [`model`] holds
//! the connection, the lobby and the table; [`update()`] is the only mutator;
//! [`view()`] draws with the local game's board widget; the network runs on
//! the [`worker`] thread and reports as messages, so no frame waits on it.
//!
//! * [`model`] — the model, messages and effects
//! * [`mod@update`] — keys and server messages
//! * [`mod@view`] — connect form, lobby, create form, table
//! * [`driver`] — the model with its network worker and effects, without
//!   the terminal
//! * [`keys`] — the keys of the lobby and a table, and their help
//! * [`worker`] — the network thread (tokio runtime + session)
//! * [`settings`] — the remembered server address and name
//! * [`words`] — every string the screen shows

pub mod driver;
pub mod keys;
pub mod model;
pub mod settings;
pub mod update;
pub mod view;
pub mod words;
pub mod worker;

#[cfg(test)]
mod tests;

pub use driver::Driver;
pub use model::{Exit, Intent, Msg, Online, Server};
pub use update::update;
pub use view::view;

use crate::net::client::Trust;
use ratatui::Terminal;
use ratatui::backend::Backend;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How the online screen starts.
#[derive(Clone, Debug)]
pub struct Start {
    /// The server and name; connect at once when both are given, else the
    /// connect form is shown with what is known.
    pub server: Server,
    /// Connect at once (else show the connect form).
    pub connect: bool,
    /// What to do once welcomed.
    pub intent: Option<Intent>,
    /// The certificates believed over `wss://`.
    pub trust: Trust,
}

/// Where the runtime keeps things.
#[derive(Clone, Debug, Default)]
pub struct Places {
    /// The config directory (the remembered server and name).
    pub config: Option<PathBuf>,
    /// The data directory (saved games).
    pub data: Option<PathBuf>,
    /// Where `s` saves, if given on the command line.
    pub save: Option<PathBuf>,
}

/// Runs the online screen on `terminal` until it exits; the network worker
/// is stopped before returning.
///
/// # Errors
/// A terminal I/O error.
pub fn run<B: Backend>(
    terminal: &mut Terminal<B>,
    start: Start,
    look: super::Look,
    places: &Places,
    signalled: &AtomicBool,
) -> anyhow::Result<Exit>
where
    B::Error: Send + Sync + 'static,
{
    let mut driver = Driver::new(start, look, places.clone(), Instant::now());
    let result = event_loop(terminal, &mut driver, signalled);
    driver.shut_down();
    result
}

fn event_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    driver: &mut Driver,
    signalled: &AtomicBool,
) -> anyhow::Result<Exit>
where
    B::Error: Send + Sync + 'static,
{
    let size = terminal.size()?;
    let mut pending = vec![Msg::Resize {
        width: size.width,
        height: size.height,
    }];
    loop {
        pending.push(Msg::Tick(Instant::now()));
        for msg in pending.drain(..) {
            driver.handle(msg);
        }
        driver.handle_reports();
        if signalled.load(Ordering::Relaxed) {
            driver.handle(Msg::Terminate);
        }
        if let Some(exit) = driver.take_exit() {
            return Ok(exit);
        }
        let app = driver.app();
        terminal.draw(|f| view(app, f))?;
        let ticking = app
            .table()
            .is_some_and(|t| t.clocks.is_some() && t.is_playing());
        let wait = Duration::from_millis(if ticking { 100 } else { 200 });
        if crossterm::event::poll(wait)? {
            loop {
                let event = crossterm::event::read()?;
                if let Some(msg) = super::terminal::message_of(event) {
                    pending.push(match msg {
                        super::Msg::Key(k) => Msg::Key(k),
                        super::Msg::Click { x, y } => Msg::Click { x, y },
                        super::Msg::Resize { width, height } => Msg::Resize { width, height },
                        _ => continue,
                    });
                }
                if !crossterm::event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
    }
}
