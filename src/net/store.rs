//! Storage of the salon behind a narrow trait: the lobby's state machine
//! emits [`StoreOp`]s, the server commits them (one transaction per batch)
//! before it sends the messages that acknowledge them. [`SqliteStore`] keeps
//! them in SQLite with WAL and `synchronous=FULL`, so a committed move
//! survives a kill -9 or a power cut. Finished games export to GGF.
//!
//! The database carries its layout's number in `PRAGMA user_version`
//! ([`SCHEMA_VERSION`]) and is brought up to it when opened, from every
//! earlier layout, in one transaction. Session tokens are kept only as their
//! SHA-256 ([`token_hash`]): a copy of the database does not let anyone
//! resume a session. Sessions are keyed by [`name_key`], so names that look
//! alike are one row. An export opens the database read-only
//! ([`SqliteStore::open_read_only`]).

use super::protocol::{GameResult, MoveRecord, Seat, Side, TableId, TableSpec};
use super::table::{StoredGameError, replay_records};
use super::text::name_key;
use crate::notation::ggf::{Record, utc_date, write_ggf};
use rusqlite::{Connection, OpenFlags, OptionalExtension, Transaction, params};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The number of the database layout this code writes (`PRAGMA
/// user_version`). 0: the first layouts (session tokens in clear, keyed by
/// the name as given; the oldest without the `waiting` table); 1: tokens
/// hashed, sessions keyed by [`name_key`].
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
    /// A database written by a later version of this program.
    #[error("the database has layout {found}; this program reads layouts up to {SCHEMA_VERSION}")]
    Newer {
        /// Its `user_version`.
        found: i64,
    },
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

/// The SQLite store: one file, WAL journal, every commit synced.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Connection,
}

/// The tables whose layout every version shares.
const GAME_TABLES: &str = "
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

/// The sessions of layout 1.
const SESSIONS: &str = "
CREATE TABLE IF NOT EXISTS sessions (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL
);
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
    /// A database of an earlier layout is upgraded first ([`SCHEMA_VERSION`]).
    ///
    /// # Errors
    /// [`StoreError`] when the file cannot be opened, is not this store, or
    /// is of a later layout ([`StoreError::Newer`]).
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let _mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        upgrade(&mut conn)?;
        Ok(SqliteStore { conn })
    }

    /// Opens the database at `path` to read it only (an export): nothing is
    /// written, no layout upgraded, and a file or folder that cannot be
    /// written is fine. When the folder cannot hold the write-ahead log's
    /// index, a database without a pending log is read as it stands in its
    /// file.
    ///
    /// # Errors
    /// [`StoreError`] when the file cannot be read, is of a later layout, or
    /// has a pending write-ahead log that cannot be read in its folder.
    pub fn open_read_only(path: &Path) -> Result<SqliteStore, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let conn = match layout(&conn) {
            Ok(_) => conn,
            Err(e) => {
                drop(conn);
                let wal = path.with_file_name(format!(
                    "{}-wal",
                    path.file_name().unwrap_or_default().to_string_lossy()
                ));
                if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
                    return Err(StoreError::Unreadable(format!(
                        "{e}; its write-ahead log {} cannot be read here: copy the database with it to a folder that can be written",
                        wal.display()
                    )));
                }
                Connection::open_with_flags(immutable_uri(path), flags)?
            }
        };
        let found = layout(&conn)?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::Newer { found });
        }
        Ok(SqliteStore { conn })
    }

    /// The layout number of the open database ([`SCHEMA_VERSION`]).
    ///
    /// # Errors
    /// [`StoreError::Sql`] when it cannot be read.
    pub fn layout(&self) -> Result<i64, StoreError> {
        layout(&self.conn)
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

/// The database's `user_version`, read through its schema (so that a file
/// that cannot be read fails here).
fn layout(conn: &Connection) -> Result<i64, StoreError> {
    let _tables: i64 = conn.query_row("SELECT COUNT(*) FROM sqlite_schema", [], |r| r.get(0))?;
    Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

/// A `file:` URI for `path` with `immutable=1`: read without the
/// write-ahead log's index, for a database that no one writes meanwhile.
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?mode=ro&immutable=1");
    uri
}

/// Brings the database up to [`SCHEMA_VERSION`] in one transaction.
fn upgrade(conn: &mut Connection) -> Result<(), StoreError> {
    let found = layout(conn)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::Newer { found });
    }
    let tx = conn.transaction()?;
    tx.execute_batch(GAME_TABLES)?;
    if found < 1 {
        upgrade_sessions_to_1(&tx)?;
    }
    tx.execute_batch(SESSIONS)?;
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(())
}

