//! Resumable output files of the long runs (`selfplay`, `relabel`): a
//! header naming the settings, whole lines appended as results come, a run
//! stopped at any point picked up where it stopped; and the flags and the
//! progress line those commands share.

use super::UserError;
use crate::learn::relabel::Labelled;
use std::io::{BufRead, Seek, Write};
use std::path::Path;
use std::time::Instant;

/// `MIN..MAX` of two whole numbers with MIN ≤ MAX ≤ 59.
pub(super) fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| format!("\"{s}\" is not MIN..MAX"))?;
    let a: u32 = a
        .trim()
        .parse()
        .map_err(|_| format!("\"{a}\" is not a number"))?;
    let b: u32 = b
        .trim()
        .parse()
        .map_err(|_| format!("\"{b}\" is not a number"))?;
    if a > b || b > 59 {
        return Err(format!("{a}..{b}: need MIN ≤ MAX ≤ 59"));
    }
    Ok((a, b))
}

/// Reads an existing resumable file: checks its header against `header`,
/// hands every whole line after it to `line` (with the byte offset where it
/// starts; `line` says whether it is valid) and returns the byte length up
/// to the last whole line. `None` when the file does not exist or is empty.
pub(super) fn existing(
    path: &Path,
    header: &str,
    mut line: impl FnMut(u64, &str) -> bool,
) -> Result<Option<u64>, UserError> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(UserError::file(path, e)),
    };
    let mut reader = std::io::BufReader::new(file);
    let mut text = String::new();
    let mut offset = 0u64;
    let mut number = 0usize;
    loop {
        text.clear();
        let n = reader
            .read_line(&mut text)
            .map_err(|e| UserError::file(path, e))?;
        if n == 0 || !text.ends_with('\n') {
            break;
        }
        number += 1;
        let t = text.trim_end();
        if number == 1 {
            if t != header {
                return Err(UserError::input(format!(
                    "{}: made with other settings (\"{t}\"); use another file or the same settings",
                    path.display()
                )));
            }
        } else if !line(offset, t) {
            return Err(UserError::input(format!(
                "{}:{number}: not a valid line of this file",
                path.display()
            )));
        }
        offset += n as u64;
    }
    Ok((number > 0).then_some(offset))
}

/// Opens a resumable file for appending: cut to `keep` bytes (dropping a
/// line cut short by a kill) when it exists, else created with `header`.
pub(super) fn open_resumable(
    path: &Path,
    header: &str,
    keep: Option<u64>,
) -> Result<std::fs::File, UserError> {
    let open = || -> std::io::Result<std::fs::File> {
        if let Some(len) = keep {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            f.set_len(len)?;
            f.seek(std::io::SeekFrom::End(0))?;
            Ok(f)
        } else {
            let mut f = std::fs::File::create(path)?;
            writeln!(f, "{header}")?;
            Ok(f)
        }
    };
    open().map_err(|e| UserError::file(path, e))
}

/// `--threads`, or one per core when it is not given.
pub(super) fn threads_or_cores(threads: Option<u32>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |t| t as usize,
    )
}

/// Where a labels file resumes.
pub(super) struct Resume {
    /// The game to start from: the file's last game, labelled again since a
    /// kill may have cut its lines short (0 for a new file).
    pub first: usize,
    /// The bytes of the file to keep (`None`: a new file).
    pub keep: Option<u64>,
    /// The file's last game, if it has one.
    pub last: Option<usize>,
}

/// Reads how far the labels file at `path` (with `header`) got.
pub(super) fn resume(path: &std::path::Path, header: &str) -> Result<Resume, UserError> {
    let mut last: Option<(usize, u64)> = None;
    let keep = existing(path, header, |offset, line| {
        let Some(l) = Labelled::parse_line(line) else {
            return false;
        };
        match last {
            Some((g, _)) if g == l.game => true,
            Some((g, _)) if g > l.game => false,
            _ => {
                last = Some((l.game, offset));
                true
            }
        }
    })?;
    Ok(match last {
        Some((g, offset)) => Resume {
            first: g,
            keep: Some(offset),
            last: Some(g),
        },
        None => Resume {
            first: 0,
            keep,
            last: None,
        },
    })
}

/// One progress line on stderr: a bar, the count, the rate and the time left.
pub(super) fn progress(new: usize, have: usize, total: usize, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let rate = new as f64 / secs.max(1e-9);
    let left = (total - have) as f64 / rate.max(1e-9);
    let width = 30;
    let filled = have * width / total.max(1);
    eprint!(
        "\r[{}{}] {have}/{total} games  {rate:.1}/s  {:.0} min left ",
        "#".repeat(filled),
        " ".repeat(width - filled),
        left / 60.0
    );
}
