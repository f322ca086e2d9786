//! Who plays a side of a match: a built-in configuration of the engine
//! (`level:5`, `depth:12,sel:4`, …), an external NBoard engine, or a
//! [`Reference`] player, read from the text of `--a`/`--b`.

use crate::ai::{
    Engine, Evaluation, Level, LevelError, Limits, PatternWeights, Reference, WeightsError,
};
use std::sync::Arc;
use std::time::Duration;

/// Who plays one side of a match.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Our AI with these limits, named for reports.
    Builtin {
        /// A short name, e.g. `level:5`.
        name: String,
        /// The search limits.
        limits: Limits,
        /// The evaluation.
        eval: EvalSpec,
    },
    /// An external engine speaking the NBoard protocol, started with this shell command.
    External {
        /// The command line, run by `sh -c`.
        command: String,
    },
    /// A reference player that does not search.
    Reference(Reference),
}

/// `base` with one setting of a built-in player (`depth`, `time`, …) applied;
/// `eval` and `weights` also set the evaluation in `eval`.
fn with_setting(
    base: Limits,
    key: &str,
    value: &str,
    eval: &mut EvalSpec,
) -> Result<Limits, SpecError> {
    let range = |setting: &'static str, expected: &'static str| SpecError::Range {
        setting,
        value: value.trim().to_string(),
        expected,
    };
    let empties = |setting: &'static str| -> Result<u32, SpecError> {
        let n: u32 = number(value, "a number of empties")?;
        if n > 64 {
            return Err(range(setting, "0 to 64 empties"));
        }
        Ok(n)
    };
    let depth = |setting: &'static str| -> Result<u32, SpecError> {
        let d: u32 = number(value, "a depth")?;
        if !(1..=60).contains(&d) {
            return Err(range(setting, "1 to 60"));
        }
        Ok(d)
    };
    let selectivity = |setting: &'static str, least: u8, expected: &'static str| {
        value
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|n| (least..=4).contains(n))
            .ok_or_else(|| range(setting, expected))
    };
    Ok(match key {
        "level" => value.parse::<Level>()?.limits(),
        "depth" => Limits {
            depth: depth("depth")?,
            time: None,
            noise: 0,
            ..base
        },
        "nominal" => Limits::nominal(depth("nominal")?),
        "time" => {
            let s: f64 = number(value, "a time in seconds")?;
            if !(0.001..=3600.0).contains(&s) {
                return Err(range("time", "0.001 to 3600 seconds"));
            }
            Limits {
                time: Some(Duration::from_secs_f64(s)),
                depth: base.depth.max(60),
                ..base
            }
        }
        "eval" => Limits {
            evaluation: evaluation_setting(value, eval)?,
            ..base
        },
        "open" => Limits {
            opening_depth: Some(depth("open")?),
            ..base
        },
        "settle" => {
            let k: u32 = number(value, "a number of iterations")?;
            if k > 60 {
                return Err(range("settle", "0 to 60 iterations"));
            }
            Limits { settle: k, ..base }
        }
        "doubt" => {
            let k: u32 = number(value, "a number of plies")?;
            if k > 60 {
                return Err(range("doubt", "0 to 60 plies"));
            }
            Limits { doubt: k, ..base }
        }
        "late" => Limits {
            late_depth: Some(depth("late")?),
            ..base
        },
        "exact" => Limits {
            exact_empties: empties("exact")?,
            ..base
        },
        "wld" => Limits {
            wld_empties: empties("wld")?,
            ..base
        },
        "prob" => Limits {
            probable_empties: empties("prob")?,
            ..base
        },
        "sel" => Limits {
            selectivity: selectivity("sel", 0, "a selectivity 0 to 4")?,
            ..base
        },
        "psel" => Limits {
            probable_selectivity: selectivity("psel", 1, "a selectivity 1 to 4")?,
            ..base
        },
        "cautious" => Limits {
            cautious_empties: empties("cautious")?,
            ..base
        },
        "temp" => {
            let t: f64 = number(value, "a temperature in discs")?;
            if !(0.0..=64.0).contains(&t) {
                return Err(range("temp", "0 to 64 discs"));
            }
            Limits {
                temperature: (t * 100.0).round() as i32,
                ..base
            }
        }
        "book" => {
            let book = if value.trim().eq_ignore_ascii_case("off") {
                None
            } else {
                let d: f64 = number(value, "a margin in discs, or off")?;
                if !(0.0..=64.0).contains(&d) {
                    return Err(range("book", "0 to 64 discs, or off"));
                }
                Some((d * 100.0).round() as u16)
            };
            Limits { book, ..base }
        }
        "weights" => {
            let w = PatternWeights::read(std::path::Path::new(value.trim())).map_err(|source| {
                SpecError::Weights {
                    path: value.trim().to_string(),
                    source,
                }
            })?;
            *eval = EvalSpec::Weights(Arc::new(w));
            base
        }
        k => return Err(SpecError::Setting(k.to_string())),
    })
}

