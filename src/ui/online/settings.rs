//! The remembered server address, name and session token: `online.conf` in
//! the config directory, `key = value` lines, written atomically (and
//! readable by its owner only on Unix, since the token resumes the session).

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
        ..Server::default()
    };
    for line in text.lines() {
        if let Some((k, v)) = line.split_once('=') {
            match k.trim() {
                "url" => server.url = v.trim().to_string(),
                "name" => server.name = v.trim().to_string(),
                "token" if !v.trim().is_empty() => server.token = Some(v.trim().to_string()),
                _ => {}
            }
        }
    }
    server
}

/// The file's text for `server`.
#[must_use]
pub fn format(server: &Server) -> String {
    let mut text = format!("url = {}\nname = {}\n", server.url, server.name);
    if let Some(t) = &server.token {
        text.push_str(&format!("token = {t}\n"));
    }
    text
}

/// Writes `server` to the file in `dir` (created if needed).
///
/// # Errors
/// The directory or the file could not be written.
pub fn save(dir: &Path, server: &Server) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(FILE);
    crate::storage::atomic_write(&path, format(server).as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut s = Server {
            url: "ws://example.org:7878".into(),
            name: "ann".into(),
            token: None,
        };
        assert_eq!(parse(&format(&s)), s);
        s.token = Some("0123456789abcdef0123456789abcdef".into());
        assert_eq!(parse(&format(&s)), s);
        assert_eq!(parse("junk\nname = bob").url, DEFAULT_URL);
        assert_eq!(parse("token = ").token, None);
    }

    #[test]
    fn a_token_is_kept_only_for_the_same_address_and_name() {
        let remembered = Server {
            url: "ws://a:1".into(),
            name: "ann".into(),
            token: Some("t".into()),
        };
        let same = Server::new("ws://a:1".into(), "ann".into(), &remembered);
        assert_eq!(same.token.as_deref(), Some("t"));
        assert_eq!(
            Server::new("ws://b:1".into(), "ann".into(), &remembered).token,
            None
        );
        assert_eq!(
            Server::new("ws://a:1".into(), "bob".into(), &remembered).token,
            None
        );
    }

    #[test]
    fn the_file_is_written_and_read_back() {
        let dir = std::env::temp_dir().join(format!("reversi-online-conf-{}", std::process::id()));
        let s = Server {
            url: "ws://127.0.0.1:9".into(),
            name: "zoe".into(),
            token: Some("abc".into()),
        };
        save(&dir, &s).unwrap();
        assert_eq!(load(&dir), s);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
