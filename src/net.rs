//! The salon: online tables over WebSocket.
//!
//! * [`protocol`] — the JSON messages (plain serde types) and their decoder;
//! * [`text`] — cleaning of player text, name checks, token comparison;
//! * [`table`] — one table's game as a pure state machine (rules, clocks,
//!   take-backs);
//! * [`lobby`] — the whole salon as a pure state machine: events in,
//!   messages, storage changes and engine searches out;
//! * [`store`] — storage behind a trait, with the SQLite and PostgreSQL stores and
//!   the GGF export;
//! * [`server`] — the tokio shell: sockets, limits, the commit thread, the
//!   engine pool, timers;
//! * [`client`] — the client connection and the headless bot;
//! * [`session`] — a client session that reconnects by itself (the game screen's);
//! * [`loadtest`] — many fast bots against a server, with latency figures.
//!
//! Depends on [`crate::rules`], [`crate::notation`], [`crate::ai`] (the
//! engine and its reference players) and [`crate::random`]; never on the
//! user interface or the terminal. The two sides share the protocol and the
//! rules, each keeping its own internals: the game screen uses `protocol`,
//! `client`, `session` and `text`, never the server's `lobby`, `table`,
//! `store` or `server`.

pub mod client;
pub mod loadtest;
pub mod lobby;
pub mod protocol;
pub mod server;
pub mod session;
pub mod store;
pub mod table;
pub mod text;
