//! Where the program keeps its files: the config folder (the remembered
//! new-game choices) and the data folder (saved games, the autosave).
//!
//! Each is, in order: the `REVERSI_CONFIG_DIR` / `REVERSI_DATA_DIR` override
//! (tests use these so they never touch a real home); `$XDG_CONFIG_HOME/reversi`
//! / `$XDG_DATA_HOME/reversi` when that variable is set (on every system, as
//! the XDG convention asks); else the system's convention from the
//! `directories` crate: `~/.config/reversi` and `~/.local/share/reversi` on
//! Linux, `~/Library/Application Support/reversi` on macOS,
//! `%APPDATA%\reversi\config` and `%APPDATA%\reversi\data` on Windows. On Unix
//! the home folder comes from `HOME`, or from the user database when `HOME`
//! is unset. When none of these gives a folder the error names the variable
//! to set.
//!
//! Depends on nothing else in the crate.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// No folder could be found for the program's files.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no {what} folder found (no home folder); set {variable}")]
pub struct NoFolder {
    /// `"config"` or `"data"`.
    pub what: &'static str,
    /// The variable that would name one.
    pub variable: &'static str,
}

/// The config folder.
///
/// # Errors
/// [`NoFolder`] when no override is set and the system has no home folder.
pub fn config_dir() -> Result<PathBuf, NoFolder> {
    find(Kind::Config, &|k| std::env::var_os(k), system_dirs)
}

/// The data folder.
///
/// # Errors
/// [`NoFolder`] when no override is set and the system has no home folder.
pub fn data_dir() -> Result<PathBuf, NoFolder> {
    find(Kind::Data, &|k| std::env::var_os(k), system_dirs)
}

#[derive(Clone, Copy)]
enum Kind {
    Config,
    Data,
}

impl Kind {
    fn names(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Kind::Config => ("config", "REVERSI_CONFIG_DIR", "XDG_CONFIG_HOME"),
            Kind::Data => ("data", "REVERSI_DATA_DIR", "XDG_DATA_HOME"),
        }
    }
}

/// `path` as a person reads it on screen: under the home folder as `~/…`.
#[must_use]
pub fn shown(path: &Path) -> String {
    let home = directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf());
    shown_from(path, home.as_deref())
}

fn shown_from(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) if !rest.as_os_str().is_empty() && home != Some(Path::new("/")) => {
            format!("~{}{}", std::path::MAIN_SEPARATOR, rest.display())
        }
        _ => path.display().to_string(),
    }
}

/// The system's config and data folders for the program, if it has a home.
fn system_dirs() -> Option<(PathBuf, PathBuf)> {
    let dirs = directories::ProjectDirs::from("", "", "reversi")?;
    Some((
        dirs.config_dir().to_path_buf(),
        dirs.data_dir().to_path_buf(),
    ))
}

/// The lookup, with the environment and the system folders passed in.
fn find(
    kind: Kind,
    var: &dyn Fn(&str) -> Option<OsString>,
    system: fn() -> Option<(PathBuf, PathBuf)>,
) -> Result<PathBuf, NoFolder> {
    let (what, variable, xdg) = kind.names();
    let set = |k: &str| var(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    set(variable)
        .or_else(|| set(xdg).map(|d| d.join("reversi")))
        .or_else(|| {
            system().map(|(config, data)| match kind {
                Kind::Config => config,
                Kind::Data => data,
            })
        })
        .ok_or(NoFolder { what, variable })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |k| {
            pairs
                .iter()
                .find(|(name, _)| *name == k)
                .map(|(_, v)| OsString::from(v))
        }
    }

    fn home() -> Option<(PathBuf, PathBuf)> {
        Some((
            "/h/.config/reversi".into(),
            "/h/.local/share/reversi".into(),
        ))
    }

    fn homeless() -> Option<(PathBuf, PathBuf)> {
        None
    }

    #[test]
    fn overrides_come_first_then_xdg_then_the_system() {
        let all = env(&[
            ("REVERSI_DATA_DIR", "/r"),
            ("XDG_DATA_HOME", "/x"),
            ("XDG_CONFIG_HOME", "/c"),
        ]);
        assert_eq!(find(Kind::Data, &all, home), Ok("/r".into()));
        assert_eq!(find(Kind::Config, &all, home), Ok("/c/reversi".into()));
        let empty = env(&[("REVERSI_CONFIG_DIR", ""), ("XDG_CONFIG_HOME", "")]);
        assert_eq!(
            find(Kind::Config, &empty, home),
            Ok("/h/.config/reversi".into())
        );
        assert_eq!(
            find(Kind::Data, &empty, home),
            Ok("/h/.local/share/reversi".into())
        );
    }

    #[test]
    fn without_a_home_the_error_names_the_variable() {
        let none = env(&[]);
        let e = find(Kind::Data, &none, homeless).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no data folder found (no home folder); set REVERSI_DATA_DIR"
        );
        let set = env(&[("REVERSI_DATA_DIR", "/r")]);
        assert_eq!(find(Kind::Data, &set, homeless), Ok("/r".into()));
    }

    #[test]
    fn paths_under_home_are_shown_with_a_tilde() {
        let home = Path::new("/home/ann");
        let sep = std::path::MAIN_SEPARATOR;
        assert_eq!(
            shown_from(
                Path::new("/home/ann/.local/share/reversi/g.ggf"),
                Some(home)
            ),
            format!("~{sep}.local/share/reversi/g.ggf")
        );
        for other in ["/home/annie/g.ggf", "/tmp/g.ggf", "/home/ann"] {
            assert_eq!(shown_from(Path::new(other), Some(home)), other);
        }
        assert_eq!(shown_from(Path::new("/tmp/g.ggf"), None), "/tmp/g.ggf");
        assert_eq!(
            shown_from(Path::new("/tmp/g.ggf"), Some(Path::new("/"))),
            "/tmp/g.ggf"
        );
    }
}
