//! The remembered server address and name, and every session token held:
//! `online.conf` in the config directory, `key = value` lines, written
//! atomically (and readable by its owner only on Unix, since a token
//! resumes a session).
//!
//! ```text
//! url = ws://localhost:7878
//! name = ann
//! session = ws://localhost:7878 ann 0123456789abcdef0123456789abcdef
//! session = wss://salon.example.org:443 ann fedcba9876543210fedcba9876543210
//! ```
//!
//! `url` and `name` are the last ones used; each `session` line holds the
//! token of one name at one server (spelled as [`server_key`] spells it, so
//! another spelling of the same server finds it). Saving reads the file
//! again and changes only what it saves: another window's tokens stay, and
//! no token is ever dropped. The older file of one server (`url`, `name`,
//! `token` lines) is read as the token of that name at that server.
//!
//! [`server_key`]: crate::net::client::server_key

use super::model::{Server, Tokens};
use std::path::Path;

/// The file's name in the config directory.
pub const FILE: &str = "online.conf";

/// The default server address.
pub const DEFAULT_URL: &str = "ws://127.0.0.1:7878";

/// What the file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remembered {
    /// The last server address used (the default when none).
    pub url: String,
    /// The last name used (empty when none).
    pub name: String,
    /// Every token held.
    pub tokens: Tokens,
}

impl Remembered {
    /// The last server and name, with the token held for them.
    #[must_use]
    pub fn server(&self) -> Server {
        Server::new(self.url.clone(), self.name.clone(), &self.tokens)
    }
}

/// Everything the file in `dir` holds (nothing when it cannot be read):
/// defaults for what is missing (the address above, an empty name).
#[must_use]
pub fn read(dir: &Path) -> Remembered {
    let text = std::fs::read_to_string(dir.join(FILE)).unwrap_or_default();
    parse_all(&text)
}

/// Reads the file's text; unknown and malformed lines are ignored.
#[must_use]
pub fn parse_all(text: &str) -> Remembered {
    let mut r = Remembered {
        url: DEFAULT_URL.into(),
        name: String::new(),
        tokens: Tokens::default(),
    };
    // The older file's one token, for its `url` and `name`.
    let mut single = None;
    for line in text.lines() {
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let v = v.trim();
        match k.trim() {
            "url" => r.url = v.to_string(),
            "name" => r.name = v.to_string(),
            "token" if !v.is_empty() => single = Some(v.to_string()),
            "session" => {
                let words: Vec<&str> = v.split_whitespace().collect();
                if let [server, name, token] = words[..] {
                    r.tokens.keep(server, name, token);
                }
            }
            _ => {}
        }
    }
    if let Some(token) = single
        && r.tokens.get(&r.url, &r.name).is_none()
    {
        r.tokens.keep(&r.url, &r.name, &token);
    }
    r
}

/// The file's text for `r`.
#[must_use]
pub fn format(r: &Remembered) -> String {
    let mut text = format!("url = {}\nname = {}\n", r.url, r.name);
    for (server, name, token) in r.tokens.iter() {
        text.push_str(&format!("session = {server} {name} {token}\n"));
    }
    text
}

