//! The online screen: play or watch at a salon server's table from the
//! terminal. A component of the one app ([`super::app::Screen::Online`]):
//! [`model`] holds the connection, the lobby and the table; [`update()`] is
//! the only mutator, fed the app's messages; [`view()`] draws with the local
//! game's board widget; the network runs on the [`worker`] thread, started
//! and stopped by the app's runner, and reports as messages, so no frame
//! waits on it.
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

pub use model::{Effect, Exit, Intent, Msg, Online, Server};
pub use update::update;
pub use view::view;

use crate::net::client::Trust;

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