/// The evaluation that `eval:VALUE` names; `hand` and `learned` also choose
/// the weights in `eval`.
fn evaluation_setting(value: &str, eval: &mut EvalSpec) -> Result<Evaluation, SpecError> {
    Ok(match value.trim() {
        "hand" => {
            *eval = EvalSpec::Hand;
            Evaluation::Full
        }
        "learned" => {
            *eval = EvalSpec::Default;
            Evaluation::Full
        }
        "discs" => Evaluation::Discs,
        "mobility" => Evaluation::Mobility,
        v => {
            return Err(SpecError::Range {
                setting: "eval",
                value: v.to_string(),
                expected: "eval:learned, eval:hand, eval:mobility or eval:discs",
            });
        }
    })
}

/// `value` as a number, or an error saying that it is not `what`.
fn number<T: std::str::FromStr>(value: &str, what: &'static str) -> Result<T, SpecError> {
    value.trim().parse().map_err(|_| SpecError::NotNumber {
        value: value.to_string(),
        what,
    })
}

/// Why a built-in player's description (`--a depth:12,sel:4`) is not
/// understood.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SpecError {
    /// No settings at all.
    #[error("empty player: expected random, greedy or settings such as depth:8")]
    Empty,
    /// A part that is not `key:value`.
    #[error(
        "\"{0}\": expected random, greedy, level:N, depth:N, time:SECS, eval:KIND, \
         weights:PATH, open:N, late:N, exact:N, wld:N, prob:N, psel:N, cautious:N, sel:N, settle:N, doubt:N, temp:DISCS or book:DISCS|off"
    )]
    Part(String),
    /// A key that names no setting.
    #[error(
        "\"{0}\": expected level, depth, nominal, time, eval, weights, open, late, exact, wld, prob, psel, cautious, sel, settle, doubt, temp or book"
    )]
    Setting(String),
    /// A value that is not a number.
    #[error("\"{value}\" is not {what}")]
    NotNumber {
        /// The value as written.
        value: String,
        /// What was expected ("a depth").
        what: &'static str,
    },
    /// A value outside its range, or not one of the values allowed.
    #[error("{setting}:{value}: expected {expected}")]
    Range {
        /// The setting (`depth`, `sel`, …).
        setting: &'static str,
        /// The value as written.
        value: String,
        /// The values allowed.
        expected: &'static str,
    },
    /// `level:` names no level.
    #[error(transparent)]
    Level(#[from] LevelError),
    /// `weights:` names a file that cannot be used.
    #[error("weights {path}: {source}")]
    Weights {
        /// The file.
        path: String,
        /// Why it cannot be used.
        source: WeightsError,
    },
}

