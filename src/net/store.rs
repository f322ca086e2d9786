//! Storage of the salon behind a narrow trait: the lobby's state machine
//! emits [`StoreOp`]s, the server commits them (one transaction per batch)
//! before it sends the messages that acknowledge them, so a committed move
//! survives a kill -9. Finished games export to GGF. Two stores keep the
//! same tables and return the same data:
//!
//! * [`SqliteStore`] (in [`sqlite`]): one file, WAL and
//!   `synchronous=FULL`, nothing to set up: the default;
//! * [`PgStore`] (in [`postgres`]): a PostgreSQL database, for an operator
//!   who keeps the salon's data on a database server (backups, replicas).
//!
//! Each database carries its layout's number ([`SCHEMA_VERSION`]) and is
//! brought up to it when opened, from every earlier layout, in one
//! transaction; a later layout is refused ([`StoreError::Newer`]). Session
//! tokens are kept only as their SHA-256 ([`token_hash`]): a copy of the
//! database does not let anyone resume a session. Sessions are keyed by
//! [`name_key`], so names that look alike are one row. An export opens the
//! database to read it only.
//!
//! Depends on the protocol's types, the table's replay (to check stored
//! games) and the GGF notation; never on the server's sockets or threads.

pub mod postgres;
pub mod sqlite;

pub use postgres::{PgStore, PgUrl};
pub use sqlite::SqliteStore;

use super::protocol::{GameResult, MoveRecord, Seat, Side, TableId, TableSpec};
use super::table::{StoredGameError, replay_records};
use super::text::name_key;
use crate::notation::ggf::{Record, utc_date, write_ggf};
use sha2::{Digest, Sha256};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The number of the database layout this code writes (SQLite's `PRAGMA
/// user_version`, PostgreSQL's `schema_version` table). 0: the first SQLite
/// layouts (session tokens in clear, keyed by the name as given; the oldest
/// without the `waiting` table); 1: tokens hashed, sessions keyed by
/// [`name_key`] (the first layout on PostgreSQL).
pub const SCHEMA_VERSION: i64 = 1;

/// The SHA-256 of a session token, as 64 hex digits: what the store keeps
/// and the lobby compares (tokens are 128 random bits, so a plain hash
/// cannot be reversed by trying tokens).
#[must_use]
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One change to persist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreOp {
    /// A player's session (kept so the player can resume after a restart).
    Session {
        /// The name.
        name: String,
        /// The token's [`token_hash`].
        token_hash: String,
    },
    /// A table was created and waits for its second player (kept so it
    /// survives a restart).
    Wait {
        /// The table.
        table: TableId,
        /// Its settings.
        spec: TableSpec,
        /// The creator's seat.
        creator: Seat,
    },
    /// A waiting table was given up (its creator left).
    Unwait {
        /// The table.
        table: TableId,
    },
    /// A game started (its table waits no more).
    Start {
        /// The table.
        table: TableId,
        /// Its settings.
        spec: TableSpec,
        /// Black's seat.
        black: Seat,
        /// White's seat.
        white: Seat,
    },
    /// A move was played (its 1-based number and record).
    Move {
        /// The table.
        table: TableId,
        /// 1-based number of the move.
        ply: usize,
        /// The move and the clocks after it.
        record: MoveRecord,
    },
    /// Moves after the first `plies` were taken back.
    Truncate {
        /// The table.
        table: TableId,
        /// The number of moves kept.
        plies: usize,
    },
    /// The game ended.
    Finish {
        /// The table.
        table: TableId,
        /// The result.
        result: GameResult,
    },
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The table's number.
    pub id: TableId,
    /// Its settings.
    pub spec: TableSpec,
    /// Black's seat.
    pub black: Seat,
    /// White's seat.
    pub white: Seat,
    /// Every move, in order.
    pub moves: Vec<MoveRecord>,
    /// The result, if finished.
    pub result: Option<GameResult>,
    /// When the game started (seconds since 1970).
    pub started: u64,
}

/// A table waiting for its second player, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredWaiting {
    /// The table's number.
    pub id: TableId,
    /// Its settings.
    pub spec: TableSpec,
    /// The creator's seat.
    pub creator: Seat,
}

