//! Messages in the player's language: English and French catalogues in
//! [Fluent](https://projectfluent.org) syntax, built into the binary.
//!
//! The game screen takes every word it shows from here, in the language it
//! passes:
//!
//! ```
//! use reversi::i18n::{Lang, tr};
//! assert_eq!(tr(Lang::Fr, "lang-name"), "Français");
//! assert_eq!(tr(Lang::En, "lang-name"), "English");
//! assert_eq!(reversi::tr!(Lang::Fr, "moves-played", n = 2), "2 joués");
//! ```
//!
//! * [`tr`] — a message without arguments;
//! * [`tr!`](crate::tr) — a message with named arguments:
//!   `tr!(lang, "discs", n = count)`; numbers choose the plural form and are
//!   written the language's way (`12,5` in French, `12.5` in English);
//! * [`tr_args`] — the same as a function, for arguments built at run time.
//!
//! Message ids are written as string literals at the call (`tr(lang, "id")`,
//! `tr!(lang, "id", …)`, `tr_args(lang, "id", …)`): a test reads the sources
//! for these calls and checks that every id is in every catalogue and that
//! no catalogue holds an id the code never asks for. Each catalogue is
//! `src/i18n/<code>.ftl`.
//!
//! There is no language of the process: the caller says which one every
//! time. The game screen's is a field of its model, chosen at start
//! (`--lang`, the remembered choice, or the locale variables through
//! [`Lang::from_env`]) and changed on its new-game screen. A missing message
//! shows its id rather than failing. Depends on nothing else in the crate.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::types::{FluentNumber, FluentNumberOptions};
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::sync::LazyLock;

/// A language the game speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// French.
    Fr,
}

impl Lang {
    /// Every language, in the order the new-game screen cycles through them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    /// The two-letter code: `en`, `fr` (as `--lang` and the config file
    /// write it).
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language of a code (`en`, `fr`, any case).
    #[must_use]
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code.trim()))
    }

    /// The language of a POSIX locale value such as `fr_FR.UTF-8`, `fr`,
    /// `en_GB`, `C`: French for `fr…`, English for any other language;
    /// `None` for an empty value (not set).
    #[must_use]
    pub fn from_locale(value: &str) -> Option<Lang> {
        let value = value.trim();
        if value.is_empty() {
            return None;
        }
        let language = value.split(['_', '.', '@', '-']).next().unwrap_or_default();
        Some(Lang::from_code(language).unwrap_or(Lang::En))
    }

    /// The language of the environment: the first of `LC_ALL`, `LC_MESSAGES`
    /// and `LANG` that is set and not empty decides (the POSIX order);
    /// English when none is.
    #[must_use]
    pub fn from_env() -> Lang {
        Lang::from_vars(|name| std::env::var(name).ok())
    }

    /// [`Lang::from_env`] with the variables read through `var`.
    #[must_use]
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .find_map(|name| var(name).as_deref().and_then(Lang::from_locale))
            .unwrap_or_default()
    }

    fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::Fr => 1,
        }
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// The English catalogue.
pub const EN: &str = include_str!("i18n/en.ftl");
/// The French catalogue.
pub const FR: &str = include_str!("i18n/fr.ftl");

/// The catalogue text of `lang`.
#[must_use]
pub fn catalogue(lang: Lang) -> &'static str {
    match lang {
        Lang::En => EN,
        Lang::Fr => FR,
    }
}

type Bundle = FluentBundle<FluentResource>;

static BUNDLES: LazyLock<[Bundle; 2]> =
    LazyLock::new(|| Lang::ALL.map(|lang| bundle(lang, catalogue(lang))));

/// The bundle of the catalogue `text` in `lang`: parsed (entries with syntax
/// errors are left out; a test keeps the catalogues free of them), with plain
/// text around arguments (no Unicode isolation marks, which terminals would
/// show), the language's plural rules and numbers written its way.
fn bundle(lang: Lang, text: &str) -> Bundle {
    let resource = FluentResource::try_new(text.to_string()).unwrap_or_else(|(r, _)| r);
    let mut bundle = FluentBundle::new_concurrent(vec![lang.code().parse().unwrap_or_default()]);
    bundle.set_use_isolating(false);
    bundle.set_formatter(Some(match lang {
        Lang::En => |v, _| format_value(Lang::En, v),
        Lang::Fr => |v, _| format_value(Lang::Fr, v),
    }));
    // Only an id defined twice can fail here; the tests keep ids unique.
    let _ = bundle.add_resource(resource);
    bundle
}

