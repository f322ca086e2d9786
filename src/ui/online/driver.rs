//! The online screen without its terminal: the [`Online`] model, the network
//! worker and the effects of [`update()`] (requests to the server, the
//! remembered server and tokens, kept and saved games), driven by messages.
//! [`super::run`] feeds it the terminal's keys and draws its model; a test
//! feeds it messages and reads the model, with the real network worker.

use super::super::model::Look;
use super::super::record;
use super::model::{Effect, Link};
use super::worker::NetWorker;
use super::{Exit, Msg, Online, Places, Start, settings, update, words};
use crate::net::client::Trust;
use crate::notation::ggf::Record;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Instant, SystemTime};

/// The model, the network worker and what the effects need.
#[derive(Debug)]
pub struct Driver {
    app: Online,
    worker: Option<NetWorker>,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    trust: Trust,
    places: Places,
}

impl Driver {
    /// The screen for `start`, with the tokens kept in the config folder
    /// of `places`; connecting at once when `start` says so.
    #[must_use]
    pub fn new(start: Start, look: Look, places: Places, now: Instant) -> Driver {
        let mut app = Online::new(start.server, start.intent, look, now);
        if let Some(dir) = &places.config {
            app.tokens = settings::read(dir).tokens;
        }
        let (tx, rx) = channel();
        let mut driver = Driver {
            app,
            worker: None,
            tx,
            rx,
            trust: start.trust,
            places,
        };
        if start.connect {
            let mut fx = Vec::new();
            update::connect(&mut driver.app, &mut fx);
            driver.apply(fx);
        }
        driver
    }

    /// The model.
    #[must_use]
    pub fn app(&self) -> &Online {
        &self.app
    }

    /// Applies `msg` and carries out what it asks for.
    pub fn handle(&mut self, msg: Msg) {
        let fx = update(&mut self.app, msg);
        self.apply(fx);
    }

    /// Applies every report the network worker sent meanwhile (waits for
    /// none).
    pub fn handle_reports(&mut self) {
        while let Ok(msg) = self.rx.try_recv() {
            self.handle(msg);
        }
    }

    /// Waits up to `timeout` for one report of the network worker and
    /// applies it; `false` when none came.
    #[cfg(test)]
    pub fn wait_report(&mut self, timeout: std::time::Duration) -> bool {
        let Ok(msg) = self.rx.recv_timeout(timeout) else {
            return false;
        };
        self.handle(msg);
        true
    }

    /// Whether no session runs: never started, or ended by itself (refused,
    /// unreachable, taken over elsewhere).
    #[cfg(test)]
    #[must_use]
    pub fn is_offline(&self) -> bool {
        self.worker.as_ref().is_none_or(NetWorker::is_finished)
    }

    /// How the screen ends, once it does.
    pub fn take_exit(&mut self) -> Option<Exit> {
        self.app.exit.take()
    }

    /// Stops the network worker and waits for it.
    pub fn shut_down(mut self) {
        if let Some(w) = self.worker.take() {
            w.shut_down();
        }
    }

    /// Carries out the update's effects.
    fn apply(&mut self, fx: Vec<Effect>) {
        for effect in fx {
            match effect {
                Effect::Connect(server) => {
                    if let Some(w) = self.worker.take() {
                        w.shut_down();
                    }
                    match NetWorker::spawn(&server, &self.trust, self.tx.clone()) {
                        Ok(w) => self.worker = Some(w),
                        Err(e) => {
                            self.app.link = Link::Unreachable(words::no_thread(&e.to_string()));
                        }
                    }
                }
                Effect::Send(msg) => {
                    if let Some(w) = &self.worker {
                        w.send(msg);
                    }
                }
                Effect::Remember(server) => {
                    if let Some(dir) = &self.places.config
                        && let Err(e) = settings::save(dir, &server)
                    {
                        self.app.status = Some(words::not_remembered(&e.to_string()));
                    }
                }
                Effect::Recall => {
                    let tokens = self
                        .places
                        .config
                        .as_deref()
                        .map(|dir| settings::read(dir).tokens)
                        .unwrap_or_default();
                    let _ = self.tx.send(Msg::Recalled(tokens));
                }
                Effect::Save(r) => self.save(&r),
                Effect::Keep(r) => self.keep(&r),
            }
        }
    }

    /// Saves a finished game where `s` saves (the file given on the command
    /// line, else a new file in the data folder).
    fn save(&mut self, r: &Record) {
        let now = SystemTime::now();
        let path = match (&self.places.save, &self.places.data) {
            (Some(p), _) => Some(p.clone()),
            (None, Some(d)) => Some(record::save_path(d, now)),
            (None, None) => None,
        };
        self.app.status = Some(match path {
            None => words::no_data_dir(),
            Some(p) => match record::save(&p, r, now) {
                Ok(()) => words::saved(&crate::dirs::shown(&p)),
                Err(e) => words::not_saved(&crate::dirs::shown(&p), &e.to_string()),
            },
        });
    }

    /// Keeps a game played here among the saved games of the data folder.
    fn keep(&mut self, r: &Record) {
        let now = SystemTime::now();
        if let Some(d) = &self.places.data {
            let p = record::save_path(d, now);
            let done = match record::save(&p, r, now) {
                Ok(()) => words::kept(&crate::dirs::shown(&p)),
                Err(e) => words::not_kept(&crate::dirs::shown(&p), &e.to_string()),
            };
            self.app.status = Some(done);
        }
    }
}
