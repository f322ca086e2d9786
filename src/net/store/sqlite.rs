//! The SQLite store: one file, nothing to set up. WAL journal and
//! `synchronous=FULL`, so a committed batch survives a kill -9 or a power
//! cut. The layout's number is `PRAGMA user_version`
//! ([`SCHEMA_VERSION`]); a database of an earlier layout is upgraded when
//! opened, in one transaction. An export opens the database read-only
//! ([`SqliteStore::open_read_only`]), in a folder that cannot be written
//! too.

use super::{
    GameRow, SCHEMA_VERSION, Snapshot, Store, StoreError, StoreOp, StoredGame, StoredWaiting, json,
    move_record, now_secs, read_waiting, seated, side_name, snapshot, token_hash,
};
use crate::net::text::name_key;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Transaction, params};
use std::path::Path;
use std::time::Duration;

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
        let rows: Vec<GameRow> = self
            .conn
            .prepare(sql)?
            .query_map([], |r| {
                Ok(GameRow {
                    id: r.get(0)?,
                    spec: r.get(1)?,
                    black: r.get(2)?,
                    white: r.get(3)?,
                    started: r.get(4)?,
                    result: r.get(5)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        let mut out = Vec::with_capacity(rows.len());
        let mut moves = self.conn.prepare(
            "SELECT side, square, black_ms, white_ms FROM moves WHERE game = ?1 ORDER BY ply",
        )?;
        for row in rows {
            let records = moves
                .query_map([row.id], |r| {
                    Ok(move_record(
                        &r.get::<_, String>(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                    ))
                })?
                .collect::<Result<Vec<_>, rusqlite::Error>>()?;
            out.push(row.read(records)?);
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
            .map(|(id, spec, creator)| read_waiting(id, &spec, &creator))
            .collect()
    }
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
                    tx.prepare_cached(
                        "INSERT OR REPLACE INTO moves (game, ply, side, square, black_ms, white_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    )?
                    .execute(params![
                        table.cast_signed(),
                        i64::try_from(*ply).unwrap_or(i64::MAX),
                        side_name(record.side),
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
        for (name, key) in seated(&games, &waiting) {
            let hash: Option<String> = self
                .conn
                .query_row(
                    "SELECT token_hash FROM sessions WHERE key = ?1",
                    [key],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(hash) = hash {
                sessions.push((name, hash));
            }
        }
        let max: i64 = self.conn.query_row(
            "SELECT MAX(COALESCE((SELECT MAX(id) FROM games), 0), COALESCE((SELECT MAX(id) FROM waiting), 0))",
            [],
            |r| r.get(0),
        )?;
        Ok(snapshot(games, waiting, sessions, max))
    }

    fn finished(&mut self) -> Result<Vec<StoredGame>, StoreError> {
        self.games(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::{Seat, TableSpec};
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
}
