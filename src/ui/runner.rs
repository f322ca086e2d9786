//! The one effect runner of the app: it feeds a message to [`update()`] and
//! carries out the [`Effect`]s it asks for — the AI worker's jobs, the
//! online screen's network worker, the remembered choices, server and
//! tokens, saved games and the autosave, the clipboard — and hands the
//! workers' reports back as messages. The terminal's event loop
//! ([`super::run`]) drives it; [`Driver`] drives it without a terminal, for
//! tests that run the online screen against a real server.

use super::app::{App, Effect, Msg};
use super::model::Choices;
use super::online::settings;
use super::online::worker::NetWorker;
use super::online::{self, Online, words};
use super::{config, record, update, worker};
use crate::i18n::Lang;
use crate::net::client::Trust;
use crate::notation::ggf::Record;
use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::SystemTime;

/// Where the runner keeps things.
#[derive(Clone, Debug)]
pub struct Places {
    /// The config directory (the new-game choices, the remembered server,
    /// name and tokens).
    pub config: Option<PathBuf>,
    /// The data directory (saved games, the autosave), or why there is none.
    pub data: Result<PathBuf, crate::dirs::NoFolder>,
    /// Where `s` saves, if given on the command line.
    pub save: Option<PathBuf>,
}

/// How the AI worker is made, the first time a job needs it.
#[derive(Clone, Debug)]
pub struct Engine {
    /// Transposition table size, in MiB.
    pub hash_mb: usize,
    /// The opening book the AI plays from and the hint uses.
    pub book: Option<Arc<crate::ai::book::Book>>,
}

/// What carries out the effects of [`update()`]: the workers and the files.
#[derive(Debug)]
pub struct Runner {
    engine: Engine,
    /// The AI worker, once a job has needed it.
    ai: Option<worker::Worker>,
    /// The online screen's network worker, while it runs.
    net: Option<NetWorker>,
    /// The workers' reports.
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    places: Places,
    /// The certificates the online screen believes over `wss://` (those of
    /// `reversi online --ca`, else Mozilla's roots).
    trust: Trust,
}

impl Runner {
    /// A runner with no worker started yet.
    #[must_use]
    pub fn new(engine: Engine, places: Places, trust: Trust) -> Runner {
        let (tx, rx) = channel();
        Runner {
            engine,
            ai: None,
            net: None,
            tx,
            rx,
            places,
            trust,
        }
    }

    /// Applies `msg` to `app` and carries out what it asks for, and what the
    /// answers to that ask in turn (the remembered server read to open the
    /// online screen), before returning.
    pub fn handle(&mut self, app: &mut App, msg: Msg) {
        let mut queue = VecDeque::from([msg]);
        while let Some(msg) = queue.pop_front() {
            for effect in update(app, msg) {
                queue.extend(self.perform(app, effect));
            }
        }
    }

    /// Carries out effects asked for outside a message (the online screen
    /// opened at start).
    pub fn perform_all(&mut self, app: &mut App, effects: Vec<Effect>) {
        for effect in effects {
            if let Some(msg) = self.perform(app, effect) {
                self.handle(app, msg);
            }
        }
    }

    /// Applies every report the workers sent meanwhile (waits for none).
    pub fn handle_reports(&mut self, app: &mut App) {
        while let Ok(msg) = self.rx.try_recv() {
            self.handle(app, msg);
        }
    }

    /// Waits up to `timeout` for one report of a worker and applies it;
    /// `false` when none came.
    #[cfg(test)]
    pub fn wait_report(&mut self, app: &mut App, timeout: std::time::Duration) -> bool {
        let Ok(msg) = self.rx.recv_timeout(timeout) else {
            return false;
        };
        self.handle(app, msg);
        true
    }

    /// Whether no network session runs: never started, or ended by itself
    /// (refused, unreachable, taken over elsewhere).
    #[cfg(test)]
    #[must_use]
    pub fn is_offline(&self) -> bool {
        self.net.as_ref().is_none_or(NetWorker::is_finished)
    }