/// What a restarted server needs: the unfinished games, the tables waiting
/// for a player, the sessions of their players (name, token), and the next
/// free table number.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Games without a result.
    pub games: Vec<StoredGame>,
    /// Tables waiting for their second player.
    pub waiting: Vec<StoredWaiting>,
    /// (name, [`token_hash`]) of every player seated in them.
    pub sessions: Vec<(String, String)>,
    /// A table number above every stored one.
    pub next_table: TableId,
}

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The SQLite database refused.
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    /// The PostgreSQL database refused, or its connection failed.
    #[error("PostgreSQL: {}", postgres::chain(.0))]
    Postgres(#[from] ::postgres::Error),
    /// The PostgreSQL database cannot be reached or refused the login.
    #[error("cannot connect to {url}: {}", postgres::chain(.source))]
    Connect {
        /// Where, without the password.
        url: String,
        /// Why.
        source: ::postgres::Error,
    },
    /// A `postgres://` URL that cannot be used.
    #[error("{url}: {reason} (expected postgres://USER@HOST:PORT/DATABASE)")]
    Url {
        /// The URL, without the password.
        url: String,
        /// What is wrong.
        reason: String,
    },
    /// A database to read that holds no salon (an export from an empty
    /// PostgreSQL database).
    #[error("no salon in this database (no schema_version table)")]
    Empty,
    /// Stored moves that do not make a game.
    #[error("stored game {game}: {source}")]
    Game {
        /// The game.
        game: TableId,
        /// Which move and why.
        source: StoredGameError,
    },
    /// Stored data that cannot be read back.
    #[error("stored data of game {game}: {reason}")]
    Data {
        /// The game.
        game: TableId,
        /// What is wrong.
        reason: String,
    },
    /// A database written by a later version of this program.
    #[error("the database has layout {found}; this program reads layouts up to {SCHEMA_VERSION}")]
    Newer {
        /// Its `user_version`.
        found: i64,
    },
    /// The thread that holds the PostgreSQL connection stopped, or could
    /// not start.
    #[error("the database connection's thread stopped")]
    Worker,
    /// A commit to a store opened to read only.
    #[error("the database was opened to read only")]
    ReadOnly,
    /// A database whose write-ahead log cannot be read where it lies (a
    /// folder that cannot be written, without the log's index file).
    #[error("{0}")]
    Unreadable(String),
}

/// Where the salon keeps its games.
pub trait Store: Send {
    /// Applies `ops` in order, all or nothing, durably.
    ///
    /// # Errors
    /// [`StoreError`] when the store cannot commit; nothing is applied then.
    fn commit(&mut self, ops: &[StoreOp]) -> Result<(), StoreError>;

    /// The unfinished games, the waiting tables and their players' sessions.
    ///
    /// # Errors
    /// [`StoreError`] when the store cannot be read.
    fn load(&mut self) -> Result<Snapshot, StoreError>;

    /// Every finished game, oldest first.
    ///
    /// # Errors
    /// [`StoreError`] when the store cannot be read.
    fn finished(&mut self) -> Result<Vec<StoredGame>, StoreError>;
}

fn json<T: serde::Serialize>(v: &T) -> String {
    super::protocol::encode(v)
}

fn data_error(game: TableId, e: impl std::fmt::Display) -> StoreError {
    StoreError::Data {
        game,
        reason: e.to_string(),
    }
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs().cast_signed())
}

/// A side as the `moves` table spells it.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

/// A row of the `moves` table as a record.
fn move_record(
    side: &str,
    square: String,
    black_ms: Option<i64>,
    white_ms: Option<i64>,
) -> MoveRecord {
    MoveRecord {
        side: if side == "white" {
            Side::White
        } else {
            Side::Black
        },
        square,
        black_ms: black_ms.map(i64::cast_unsigned),
        white_ms: white_ms.map(i64::cast_unsigned),
    }
}

/// What [`Store::load`] returns, with `max_id` the largest table number
/// stored (0 for none).
fn snapshot(
    games: Vec<StoredGame>,
    waiting: Vec<StoredWaiting>,
    sessions: Vec<(String, String)>,
    max_id: i64,
) -> Snapshot {
    Snapshot {
        games,
        waiting,
        sessions,
        next_table: max_id.cast_unsigned() + 1,
    }
}

/// A row of the `games` table, its JSON columns not yet read.
struct GameRow {
    id: i64,
    spec: String,
    black: String,
    white: String,
    started: i64,
    result: Option<String>,
}