impl PlayerSpec {
    /// Reads `random`, `greedy` (the [`Reference`] players), or `level:N`,
    /// `depth:N`, `nominal:N` (the NBoard depth N, [`Limits::nominal`]) or
    /// `time:SECS` (combinable with commas, e.g.
    /// `depth:8,time:0.5`), optionally with `eval:hand` (the hand-written
    /// evaluation), `eval:discs` or `eval:mobility` (one-feature evaluations),
    /// `weights:PATH` (learned weights from a file), `open:N` (depth N while
    /// more than 40 squares are empty), `late:N` (depth N from 34 empty
    /// squares down), `exact:N` (solve exactly
    /// from N empties), `wld:N` (solve for the result only from N empties,
    /// above `exact`), `prob:N` (a probable result-only solve, with endgame
    /// ProbCut and never proven, from N empties, above `exact` and `wld`),
    /// `psel:N` (the probable solve's own selectivity 1–4; without it, the
    /// midgame's), `cautious:N` (the probable solve at 2.6 σ from N empties
    /// down), `sel:N` (ProbCut selectivity 0–4), `settle:N` (stop one
    /// ply short of the depth when N iterations in a row chose the same
    /// move), `doubt:N` (N plies deeper when the last iteration changed the
    /// move), `temp:DISCS` (the temperature of the choice between close
    /// moves) or `book:DISCS` / `book:off` (play from the opening book, a
    /// move drawn within DISCS of the best book move; levels 10–12 use it
    /// already). Without a level, the settings start from a depth-60
    /// search that solves exactly from 10 empties, with no time limit and no
    /// randomness.
    ///
    /// # Errors
    /// [`SpecError`], naming the part that is not understood.
    pub fn parse_builtin(text: &str) -> Result<PlayerSpec, SpecError> {
        for r in Reference::ALL {
            if text.trim().eq_ignore_ascii_case(r.name()) {
                return Ok(PlayerSpec::Reference(r));
            }
        }
        let mut limits: Option<Limits> = None;
        let mut eval = EvalSpec::Default;
        for part in text.split(',') {
            let (key, value) = part
                .split_once(':')
                .ok_or_else(|| SpecError::Part(part.to_string()))?;
            let base = limits.unwrap_or(Limits {
                exact_empties: 10,
                ..Limits::depth(60)
            });
            limits = Some(with_setting(base, key.trim(), value, &mut eval)?);
        }
        let limits = limits.ok_or(SpecError::Empty)?;
        Ok(PlayerSpec::Builtin {
            name: text.to_string(),
            limits,
            eval,
        })
    }

    /// A short name for reports.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            PlayerSpec::Builtin { name, .. } => name.clone(),
            PlayerSpec::External { command } => command
                .split_whitespace()
                .next()
                .unwrap_or("engine")
                .to_string(),
            PlayerSpec::Reference(r) => r.name().to_string(),
        }
    }
}

/// The evaluation of a built-in player.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalSpec {
    /// The engine's default (the shipped learned weights).
    Default,
    /// The hand-written evaluation (`eval:hand`).
    Hand,
    /// Learned weights from a file (`weights:PATH`).
    Weights(Arc<PatternWeights>),
}