/// Remembers `server` in the file in `dir` (created if needed): its address
/// and name as the last used, its token (if any) as that name's at that
/// server; every other token in the file stays.
///
/// # Errors
/// The directory or the file could not be written.
pub fn save(dir: &Path, server: &Server) -> std::io::Result<()> {
    let mut r = read(dir);
    r.url.clone_from(&server.url);
    r.name.clone_from(&server.name);
    if let Some(token) = &server.token {
        r.tokens.keep(&server.url, &server.name, token);
    }
    std::fs::create_dir_all(dir)?;
    let path = dir.join(FILE);
    crate::storage::atomic_write(&path, format(&r).as_bytes())?;
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

    fn temp_dir(tag: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("reversi-online-conf-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn round_trip() {
        let mut tokens = Tokens::default();
        tokens.keep("ws://example.org:7878", "ann", "0123456789abcdef");
        tokens.keep("wss://example.org", "Bob", "fedcba9876543210");
        let r = Remembered {
            url: "ws://example.org:7878".into(),
            name: "ann".into(),
            tokens,
        };
        assert_eq!(parse_all(&format(&r)), r);
        assert_eq!(parse_all("junk\nname = bob").server().url, DEFAULT_URL);
        assert_eq!(parse_all("token = ").server().token, None);
        assert_eq!(parse_all("session = ws://a:1 ann").server().token, None);
    }

    #[test]
    fn the_older_file_of_one_server_is_read() {
        let old = "url = ws://127.0.0.1:9\nname = zoe\ntoken = abc\n";
        let r = parse_all(old);
        assert_eq!(r.server().token.as_deref(), Some("abc"));
        // Its token follows the server under another spelling, and is
        // written in the new form.
        assert_eq!(r.tokens.get("ws://localhost:9/", "ZOE"), Some("abc"));
        assert!(
            format(&r).contains("session = ws://localhost:9 zoe abc\n"),
            "{}",
            format(&r)
        );
    }

    #[test]
    fn a_token_follows_its_server_under_any_spelling_and_its_name() {
        let mut tokens = Tokens::default();
        tokens.keep("ws://127.0.0.1:7878", "ann", "t");
        for url in [
            "ws://127.0.0.1:7878",
            "ws://localhost:7878",
            "WS://LOCALHOST:7878/",
            "ws://[::1]:7878",
        ] {
            let s = Server::new(url.into(), "Ann".into(), &tokens);
            assert_eq!(s.token.as_deref(), Some("t"), "{url}");
        }
        for (url, name) in [
            ("ws://127.0.0.1:7879", "ann"),
            ("wss://127.0.0.1:7878", "ann"),
            ("ws://example.org:7878", "ann"),
            ("ws://127.0.0.1:7878", "bob"),
        ] {
            let s = Server::new(url.into(), name.into(), &tokens);
            assert_eq!(s.token, None, "{url} {name}");
        }
        let mut t = Tokens::default();
        t.keep("wss://example.org:443", "ann", "u");
        assert_eq!(t.get("wss://Example.org", "ann"), Some("u"));
        assert_eq!(t.get("ws://example.org:443", "ann"), None);
    }

    /// A token that would break the file's lines (from a server that sends
    /// anything) is not kept.
    #[test]
    fn a_token_that_is_not_one_word_is_not_kept() {
        let mut tokens = Tokens::default();
        for bad in ["", "a b", "abc\nurl = ws://evil:1", "tab\there"] {
            tokens.keep("ws://a:1", "ann", bad);
        }
        assert_eq!(tokens, Tokens::default());
    }

    /// Saving a server without a token (another spelling, a refusal) keeps
    /// every token already in the file, another window's included.
    #[test]
    fn saving_keeps_every_token_of_the_file() {
        let dir = temp_dir("keep");
        let ann = Server {
            url: "ws://127.0.0.1:9".into(),
            name: "ann".into(),
            token: Some("abc".into()),
        };
        save(&dir, &ann).unwrap();
        let bob = Server {
            url: "ws://127.0.0.1:9".into(),
            name: "bob".into(),
            token: Some("def".into()),
        };
        save(&dir, &bob).unwrap();
        let other_spelling = Server {
            url: "ws://localhost:9".into(),
            name: "ann".into(),
            token: None,
        };
        save(&dir, &other_spelling).unwrap();
        let r = read(&dir);
        assert_eq!(
            (r.url.as_str(), r.name.as_str()),
            ("ws://localhost:9", "ann")
        );
        assert_eq!(read(&dir).server().token.as_deref(), Some("abc"));
        assert_eq!(r.tokens.get("ws://127.0.0.1:9", "bob"), Some("def"));
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
