//! Storage of the salon behind a narrow trait: the lobby's state machine
//! emits [`StoreOp`]s, the server commits them (one transaction per batch)
//! before it sends the messages that acknowledge them. [`SqliteStore`] keeps
//! them in SQLite with WAL and `synchronous=FULL`, so a committed move
//! survives a kill -9 or a power cut. Finished games export to GGF.

use super::protocol::{EndReason, GameResult, MoveRecord, Seat, Side, TableId, TableSpec};
use super::table::{StoredGameError, replay_records};
use crate::notation::ggf::{EndedEarly, Record, forfeit_outcome, utc_date, write_ggf};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// One change to persist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreOp {
    /// A player's session (kept so the player can resume after a restart).
    Session {
        /// The name.
        name: String,
        /// The token.
        token: String,
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
    /// (name, token) of every player seated in them.
    pub sessions: Vec<(String, String)>,
    /// A table number above every stored one.
    pub next_table: TableId,
}

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused.
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
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

/// The SQLite store: one file, WAL journal, every commit synced.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sessions (
    name TEXT PRIMARY KEY,
    token TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    spec TEXT NOT NULL,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    started INTEGER NOT NULL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS waiting (
    id INTEGER PRIMARY KEY,
    spec TEXT NOT NULL,
    creator TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    side TEXT NOT NULL,
    square TEXT NOT NULL,
    black_ms INTEGER,
    white_ms INTEGER,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
";

fn json<T: serde::Serialize>(v: &T) -> String {
    super::protocol::encode(v)
}

fn data_error(game: TableId, e: impl std::fmt::Display) -> StoreError {
    StoreError::Data {
        game,
        reason: e.to_string(),
    }
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`, in WAL mode with
    /// synchronous commits.
    ///
    /// # Errors
    /// [`StoreError`] when the file cannot be opened or is not this store.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let _mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.execute_batch(SCHEMA)?;
        Ok(SqliteStore { conn })
    }

    fn games(&mut self, finished: bool) -> Result<Vec<StoredGame>, StoreError> {
        let sql = if finished {
            "SELECT id, spec, black, white, started, result FROM games WHERE result IS NOT NULL ORDER BY id"
        } else {
            "SELECT id, spec, black, white, started, result FROM games WHERE result IS NULL ORDER BY id"
        };
        let rows: Vec<(i64, String, String, String, i64, Option<String>)> = self
            .conn
            .prepare(sql)?
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })?
            .collect::<Result<_, _>>()?;
        let mut out = Vec::with_capacity(rows.len());
        let mut moves = self.conn.prepare(
            "SELECT side, square, black_ms, white_ms FROM moves WHERE game = ?1 ORDER BY ply",
        )?;
        for (id, spec, black, white, started, result) in rows {
            let id = id.cast_unsigned();
            let records = moves
                .query_map([id.cast_signed()], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<i64>>(2)?,
                        r.get::<_, Option<i64>>(3)?,
                    ))
                })?
                .map(|row| {
                    let (side, square, b, w) = row?;
                    let side = if side == "white" {
                        Side::White
                    } else {
                        Side::Black
                    };
                    Ok(MoveRecord {
                        side,
                        square,
                        black_ms: b.map(i64::cast_unsigned),
                        white_ms: w.map(i64::cast_unsigned),
                    })
                })
                .collect::<Result<Vec<_>, rusqlite::Error>>()?;
            out.push(StoredGame {
                id,
                spec: serde_json::from_str(&spec).map_err(|e| data_error(id, e))?,
                black: serde_json::from_str(&black).map_err(|e| data_error(id, e))?,
                white: serde_json::from_str(&white).map_err(|e| data_error(id, e))?,
                moves: records,
                result: result
                    .map(|r| serde_json::from_str(&r))
                    .transpose()
                    .map_err(|e| data_error(id, e))?,
                started: started.cast_unsigned(),
            });
        }
        Ok(out)
    }
}

impl SqliteStore {
    fn waiting(&mut self) -> Result<Vec<StoredWaiting>, StoreError> {
        let rows: Vec<(i64, String, String)> = self
            .conn
            .prepare("SELECT id, spec, creator FROM waiting ORDER BY id")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_, _>>()?;
        rows.into_iter()
            .map(|(id, spec, creator)| {
                let id = id.cast_unsigned();
                Ok(StoredWaiting {
                    id,
                    spec: serde_json::from_str(&spec).map_err(|e| data_error(id, e))?,
                    creator: serde_json::from_str(&creator).map_err(|e| data_error(id, e))?,
                })
            })
            .collect()
    }
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs().cast_signed())
}

impl Store for SqliteStore {
    fn commit(&mut self, ops: &[StoreOp]) -> Result<(), StoreError> {
        if ops.is_empty() {
            return Ok(());
        }
        let tx = self.conn.transaction()?;
        for op in ops {
            match op {
                StoreOp::Session { name, token } => {
                    tx.prepare_cached(
                        "INSERT OR REPLACE INTO sessions (name, token) VALUES (?1, ?2)",
                    )?
                    .execute(params![name, token])?;
                }
                StoreOp::Wait {
                    table,
                    spec,
                    creator,
                } => {
                    tx.prepare_cached(
                        "INSERT OR REPLACE INTO waiting (id, spec, creator) VALUES (?1, ?2, ?3)",
                    )?
                    .execute(params![
                        table.cast_signed(),
                        json(spec),
                        json(creator)
                    ])?;
                }
                StoreOp::Unwait { table } => {
                    tx.prepare_cached("DELETE FROM waiting WHERE id = ?1")?
                        .execute([table.cast_signed()])?;
                }
                StoreOp::Start {
                    table,
                    spec,
                    black,
                    white,
                } => {
                    tx.prepare_cached("DELETE FROM waiting WHERE id = ?1")?
                        .execute([table.cast_signed()])?;
                    tx.prepare_cached(
                        "INSERT OR REPLACE INTO games (id, spec, black, white, started, result) VALUES (?1, ?2, ?3, ?4, ?5, NULL)",
                    )?
                    .execute(params![
                        table.cast_signed(),
                        json(spec),
                        json(black),
                        json(white),
                        now_secs()
                    ])?;
                }
                StoreOp::Move { table, ply, record } => {
                    let side = match record.side {
                        Side::Black => "black",
                        Side::White => "white",
                    };
                    tx.prepare_cached(
                        "INSERT OR REPLACE INTO moves (game, ply, side, square, black_ms, white_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    )?
                    .execute(params![
                        table.cast_signed(),
                        i64::try_from(*ply).unwrap_or(i64::MAX),
                        side,
                        record.square,
                        record.black_ms.map(u64::cast_signed),
                        record.white_ms.map(u64::cast_signed),
                    ])?;
                }
                StoreOp::Truncate { table, plies } => {
                    tx.prepare_cached("DELETE FROM moves WHERE game = ?1 AND ply > ?2")?
                        .execute(params![
                            table.cast_signed(),
                            i64::try_from(*plies).unwrap_or(i64::MAX)
                        ])?;
                }
                StoreOp::Finish { table, result } => {
                    tx.prepare_cached("UPDATE games SET result = ?2 WHERE id = ?1")?
                        .execute(params![table.cast_signed(), json(result)])?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn load(&mut self) -> Result<Snapshot, StoreError> {
        let games = self.games(false)?;
        let waiting = self.waiting()?;
        let mut sessions = Vec::new();
        let seats = games
            .iter()
            .flat_map(|g| [&g.black, &g.white])
            .chain(waiting.iter().map(|w| &w.creator));
        for seat in seats {
            if let Seat::Player { name } = seat
                && !sessions.iter().any(|(n, _)| n == name)
            {
                let token: Option<String> = self
                    .conn
                    .query_row("SELECT token FROM sessions WHERE name = ?1", [name], |r| {
                        r.get(0)
                    })
                    .optional()?;
                if let Some(token) = token {
                    sessions.push((name.clone(), token));
                }
            }
        }
        let max: i64 = self.conn.query_row(
            "SELECT MAX(COALESCE((SELECT MAX(id) FROM games), 0), COALESCE((SELECT MAX(id) FROM waiting), 0))",
            [],
            |r| r.get(0),
        )?;
        Ok(Snapshot {
            games,
            waiting,
            sessions,
            next_table: max.cast_unsigned() + 1,
        })
    }

    fn finished(&mut self) -> Result<Vec<StoredGame>, StoreError> {
        self.games(true)
    }
}

/// A stored game as a GGF record: names, date, the rules (board size and
/// Anti in `TY`, Anti and the scoring rule in `RU`), the moves and the result
/// (Black's score minus White's by the rules, or a forfeit `:f` after a
/// resignation or a flag fall).
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
        set_forfeit(&mut record, r);
    }
    Ok(record)
}

/// Marks a record whose game was resigned, lost on time or abandoned as GGF
/// does (`:r`, `:t` or `:f`, the winner taking every square; an abandoned
/// game called a draw shares them); a game played out keeps the result its
/// moves give.
pub fn set_forfeit(record: &mut Record, result: &GameResult) {
    let early = match result.reason {
        EndReason::Finished => return,
        EndReason::Resigned => EndedEarly::Resigned,
        EndReason::Time => EndedEarly::Time,
        EndReason::Abandoned => EndedEarly::Forfeit,
    };
    let rules = record.game.rules();
    if result.winner.is_none() && result.reason == EndReason::Abandoned {
        let half = rules.size.squares() / 2;
        record.result = Some(crate::rules::Outcome {
            winner: None,
            black: half,
            white: half,
        });
        return;
    }
    record.result = result.winner.map(|w| forfeit_outcome(rules, w.into()));
    record.ended_early = Some(early);
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
