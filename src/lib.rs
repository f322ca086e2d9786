//! # reversi
//!
//! Reversi (Othello) for the terminal: a pure rules library on bitboards, an
//! alpha-beta AI with an exact endgame solver, and a ratatui game screen.
//!
//! ## Module map and the dependency rule
//! Dependencies point one way: `rules` ← `notation` ← `ai` ← `net` ← `ui` ←
//! `cli` and the binary. `arena`, `learn` and `nboard` stand beside `net`,
//! over `ai`; `random`, `parallel`, `storage`, `dirs` and `i18n` are helpers
//! any layer may use, which use nothing else of the crate. The screen is a
//! client of the salon: it uses the protocol and the client of `net`, never
//! the server's modules. `tests/architecture.rs` checks these rules and that
//! no two files import each other.
//!
//! * [`rules`] — squares, positions, move generation, flips, passes, scoring,
//!   variants, game history (`Game`), perft. Standard library only.
//! * [`notation`] — squares (`d3`), move transcripts (`f5d6c3…`), board strings
//!   (OBF), with errors that say where and why.
//! * [`ai`] — search, evaluation, endgame solver, levels, the reference
//!   players (`random`, `greedy`). Depends on `rules` and `notation`.
//! * [`learn`] — self-play games and the fit of the pattern evaluation.
//! * [`arena`] — engine matches: openings, games, statistics.
//! * [`nboard`] — the NBoard engine protocol over stdin/stdout.
//! * [`net`] — the salon: online tables over WebSocket (protocol, pure
//!   lobby and table state machines, the tokio server, SQLite storage, the
//!   client and headless bot, the load benchmark). Depends on `rules`,
//!   `notation` and `ai`, never on `ui`.
//! * [`storage`] — atomic file writes.
//! * [`i18n`] — the messages of the game screen in English and French
//!   (Fluent catalogues built in), the language choice.
//! * [`parallel`] — numbered jobs (games) on a few threads, results in order.
//! * `ui` (crate-private) — the full-screen game (ratatui): model, update,
//!   view, AI worker, the online screen. Depends on `rules`, `notation`, `ai`
//!   and the client side of `net`; only `cli` and [`screen`] depend on it.
//! * [`screen`] — the game screen without a terminal, for benchmarks and
//!   tests outside the crate.
//! * `cli` (crate-private; the binary enters through [`run_cli`]) — the
//!   command-line interface (clap) and the non-interactive
//!   subcommands.
#![deny(missing_docs)]

pub mod ai;
pub mod arena;
mod cli;
pub mod dirs;
pub mod i18n;
pub mod learn;
pub mod nboard;
pub mod net;
pub mod notation;
pub mod parallel;
pub mod random;
pub mod rules;
pub mod screen;
pub mod storage;
mod ui;

pub use cli::main as run_cli;