    /// Stops the workers and waits for them.
    pub fn shut_down(mut self) {
        if let Some(w) = self.net.take() {
            w.shut_down();
        }
        if let Some(w) = self.ai.take() {
            w.shut_down();
        }
    }

    /// Carries out `effect`; a failure is reported in the status line. An
    /// effect answered at once returns its answer.
    fn perform(&mut self, app: &mut App, effect: Effect) -> Option<Msg> {
        let lang = app.lang;
        match effect {
            Effect::Start(job) => {
                let Engine { hash_mb, book } = self.engine.clone();
                let tx = self.tx.clone();
                self.ai
                    .get_or_insert_with(|| worker::Worker::spawn(hash_mb, book, tx))
                    .start(job);
            }
            Effect::Stop(id) => {
                if let Some(w) = &mut self.ai {
                    w.stop(id);
                }
            }
            Effect::SaveChoices(c) => self.save_choices(app, &c),
            Effect::Save(r) => app.status = Some(self.save(lang, &r)),
            Effect::Copy(text) => copy(&text),
            Effect::Autosave(r) => {
                if let Ok(dir) = &self.places.data
                    && let Err(e) = record::write_autosave(dir, r.as_deref(), SystemTime::now())
                {
                    app.status = Some(crate::tr!(
                        lang,
                        "status-autosave-failed",
                        error = e.to_string()
                    ));
                }
            }
            Effect::OpenOnline { connect } => {
                let remembered = self
                    .places
                    .config
                    .as_deref()
                    .map_or_else(|| settings::parse_all(""), settings::read);
                return Some(Msg::Remembered {
                    remembered: Box::new(remembered),
                    connect,
                });
            }
            Effect::Online(effect) => return self.perform_online(app, effect),
        }
        None
    }

    /// Carries out what the online screen asks.
    fn perform_online(&mut self, app: &mut App, effect: online::Effect) -> Option<Msg> {
        let lang = app.lang;
        match effect {
            online::Effect::Connect(server) => {
                if let Some(w) = self.net.take() {
                    w.shut_down();
                }
                match NetWorker::spawn(&server, &self.trust, self.tx.clone()) {
                    Ok(w) => self.net = Some(w),
                    Err(e) => {
                        if let Some(o) = online_mut(app) {
                            o.link = online::model::Link::Unreachable(words::no_thread(
                                lang,
                                &e.to_string(),
                            ));
                        }
                    }
                }
            }
            online::Effect::Disconnect => {
                if let Some(w) = self.net.take() {
                    w.shut_down();
                }
            }
            online::Effect::Send(msg) => {
                if let Some(w) = &self.net {
                    w.send(msg);
                }
            }
            online::Effect::Remember(server) => {
                if let Some(dir) = &self.places.config
                    && let Err(e) = settings::save(dir, &server)
                    && let Some(o) = online_mut(app)
                {
                    o.status = Some(words::not_remembered(lang, &e.to_string()));
                }
            }
            online::Effect::Recall => {
                let tokens = self
                    .places
                    .config
                    .as_deref()
                    .map(|dir| settings::read(dir).tokens)
                    .unwrap_or_default();
                return Some(Msg::Online(online::Msg::Recalled(tokens)));
            }
            online::Effect::Save(r) => {
                let said = self.save(lang, &r);
                if let Some(o) = online_mut(app) {
                    o.status = Some(said);
                }
            }
            online::Effect::Keep(r) => self.keep(app, &r),
            online::Effect::Copy(text) => copy(&text),
        }
        None
    }

    fn save_choices(&self, app: &mut App, c: &Choices) {
        let lang = app.lang;
        if let Some(dir) = &self.places.config
            && let Err(e) = config::save(dir, c)
        {
            app.status = Some(crate::tr!(
                lang,
                "status-choices-not-saved",
                error = e.to_string()
            ));
        }
    }

