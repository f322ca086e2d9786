//! The salon's message decoder never panics, whatever arrives, and reads back
//! what the encoder writes.

use proptest::prelude::*;
use reversi::ai::Level;
use reversi::net::protocol::{
    ClientMsg, ClockSpec, ColourChoice, DecodeError, MAX_MESSAGE_BYTES, Opponent, TableSpec,
    Variant, decode_client, encode,
};
use reversi::net::text::clean;

fn client_msg() -> impl Strategy<Value = ClientMsg> {
    let text = ".{0,40}";
    prop_oneof![
        (
            any::<u32>(),
            text,
            proptest::option::of("[0-9a-f]{32}"),
            any::<bool>()
        )
            .prop_map(|(protocol, name, token, lobby)| ClientMsg::Hello {
                protocol,
                name,
                token,
                lobby
            }),
        Just(ClientMsg::List),
        (
            0u8..3,
            0u8..3,
            proptest::option::of((1000u64..100_000, 0u64..5000)),
            0u8..7
        )
            .prop_map(|(v, c, clock, level)| ClientMsg::Create(TableSpec {
                variant: [Variant::Eight, Variant::Six, Variant::Anti][usize::from(v)],
                scoring: None,
                colour: [
                    ColourChoice::Random,
                    ColourChoice::Black,
                    ColourChoice::White
                ][usize::from(c)],
                clock: clock.map(|(base_ms, increment_ms)| ClockSpec {
                    base_ms,
                    increment_ms
                }),
                opponent: Level::new(level).map_or(Opponent::Open, |level| Opponent::Ai { level }),
            })),
        (any::<u64>(), text).prop_map(|(table, square)| ClientMsg::Move { table, square }),
        (any::<u64>(), any::<bool>())
            .prop_map(|(table, accept)| ClientMsg::UndoReply { table, accept }),
        (any::<u64>(), text).prop_map(|(table, text)| ClientMsg::Chat { table, text }),
        (any::<u64>(), any::<bool>()).prop_map(|(table, draw)| ClientMsg::Claim { table, draw }),
        any::<u64>().prop_map(|id| ClientMsg::Ping { id }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,300}") {
        let _ = decode_client(&text);
        let _ = clean(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = decode_client(&text);
        let _ = clean(&text);
    }

    #[test]
    fn encoded_messages_read_back(msg in client_msg()) {
        prop_assert_eq!(decode_client(&encode(&msg)).unwrap(), msg);
    }

    #[test]
    fn mangled_messages_never_panic(msg in client_msg(), cut in 0usize..200, junk in "[\\[\\]{}\":,0-9a-z\\\\ ]{0,8}") {
        let text = encode(&msg);
        let cut = (0..=cut.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let mangled = format!("{}{}{}", &text[..cut], junk, &text[cut..]);
        let _ = decode_client(&mangled);
    }
}

#[test]
fn oversized_and_malformed_are_told_apart() {
    let big = format!(
        r#"{{"type":"chat","table":1,"text":"{}"}}"#,
        "x".repeat(MAX_MESSAGE_BYTES)
    );
    assert!(matches!(decode_client(&big), Err(DecodeError::TooLarge(_))));
    assert!(matches!(
        decode_client(r#"{"type":"nope"}"#),
        Err(DecodeError::Malformed(_))
    ));
    assert!(matches!(
        decode_client("[]"),
        Err(DecodeError::Malformed(_))
    ));
    assert_eq!(
        decode_client(r#"{"type":"list","extra":1}"#).unwrap(),
        ClientMsg::List
    );
    // A claim names its table; a draw is asked for only in so many words.
    assert_eq!(
        decode_client(r#"{"type":"claim","table":4}"#).unwrap(),
        ClientMsg::Claim {
            table: 4,
            draw: false
        }
    );
    for bad in [
        r#"{"type":"claim"}"#,
        r#"{"type":"claim","table":4,"draw":"yes"}"#,
    ] {
        assert!(
            matches!(decode_client(bad), Err(DecodeError::Malformed(_))),
            "{bad}"
        );
    }
}

/// An engine table's level is read as a level or not at all: a number off
/// the ladder is a malformed message with a reason, never a table whose
/// engine cannot play.
#[test]
fn an_ai_level_off_the_ladder_does_not_read() {
    let create = |level: u32| {
        decode_client(&format!(
            r#"{{"type":"create","opponent":{{"kind":"ai","level":{level}}}}}"#
        ))
    };
    for bad in [0, 13, 255] {
        match create(bad) {
            Err(DecodeError::Malformed(m)) => {
                assert!(m.contains(&format!("level {bad} does not exist")), "{m}");
            }
            other => panic!("level {bad} read as {other:?}"),
        }
    }
    assert!(matches!(create(256), Err(DecodeError::Malformed(_))));
    for good in [1, 12] {
        let Ok(ClientMsg::Create(spec)) = create(good) else {
            panic!("level {good} does not read");
        };
        assert_eq!(
            spec.opponent,
            Opponent::Ai {
                level: Level::new(good as u8).unwrap()
            }
        );
    }
}

/// A frame whose error message quotes wide characters across the cut of the
/// message (found by `arbitrary_text_never_panics`): a clear error, cut at a
/// character boundary, never a panic.
#[test]
fn error_messages_quoting_wide_characters_are_cut_cleanly() {
    let minimal =
        "\"a#\u{14647}\u{2ee5e}\u{2ee5e}a   \u{3347a}\u{2ee5e}\u{7f}\u{3347a}A\u{100000}®\"";
    for text in [
        minimal.to_string(),
        format!("{{\"type\":\"{}\"}}", "é".repeat(80)),
        format!(
            "{{\"type\":\"move\",\"table\":\"{}\"}}",
            "\u{1f600}".repeat(40)
        ),
    ] {
        match decode_client(&text) {
            Err(DecodeError::Malformed(m)) => {
                assert!(!m.is_empty() && m.len() <= 100, "{text:?}: {m:?}");
            }
            other => panic!("{text:?} decoded as {other:?}"),
        }
    }
}
