//! Files on disk: atomic writes (temporary file in the same directory, flush,
//! fsync, rename) so that a crash or a kill leaves either the old or the new file
//! whole, never a mix. A temporary file left by a killed writer is removed by
//! the next successful write of the same file once it is ten minutes old.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically: the file is either unchanged or wholly
/// replaced. Creates the parent directory if needed.
///
/// # Errors
/// Any I/O error; the temporary file is removed on failure.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
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
