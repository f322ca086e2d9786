//! Files on disk: atomic writes (temporary file in the same directory, flush,
//! fsync, rename) so that a crash or a kill leaves either the old or the new file
//! whole, never a mix. A temporary file left by a killed writer is removed by
//! the next successful write of the same file once it is ten minutes old.
//! A path that names something other than a regular file (`/dev/null`, a
//! pipe) is written in place: renaming over it would replace the device.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically: the file is either unchanged or wholly
/// replaced. Creates the parent directory if needed. An existing `path`
/// that is not a regular file or a directory (a device such as `/dev/null`,
/// a named pipe) is written in place instead, and stays what it was.
///
/// # Errors
/// Any I/O error; the temporary file is removed on failure.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Ok(meta) = fs::metadata(path)
        && !meta.is_file()
        && !meta.is_dir()
    {
        let mut f = fs::OpenOptions::new().write(true).open(path)?;
        return f.write_all(bytes).and_then(|()| f.flush());
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.flush()?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable where the platform allows it.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    } else {
        remove_stale_temporaries(dir, &name);
    }
    result
}

/// How old a leftover temporary file must be before it is removed: a live
/// writer holds its own for milliseconds.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(600);

/// Removes `.NAME.tmp-PID` files left in `dir` by writers that were killed
/// before they could rename them (only ones older than [`STALE_AFTER`]).
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(n) = file_name.to_str() else {
            continue;
        };
        if !n.starts_with(&prefix) {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        if old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A named pipe (standing for `/dev/null` and other devices) is written
    /// through, not replaced by a regular file.
    #[cfg(unix)]
    #[test]
    fn a_pipe_is_written_in_place_not_replaced() {
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let dir = std::env::temp_dir().join(format!("reversi-pipe-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let pipe = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let reader = {
            let pipe = pipe.clone();
            std::thread::spawn(move || {
                let mut got = Vec::new();
                File::open(&pipe).unwrap().read_to_end(&mut got).unwrap();
                got
            })
        };
        atomic_write(&pipe, b"through the pipe").unwrap();
        // Checked before joining: a replaced pipe would leave the reader
        // waiting for a writer forever.
        assert!(fs::metadata(&pipe).unwrap().file_type().is_fifo());
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_write_removes_old_leftover_temporaries_only() {
        let dir = std::env::temp_dir().join(format!("reversi-storage-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let stale = dir.join(".game.ggf.tmp-1");
        let fresh = dir.join(".game.ggf.tmp-2");
        let other = dir.join(".other.tmp-3");
        for p in [&stale, &fresh, &other] {
            fs::write(p, b"half").unwrap();
        }
        let long_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for p in [&stale, &other] {
            File::options()
                .write(true)
                .open(p)
                .unwrap()
                .set_modified(long_ago)
                .unwrap();
        }
        atomic_write(&dir.join("game.ggf"), b"whole").unwrap();
        assert_eq!(fs::read(dir.join("game.ggf")).unwrap(), b"whole");
        assert!(!stale.exists(), "an old leftover of this file is removed");
        assert!(fresh.exists(), "a recent one may belong to a live writer");
        assert!(other.exists(), "other files' temporaries are not touched");
        fs::remove_dir_all(&dir).ok();
    }
}
