//! The remembered server address and name: `online.conf` in the config
//! directory, two `key = value` lines, written atomically.

use super::model::Server;
use std::path::Path;

/// The file's name in the config directory.
pub const FILE: &str = "online.conf";

/// The default server address.
pub const DEFAULT_URL: &str = "ws://127.0.0.1:7878";

/// The remembered server and name; defaults for what is missing (the
/// address above, an empty name). An unreadable file counts as missing.
#[must_use]
pub fn load(dir: &Path) -> Server {
    let text = std::fs::read_to_string(dir.join(FILE)).unwrap_or_default();
    parse(&text)
}

/// Reads the file's text; unknown lines are ignored.
#[must_use]
pub fn parse(text: &str) -> Server {
    let mut server = Server {
        url: DEFAULT_URL.into(),
        name: String::new(),
    };
    for line in text.lines() {
        if let Some((k, v)) = line.split_once('=') {
            match k.trim() {
                "url" => server.url = v.trim().to_string(),
                "name" => server.name = v.trim().to_string(),
                _ => {}
            }
        }
    }
    server
}

/// The file's text for `server`.
#[must_use]
pub fn format(server: &Server) -> String {
    format!("url = {}\nname = {}\n", server.url, server.name)
}

/// Writes `server` to the file in `dir` (created if needed).
///
/// # Errors
/// The directory or the file could not be written.
pub fn save(dir: &Path, server: &Server) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    crate::storage::atomic_write(&dir.join(FILE), format(server).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let s = Server {
            url: "ws://example.org:7878".into(),
            name: "ann".into(),
        };
        assert_eq!(parse(&format(&s)), s);
        assert_eq!(parse("junk\nname = bob").url, DEFAULT_URL);
    }
}