    /// Saves a game where `s` saves (the file given on the command line,
    /// else a new file in the data folder); says where, or why not.
    fn save(&self, lang: Lang, r: &Record) -> String {
        let now = SystemTime::now();
        let path = match (&self.places.save, &self.places.data) {
            (Some(p), _) => Ok(p.clone()),
            (None, Ok(d)) => Ok(record::save_path(d, now)),
            (None, Err(e)) => Err(e),
        };
        match path {
            Err(e) => crate::tr!(lang, "status-not-saved", error = e.to_string()),
            Ok(p) => match record::save(&p, r, now) {
                Ok(()) => crate::tr!(lang, "status-saved-to", path = crate::dirs::shown(&p)),
                Err(e) => crate::tr!(
                    lang,
                    "status-not-saved-to",
                    path = crate::dirs::shown(&p),
                    error = e.to_string()
                ),
            },
        }
    }

    /// Keeps a game played at a table among the saved games of the data
    /// folder (nothing without one).
    fn keep(&self, app: &mut App, r: &Record) {
        let lang = app.lang;
        let now = SystemTime::now();
        if let Ok(d) = &self.places.data {
            let p = record::save_path(d, now);
            let done = match record::save(&p, r, now) {
                Ok(()) => words::kept(lang, &crate::dirs::shown(&p)),
                Err(e) => words::not_kept(lang, &crate::dirs::shown(&p), &e.to_string()),
            };
            if let Some(o) = online_mut(app) {
                o.status = Some(done);
            }
        }
    }
}

/// The online screen's model, when it is shown.
fn online_mut(app: &mut App) -> Option<&mut Online> {
    match &mut app.screen {
        super::app::Screen::Online { online, .. } => Some(online),
        _ => None,
    }
}

/// The app and its runner without a terminal: messages in, the model out,
/// with the real workers. Tests drive the online screen with it against a
/// real server.
#[cfg(test)]
#[derive(Debug)]
pub struct Driver {
    app: App,
    runner: Runner,
}

#[cfg(test)]
impl Driver {
    /// The online screen for `start` (over the new-game screen), with the
    /// tokens kept in the config folder of `places`; connecting at once
    /// when `start` says so.
    #[must_use]
    pub fn new(
        start: online::Start,
        look: super::model::Look,
        places: Places,
        now: std::time::Instant,
    ) -> Driver {
        let tokens = places
            .config
            .as_deref()
            .map(|dir| settings::read(dir).tokens)
            .unwrap_or_default();
        let engine = Engine {
            hash_mb: 16,
            book: None,
        };
        let mut runner = Runner::new(engine, places, start.trust.clone());
        let mut app = App::new(Choices::default(), look, 1, now);
        let fx = update::open_online(&mut app, start.server, tokens, start.intent, start.connect);
        runner.perform_all(&mut app, fx);
        Driver { app, runner }
    }

    /// The online screen's model.
    ///
    /// # Panics
    /// When the online screen has been left.
    #[must_use]
    pub fn online(&self) -> &Online {
        self.app.online().expect("the online screen is shown")
    }

    /// Applies `msg` and carries out what it asks for.
    pub fn handle(&mut self, msg: Msg) {
        self.runner.handle(&mut self.app, msg);
    }

    /// Waits up to `timeout` for one report of a worker and applies it;
    /// `false` when none came.
    pub fn wait_report(&mut self, timeout: std::time::Duration) -> bool {
        self.runner.wait_report(&mut self.app, timeout)
    }

    /// Whether no network session runs (see [`Runner::is_offline`]).
    #[must_use]
    pub fn is_offline(&self) -> bool {
        self.runner.is_offline()
    }

    /// Stops the workers and waits for them.
    pub fn shut_down(self) {
        self.runner.shut_down();
    }
}

/// Copies `text` to the clipboard: the OSC 52 sequence written to the
/// terminal the screen is drawn on (a terminal without OSC 52 ignores it).
fn copy(text: &str) {
    let mut out = std::io::stdout();
    let _ = out.write_all(super::osc52(text).as_bytes());
    let _ = out.flush();
}