fn format_value(lang: Lang, value: &FluentValue<'_>) -> Option<String> {
    match value {
        FluentValue::Number(n) => Some(format_number(
            lang,
            n.value,
            n.options.minimum_fraction_digits.unwrap_or(0),
        )),
        _ => None,
    }
}

/// An argument of a message.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A whole number: chooses the plural form, written with the language's
    /// digit grouping (`12,345`; `12 345` in French).
    Int(i64),
    /// A number shown with a fixed count of decimals (`1.5`; `1,5` in French).
    Decimal(f64, u8),
    /// Text, shown as it is.
    Text(String),
}

impl Arg {
    /// `value` with `digits` decimals.
    #[must_use]
    pub fn decimal(value: f64, digits: u8) -> Arg {
        Arg::Decimal(value, digits)
    }

    fn value(&self) -> FluentValue<'_> {
        match self {
            Arg::Int(n) => FluentValue::from(*n),
            Arg::Decimal(x, digits) => {
                let options = FluentNumberOptions {
                    minimum_fraction_digits: Some(usize::from(*digits)),
                    maximum_fraction_digits: Some(usize::from(*digits)),
                    ..FluentNumberOptions::default()
                };
                FluentValue::Number(FluentNumber::new(*x, options))
            }
            Arg::Text(s) => FluentValue::from(s.as_str()),
        }
    }
}

macro_rules! int_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Int(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_args!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize);

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_string())
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Text(s.clone())
    }
}

/// The message `id` in `lang`.
#[must_use]
pub fn tr(lang: Lang, id: &str) -> String {
    tr_args(lang, id, &[])
}

/// The message `id` in `lang` with named arguments:
/// `tr_args(lang, "discs", &[("n", 3.into())])`. A missing message gives its
/// id; a missing argument shows as `{$name}`.
#[must_use]
pub fn tr_args(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    format(&BUNDLES[lang.index()], id, args)
}

fn format(bundle: &Bundle, id: &str, args: &[(&str, Arg)]) -> String {
    let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
        return id.to_string();
    };
    let mut fluent_args = FluentArgs::with_capacity(args.len());
    for (name, value) in args {
        fluent_args.set(*name, value.value());
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
    debug_assert!(errors.is_empty(), "message {id}: {errors:?}");
    text.into_owned()
}

/// A message in a language, with named arguments each converted by
/// [`Arg::from`]: `tr!(lang, "discs", n = 3)`, `tr!(lang, "you-play",
/// colour = name)`.
#[macro_export]
macro_rules! tr {
    ($lang:expr, $id:literal) => {
        $crate::i18n::tr($lang, $id)
    };
    ($lang:expr, $id:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::tr_args(
            $lang,
            $id,
            &[$((stringify!($name), $crate::i18n::Arg::from($value))),+],
        )
    };
}

/// `value` written the way `lang` writes numbers, with `digits` decimals:
/// `1,234.5` in English, `1 234,5` in French (a narrow no-break space
/// between groups of three digits).
#[must_use]
pub fn format_number(lang: Lang, value: f64, digits: usize) -> String {
    let text = format!("{:.*}", digits, value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let (group, point) = match lang {
        Lang::En => (",", "."),
        Lang::Fr => ("\u{202f}", ","),
    };
    let mut out = String::new();
    if value < 0.0 && text.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        out.push('-');
    }
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push_str(group);
        }
        out.push(c);
    }
    if !fraction.is_empty() {
        out.push_str(point);
        out.push_str(fraction);
    }
    out
}

/// `n` written `lang`'s way (digit groups).
#[must_use]
pub fn int(lang: Lang, n: i64) -> String {
    format_number(lang, n as f64, 0)
}

/// `x` with `digits` decimals, written `lang`'s way.
#[must_use]
pub fn decimal(lang: Lang, x: f64, digits: usize) -> String {
    format_number(lang, x, digits)
}

#[cfg(test)]
mod tests;
