//! The online screen: play or watch at a salon server's table from the
//! terminal. Its own small Elm loop beside the local game's: [`model`] holds
//! the connection, the lobby and the table; [`update()`] is the only mutator;
//! [`view()`] draws with the local game's board widget; the network runs on
//! the [`worker`] thread and reports as messages, so no frame waits on it.
//!
//! * [`model`] — the model, messages and effects
//! * [`mod@update`] — keys and server messages
//! * [`mod@view`] — connect form, lobby, create form, table
//! * [`keys`] — the keys of the lobby and a table, and their help
//! * [`worker`] — the network thread (tokio runtime + session)
//! * [`settings`] — the remembered server address and name
//! * [`words`] — every string the screen shows

pub mod keys;
pub mod model;
pub mod settings;
pub mod update;
pub mod view;
pub mod words;
pub mod worker;

#[cfg(test)]
mod tests;

pub use model::{Exit, Intent, Msg, Online, Server};
pub use update::update;
pub use view::view;

use super::record;
use model::Effect;
use ratatui::Terminal;
use ratatui::backend::Backend;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant, SystemTime};

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
    let mut app = Online::new(start.server, start.intent, look, Instant::now());
    let (tx, rx) = channel();
    let mut worker: Option<worker::NetWorker> = None;
    let size = terminal.size()?;
    let mut pending = vec![Msg::Resize {
        width: size.width,
        height: size.height,
    }];
    if start.connect {
        let mut fx = Vec::new();
        update::connect(&mut app, &mut fx);
        apply(&mut app, fx, &mut worker, &tx, places);
    }
    let runtime = Runtime {
        rx: &rx,
        tx: &tx,
        worker: &mut worker,
        places,
        signalled,
    };
    let result = event_loop(terminal, &mut app, runtime, &mut pending);
    if let Some(w) = worker {
        w.shut_down();
    }
    result
}

/// What the event loop works with beside the model: the messages' channel,
/// the network worker, the user's folders and the termination flag.
struct Runtime<'a> {
    rx: &'a Receiver<Msg>,
    tx: &'a Sender<Msg>,
    worker: &'a mut Option<worker::NetWorker>,
    places: &'a Places,
    signalled: &'a AtomicBool,
}

fn event_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    app: &mut Online,
    runtime: Runtime<'_>,
    pending: &mut Vec<Msg>,
) -> anyhow::Result<Exit>
where
    B::Error: Send + Sync + 'static,
{
    let Runtime {
        rx,
        tx,
        worker,
        places,
        signalled,
    } = runtime;
    loop {
        pending.push(Msg::Tick(Instant::now()));
        pending.extend(rx.try_iter());
        if signalled.load(Ordering::Relaxed) {
            pending.push(Msg::Terminate);
        }
        for msg in pending.drain(..) {
            let fx = update(app, msg);
            apply(app, fx, worker, tx, places);
        }
        if let Some(exit) = app.exit.take() {
            return Ok(exit);
        }
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

/// Carries out the update's effects.
fn apply(
    app: &mut Online,
    fx: Vec<Effect>,
    worker: &mut Option<worker::NetWorker>,
    tx: &Sender<Msg>,
    places: &Places,
) {
    for effect in fx {
        match effect {
            Effect::Connect(server) => {
                if let Some(w) = worker.take() {
                    w.shut_down();
                }
                match worker::NetWorker::spawn(&server, tx.clone()) {
                    Ok(w) => *worker = Some(w),
                    Err(e) => {
                        app.link = model::Link::Unreachable(words::no_thread(&e.to_string()));
                    }
                }
            }
            Effect::Send(msg) => {
                if let Some(w) = worker {
                    w.send(msg);
                }
            }
            Effect::Remember(server) => {
                if let Some(dir) = &places.config
                    && let Err(e) = settings::save(dir, &server)
                {
                    app.status = Some(words::not_remembered(&e.to_string()));
                }
            }
            Effect::Save(r) => {
                let now = SystemTime::now();
                let path = match (&places.save, &places.data) {
                    (Some(p), _) => Some(p.clone()),
                    (None, Some(d)) => Some(record::save_path(d, now)),
                    (None, None) => None,
                };
                app.status = Some(match path {
                    None => words::no_data_dir(),
                    Some(p) => match record::save(&p, &r, now) {
                        Ok(()) => words::saved(&crate::dirs::shown(&p)),
                        Err(e) => words::not_saved(&crate::dirs::shown(&p), &e.to_string()),
                    },
                });
            }
            Effect::Keep(r) => {
                let now = SystemTime::now();
                if let Some(d) = &places.data {
                    let p = record::save_path(d, now);
                    let done = match record::save(&p, &r, now) {
                        Ok(()) => words::kept(&crate::dirs::shown(&p)),
                        Err(e) => words::not_kept(&crate::dirs::shown(&p), &e.to_string()),
                    };
                    app.status = Some(done);
                }
            }
        }
    }
}