/// Layout 0 kept `sessions (name, token)` with tokens in clear; layout 1
/// keys them by [`name_key`] and keeps the tokens' hashes. When two stored
/// names now make one key, the session stored first keeps it.
fn upgrade_sessions_to_1(tx: &Transaction<'_>) -> Result<(), StoreError> {
    let old: i64 = tx.query_row(
        "SELECT COUNT(*) FROM pragma_table_info('sessions') WHERE name = 'token'",
        [],
        |r| r.get(0),
    )?;
    if old == 0 {
        return Ok(());
    }
    tx.execute_batch("ALTER TABLE sessions RENAME TO sessions_0;")?;
    tx.execute_batch(SESSIONS)?;
    let rows: Vec<(String, String)> = tx
        .prepare("SELECT name, token FROM sessions_0 ORDER BY rowid")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut insert =
        tx.prepare("INSERT OR IGNORE INTO sessions (key, name, token_hash) VALUES (?1, ?2, ?3)")?;
    for (name, token) in rows {
        insert.execute(params![name_key(&name), name, token_hash(&token)])?;
    }
    drop(insert);
    tx.execute_batch("DROP TABLE sessions_0;")?;
    Ok(())
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
                StoreOp::Session { name, token_hash } => {
                    tx.prepare_cached(
                        "INSERT OR REPLACE INTO sessions (key, name, token_hash) VALUES (?1, ?2, ?3)",
                    )?
                    .execute(params![name_key(name), name, token_hash])?;
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
        let mut keys = std::collections::HashSet::new();
        for seat in seats {
            if let Seat::Player { name } = seat
                && keys.insert(name_key(name))
            {
                let hash: Option<String> = self
                    .conn
                    .query_row(
                        "SELECT token_hash FROM sessions WHERE key = ?1",
                        [name_key(name)],
                        |r| r.get(0),
                    )
                    .optional()?;
                if let Some(hash) = hash {
                    sessions.push((name.clone(), hash));
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
    use crate::net::protocol::{ColourChoice, TableSpec};
    use crate::notation::ggf::{EndedEarly, parse_ggf};
    use std::path::PathBuf;

    struct Dir(PathBuf);
    impl Dir {
        fn new(tag: &str) -> Dir {
            let d =
                std::env::temp_dir().join(format!("reversi-store-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            Dir(d)
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// The sessions of the layout the first versions wrote (`user_version`
    /// 0), word for word; its game tables are [`GAME_TABLES`], which every
    /// layout so far shares (a layout that changes them must freeze the old
    /// ones here).
    const SESSIONS_0: &str = "
CREATE TABLE IF NOT EXISTS sessions (
    name TEXT PRIMARY KEY,
    token TEXT NOT NULL
);
";

    fn seat(name: &str) -> String {
        json(&Seat::Player { name: name.into() })
    }

    /// A database as the first layout left it: ann (token in clear) in a
    /// running game against bob, whose session row says "Bob".
    fn layout_0(path: &Path, with_waiting: bool) {
        let conn = Connection::open(path).unwrap();
        let _: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .unwrap();
        let layout_0 = format!("{SESSIONS_0}{GAME_TABLES}");
        let schema = if with_waiting {
            layout_0
        } else {
            layout_0.replace(
                "CREATE TABLE IF NOT EXISTS waiting (\n    id INTEGER PRIMARY KEY,\n    spec TEXT NOT NULL,\n    creator TEXT NOT NULL\n);",
                "",
            )
        };
        assert_eq!(schema.contains("waiting"), with_waiting);
        conn.execute_batch(&schema).unwrap();
        conn.execute(
            "INSERT INTO sessions (name, token) VALUES ('ann', ?1), ('Bob', ?2)",
            params![format!("{:032x}", 1), format!("{:032x}", 2)],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO games (id, spec, black, white, started, result) VALUES (3, ?1, ?2, ?3, 0, NULL)",
            params![json(&TableSpec::default()), seat("ann"), seat("Bob")],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO moves (game, ply, side, square) VALUES (3, 1, 'black', 'f5')",
            [],
        )
        .unwrap();
    }

    #[test]
    fn every_earlier_layout_is_upgraded_and_tokens_are_hashed() {
        for with_waiting in [true, false] {
            let dir = Dir::new(&format!("upgrade-{with_waiting}"));
            let path = dir.0.join("salon.sqlite");
            layout_0(&path, with_waiting);
            let mut store = SqliteStore::open(&path).unwrap();
            assert_eq!(store.layout().unwrap(), SCHEMA_VERSION);
            let snap = store.load().unwrap();
            assert_eq!(snap.games.len(), 1);
            assert_eq!(snap.games[0].moves.len(), 1);
            assert_eq!(
                snap.sessions,
                vec![
                    ("ann".to_string(), token_hash(&format!("{:032x}", 1))),
                    ("Bob".to_string(), token_hash(&format!("{:032x}", 2))),
                ]
            );
            // No token in clear is left anywhere in the file.
            drop(store);
            let conn = Connection::open(&path).unwrap();
            let clear: i64 = conn
                .query_row(
                    "SELECT COUNT(*) FROM sessions WHERE token_hash = ?1",
                    [format!("{:032x}", 1)],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(clear, 0);
            // Opening again changes nothing.
            drop(conn);
            let mut store = SqliteStore::open(&path).unwrap();
            assert_eq!(store.load().unwrap().sessions.len(), 2);
        }
    }

    #[test]
    fn sessions_are_keyed_by_the_name_as_compared() {
        let dir = Dir::new("keys");
        let path = dir.0.join("salon.sqlite");
        let mut store = SqliteStore::open(&path).unwrap();
        let spec = TableSpec {
            colour: ColourChoice::Black,
            ..TableSpec::default()
        };
        store
            .commit(&[
                StoreOp::Session {
                    name: "Ann".into(),
                    token_hash: token_hash("t1"),
                },
                // Another spelling of the same name replaces the row.
                StoreOp::Session {
                    name: "ａnn".into(),
                    token_hash: token_hash("t2"),
                },
                StoreOp::Wait {
                    table: 1,
                    spec,
                    creator: Seat::Player { name: "Ann".into() },
                },
            ])
            .unwrap();
        let snap = store.load().unwrap();
        assert_eq!(snap.sessions, vec![("Ann".to_string(), token_hash("t2"))]);
    }

    #[test]
    fn a_later_layout_is_refused() {
        let dir = Dir::new("newer");
        let path = dir.0.join("salon.sqlite");
        drop(SqliteStore::open(&path).unwrap());
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(conn);
        assert!(matches!(
            SqliteStore::open(&path),
            Err(StoreError::Newer { .. })
        ));
        assert!(matches!(
            SqliteStore::open_read_only(&path),
            Err(StoreError::Newer { .. })
        ));
    }

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
