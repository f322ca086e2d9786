//! The config file: the new-game choices, remembered between runs.
//!
//! It lives in the config folder ([`crate::dirs::config_dir`]) as
//! `choices.conf`: one `key = value` a line. It is written atomically (a
//! temporary file in the same directory, flushed, then renamed). A missing file
//! gives the defaults; a corrupt one gives the defaults and a message, never a
//! crash.

use super::model::{Choices, ColourChoice, Opponent};
use crate::ai::LevelError;
use crate::i18n::Lang;
use crate::rules::{BoardSize, Color, Scoring};
use std::path::{Path, PathBuf};

/// The file name inside the config directory.
pub const FILE: &str = "choices.conf";

/// Why the config file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// It could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line is not understood.
    #[error("{path}, line {line}: {reason}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// Loads the choices from `dir`: `Ok(None)` when there is no file yet.
///
/// # Errors
/// [`ConfigError`] when the file exists but cannot be read or understood.
pub fn load(dir: &Path) -> Result<Option<Choices>, ConfigError> {
    let path = dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(ConfigError::Read { path, source }),
    };
    parse(&text)
        .map(Some)
        .map_err(|BadLine { line, reason }| ConfigError::Bad { path, line, reason })
}

/// A line of the config text that is not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct BadLine {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// Reads the `key = value` text; unknown keys are ignored (a newer version may
/// write more).
///
/// # Errors
/// [`BadLine`]: the line number and reason of the first bad line.
pub fn parse(text: &str) -> Result<Choices, BadLine> {
    let mut c = Choices::default();
    let mut scoring_set = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| BadLine {
            line: i + 1,
            reason: what.to_string(),
        };
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| bad("expected `key = value`"))?;
        let value = value.trim();
        match key.trim() {
            "opponent" => {
                c.opponent = match value {
                    "computer" => Opponent::Computer,
                    "human" => Opponent::Human,
                    "watch" => Opponent::Watch,
                    "online" => Opponent::Online,
                    _ => return Err(bad("opponent is computer, human, watch or online")),
                }
            }
            "colour" => {
                c.colour = match value {
                    "random" => ColourChoice::Random,
                    "black" => ColourChoice::Fixed(Color::Black),
                    "white" => ColourChoice::Fixed(Color::White),
                    _ => return Err(bad("colour is random, black or white")),
                }
            }
            "level" => {
                c.level = value.parse().map_err(|e: LevelError| bad(&e.to_string()))?;
            }
            "board" => {
                c.size = match value {
                    "8x8" => BoardSize::Eight,
                    "6x6" => BoardSize::Six,
                    _ => return Err(bad("board is 8x8 or 6x6")),
                }
            }
            "anti" => {
                c.anti = value.parse().map_err(|_| bad("anti is true or false"))?;
            }
            "language" => {
                c.language =
                    Some(Lang::from_code(value).ok_or_else(|| bad("language is en or fr"))?);
            }
            "scoring" => {
                scoring_set = true;
                c.scoring = match value {
                    "nobody" => Scoring::EmptiesToNobody,
                    "winner" => Scoring::EmptiesToWinner,
                    _ => return Err(bad("scoring is nobody or winner")),
                }
            }
            _ => {}
        }
    }
    if !scoring_set {
        c.scoring = crate::rules::Rules::standard(c.size).scoring;
    }
    Ok(c)
}

/// The text of the file for `c`.
#[must_use]
pub fn format(c: &Choices) -> String {
    let opponent = match c.opponent {
        Opponent::Computer => "computer",
        Opponent::Human => "human",
        Opponent::Watch => "watch",
        Opponent::Online => "online",
    };
    let colour = match c.colour {
        ColourChoice::Random => "random",
        ColourChoice::Fixed(Color::Black) => "black",
        ColourChoice::Fixed(Color::White) => "white",
    };
    let scoring = match c.scoring {
        Scoring::EmptiesToNobody => "nobody",
        Scoring::EmptiesToWinner => "winner",
    };
    let mut text = format!(
        "# reversi: the choices of the new-game screen, remembered\n\
         opponent = {opponent}\ncolour = {colour}\nlevel = {}\nboard = {}\nanti = {}\nscoring = {scoring}\n",
        c.level.number(),
        c.size,
        c.anti,
    );
    if let Some(lang) = c.language {
        text.push_str(&format!("language = {lang}\n"));
    }
    text
}

/// Saves `c` in `dir` atomically with [`crate::storage::atomic_write`].
///
/// # Errors
/// Any I/O error; the old file is then left as it was.
pub fn save(dir: &Path, c: &Choices) -> std::io::Result<()> {
    crate::storage::atomic_write(&dir.join(FILE), format(c).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("reversi-config-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn saves_and_loads_round_trip() {
        let d = temp_dir("round");
        assert!(load(&d).unwrap().is_none(), "no file yet");
        let c = Choices {
            opponent: Opponent::Watch,
            colour: ColourChoice::Fixed(Color::White),
            level: Level::new(5).unwrap(),
            size: BoardSize::Six,
            anti: true,
            scoring: Scoring::EmptiesToNobody,
            language: Some(Lang::Fr),
        };
        save(&d, &c).unwrap();
        assert_eq!(load(&d).unwrap(), Some(c));
        let leftovers: Vec<_> = std::fs::read_dir(&d).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file left behind");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn corrupt_files_are_errors_not_panics() {
        for text in [
            "level = 13",
            "opponent computer",
            "board = 7x7",
            "anti = maybe",
            "language = de",
            "\u{0}\u{1}",
        ] {
            assert!(parse(text).is_err(), "{text:?}");
        }
        let d = temp_dir("corrupt");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join(FILE), b"\xff\xfe garbage").unwrap();
        assert!(load(&d).is_err());
        std::fs::write(d.join(FILE), "level = 13\n").unwrap();
        let e = load(&d).unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("level"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn defaults_fill_missing_keys() {
        let c = parse("# nothing but a comment\nboard = 6x6\nfuture = yes\n").unwrap();
        assert_eq!(c.size, BoardSize::Six);
        assert_eq!(c.scoring, Scoring::EmptiesToWinner, "6x6 default scoring");
        assert_eq!(c.level, Level::DEFAULT);
        assert_eq!(c.language, None, "the language follows the environment");
    }
}