impl EvalSpec {
    /// Sets `engine`'s evaluation to this one.
    pub fn apply_to(&self, engine: &mut Engine) {
        match self {
            EvalSpec::Default => {}
            EvalSpec::Hand => engine.set_weights(None),
            EvalSpec::Weights(w) => engine.set_weights(Some(w.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_players_are_read_by_name() {
        assert_eq!(
            PlayerSpec::parse_builtin("greedy").unwrap(),
            PlayerSpec::Reference(Reference::Greedy)
        );
        assert_eq!(
            PlayerSpec::parse_builtin(" Random ").unwrap().name(),
            "random"
        );
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("depth:3,eval:mobility,temp:0.5,exact:4,sel:2")
        else {
            panic!("a built-in player");
        };
        assert_eq!(
            (limits.depth, limits.evaluation, limits.temperature),
            (3, Evaluation::Mobility, 50)
        );
        assert_eq!((limits.exact_empties, limits.selectivity), (4, 2));
        let Ok(PlayerSpec::Builtin { limits, .. }) = PlayerSpec::parse_builtin("nominal:16") else {
            panic!("a built-in player");
        };
        assert_eq!(limits, Limits::nominal(16));
        let Ok(PlayerSpec::Builtin { limits, .. }) = PlayerSpec::parse_builtin("depth:18,open:16")
        else {
            panic!("a built-in player");
        };
        assert_eq!((limits.depth, limits.opening_depth), (18, Some(16)));
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("depth:18,open:16,late:20")
        else {
            panic!("a built-in player");
        };
        assert_eq!(limits.late_depth, Some(20));
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("nominal:16,prob:26")
        else {
            panic!("a built-in player");
        };
        assert_eq!(
            limits,
            Limits {
                probable_empties: 26,
                ..Limits::nominal(16)
            }
        );
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("nominal:16,prob:24,psel:1")
        else {
            panic!("a built-in player");
        };
        assert_eq!(
            (limits.probable_empties, limits.probable_selectivity),
            (24, 1)
        );
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("nominal:16,cautious:0")
        else {
            panic!("a built-in player");
        };
        assert_eq!(
            (
                Limits::nominal(16).cautious_empties,
                limits.cautious_empties
            ),
            (24, 0)
        );
        let Ok(PlayerSpec::Builtin { limits, .. }) =
            PlayerSpec::parse_builtin("nominal:16,settle:3,doubt:2")
        else {
            panic!("a built-in player");
        };
        assert_eq!((limits.settle, limits.doubt), (3, 2));
        for (bad, message) in [
            ("settle:61", "settle:61: expected 0 to 60 iterations"),
            ("doubt:99", "doubt:99: expected 0 to 60 plies"),
            ("doubt:x", "\"x\" is not a number of plies"),
        ] {
            assert_eq!(
                PlayerSpec::parse_builtin(bad).unwrap_err().to_string(),
                message
            );
        }
        for bad in ["psel:0", "psel:5", "psel:x"] {
            assert_eq!(
                PlayerSpec::parse_builtin(bad).unwrap_err().to_string(),
                format!("{bad}: expected a selectivity 1 to 4")
            );
        }
        assert_eq!(
            PlayerSpec::parse_builtin("prob:65")
                .unwrap_err()
                .to_string(),
            "prob:65: expected 0 to 64 empties"
        );
    }

    #[test]
    fn a_bad_player_says_which_part_and_why() {
        let err = |text: &str| PlayerSpec::parse_builtin(text).unwrap_err();
        assert!(matches!(err(""), SpecError::Part(_)));
        assert!(matches!(err("depth:2,colour:x"), SpecError::Setting(k) if k == "colour"));
        assert!(matches!(
            err("depth:x"),
            SpecError::NotNumber {
                what: "a depth",
                ..
            }
        ));
        assert_eq!(err("depth:61").to_string(), "depth:61: expected 1 to 60");
        assert_eq!(err("open:0").to_string(), "open:0: expected 1 to 60");
        assert_eq!(
            err("nominal:61").to_string(),
            "nominal:61: expected 1 to 60"
        );
        assert_eq!(
            err("depth:4,sel:5").to_string(),
            "sel:5: expected a selectivity 0 to 4"
        );
        assert!(matches!(err("level:0"), SpecError::Level(_)));
        let missing = err("depth:2,weights:/nonexistent/w.rvw");
        assert!(matches!(missing, SpecError::Weights { .. }));
        assert!(
            missing
                .to_string()
                .starts_with("weights /nonexistent/w.rvw: "),
            "{missing}"
        );
        assert!(
            std::error::Error::source(&missing).is_some(),
            "the I/O error is kept"
        );
    }
}