impl GameRow {
    /// The game, with its moves.
    fn read(self, moves: Vec<MoveRecord>) -> Result<StoredGame, StoreError> {
        let id = self.id.cast_unsigned();
        Ok(StoredGame {
            id,
            spec: serde_json::from_str(&self.spec).map_err(|e| data_error(id, e))?,
            black: serde_json::from_str(&self.black).map_err(|e| data_error(id, e))?,
            white: serde_json::from_str(&self.white).map_err(|e| data_error(id, e))?,
            moves,
            result: self
                .result
                .map(|r| serde_json::from_str(&r))
                .transpose()
                .map_err(|e| data_error(id, e))?,
            started: self.started.cast_unsigned(),
        })
    }
}

/// A row of the `waiting` table as a waiting table.
fn read_waiting(id: i64, spec: &str, creator: &str) -> Result<StoredWaiting, StoreError> {
    let id = id.cast_unsigned();
    Ok(StoredWaiting {
        id,
        spec: serde_json::from_str(spec).map_err(|e| data_error(id, e))?,
        creator: serde_json::from_str(creator).map_err(|e| data_error(id, e))?,
    })
}

/// The players seated in `games` and `waiting`, each once: (name as
/// seated first, its [`name_key`]).
fn seated(games: &[StoredGame], waiting: &[StoredWaiting]) -> Vec<(String, String)> {
    let seats = games
        .iter()
        .flat_map(|g| [&g.black, &g.white])
        .chain(waiting.iter().map(|w| &w.creator));
    let mut keys = std::collections::HashSet::new();
    let mut out = Vec::new();
    for seat in seats {
        if let Seat::Player { name } = seat {
            let key = name_key(name);
            if keys.insert(key.clone()) {
                out.push((name.clone(), key));
            }
        }
    }
    out
}

/// A stored game as a GGF record: names, date, the rules (board size and
/// Anti in `TY`, Anti and the scoring rule in `RU`), the moves and the result
/// (Black's score minus White's by the rules, or as [`GameResult::mark`]
/// writes a game that ended before its board was played out).
///
/// # Errors
/// [`StoreError::Game`] when a stored move is not a square or not legal.
pub fn ggf_record(game: &StoredGame) -> Result<Record, StoreError> {
    let played =
        replay_records(game.spec.rules(), &game.moves).map_err(|source| StoreError::Game {
            game: game.id,
            source,
        })?;
    let mut record = Record::new(played);
    record.black = game.black.label();
    record.white = game.white.label();
    record.place = "reversi salon".into();
    record.date = utc_date(UNIX_EPOCH + Duration::from_secs(game.started));
    if let Some(r) = &game.result {
        r.mark(&mut record);
    }
    Ok(record)
}

/// Every finished game in `store` as GGF text, one game per line.
///
/// # Errors
/// [`StoreError`]: the database's, or naming the game that cannot be read.
pub fn export_ggf(store: &mut dyn Store) -> Result<(String, usize), StoreError> {
    let games = store.finished()?;
    let mut out = String::new();
    for g in &games {
        let record = ggf_record(g)?;
        out.push_str(&write_ggf(&record));
        out.push('\n');
    }
    Ok((out, games.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::EndReason;
    use crate::notation::ggf::{EndedEarly, parse_ggf};

    fn game_with(result: GameResult) -> StoredGame {
        let moves = ["f5", "d6", "c3"]
            .iter()
            .zip([Side::Black, Side::White, Side::Black])
            .map(|(sq, side)| MoveRecord {
                side,
                square: (*sq).into(),
                black_ms: None,
                white_ms: None,
            })
            .collect();
        StoredGame {
            id: 1,
            spec: TableSpec::default(),
            black: Seat::Player { name: "ann".into() },
            white: Seat::Player { name: "bob".into() },
            moves,
            result: Some(result),
            started: 0,
        }
    }

    #[test]
    fn abandoned_games_export_as_ggf_readers_understand_and_read_back() {
        let cases = [
            (None, "RE[+0:s]", EndedEarly::Agreed),
            (Some(Side::White), "RE[-64:f]", EndedEarly::Forfeit),
        ];
        for (winner, re, early) in cases {
            let g = game_with(GameResult {
                winner,
                black: 4,
                white: 3,
                reason: EndReason::Abandoned,
            });
            let text = write_ggf(&ggf_record(&g).unwrap());
            assert!(text.contains(re), "{text}");
            let back = parse_ggf(&text).unwrap();
            assert_eq!(back[0].ended_early, Some(early));
            assert_eq!(
                back[0].result.map(|o| o.winner),
                Some(winner.map(Into::into))
            );
            assert!(back[0].is_finished());
        }
    }
}
