//! Notation: squares, transcripts and board strings round trip (random games on
//! both sizes, passes re-derived), reading is tolerant where it should be, and
//! every error says where and why. Also OBF lines from the FFO test suite.

mod common;

use common::{XorShift, random_game, sq};
use reversi::notation::{
    LineError, ParseError, Reason, parse_board, parse_obf, parse_square, parse_square_on,
    parse_transcript, parse_transcript_lines, write_board, write_transcript,
};
use reversi::rules::{BoardSize, Color, IllegalMove, Move, Position, Square};

const START: &str = "---------------------------OX------XO--------------------------- X";
const START_6X6: &str = "--------------OX----XO-------------- X";
/// The shortest wipe-out (White has no disc after move 9).
const WIPE_OUT: &str = "d3c3b3d2e1d6d7e3f4";
/// A game with one forced pass; it ends 2–17 with 45 empty squares.
const SHORT_GAME: &str = "f5d6c5b6c4g5a7d3f4e3f2b4c3d2g1";

/// FFO #1 and #2, copied from ../shared/data/fforum-1-19.obf.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";
const FFO_2: &str = "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0; A3:-6; G7:-8; A7:-12; H7:-14; B7:-14; H2:-24;";

fn eight() -> Position {
    Position::initial(BoardSize::Eight)
}

fn transcript_error(text: &str, start: &Position) -> ParseError {
    parse_transcript(text, start).expect_err(text)
}

#[test]
fn squares_round_trip_in_either_case() {
    for index in 0..64 {
        let s = Square::new(index).unwrap();
        let name = s.to_string();
        assert_eq!(parse_square(&name), Ok(s));
        assert_eq!(parse_square(&name.to_uppercase()), Ok(s));
        assert_eq!(parse_square(&format!(" {name} ")), Ok(s));
        let on_six = parse_square_on(&name, BoardSize::Six);
        assert_eq!(on_six.is_ok(), s.column() < 6 && s.row() < 6, "{name}");
    }
    assert_eq!(sq("a1").index(), 0);
    assert_eq!(sq("h8").index(), 63);
    assert_eq!(sq("d3"), Square::at(3, 2));
}

#[test]
fn bad_squares_say_why() {
    for text in ["h9", "i1", "a0", "d", "d33", "", "3d"] {
        let e = parse_square(text).unwrap_err();
        assert_eq!(e.reason, Reason::NotASquare(text.to_string()));
        assert_eq!(e.to_string(), format!("\"{text}\" is not a square"));
        assert_eq!(e.column, 1);
    }
    let e = parse_square_on("g1", BoardSize::Six).unwrap_err();
    assert_eq!(e.to_string(), "g1 is not on the 6x6 board");
}

#[test]
fn transcripts_round_trip_with_passes_rederived() {
    let mut rng = XorShift::new(0x7a5c);
    let mut passes = 0;
    for size in [BoardSize::Eight, BoardSize::Six] {
        let start = Position::initial(size);
        for _ in 0..1500 {
            let (moves, _) = random_game(&mut rng, size);
            passes += moves.iter().filter(|m| **m == Move::Pass).count();
            let text = write_transcript(&moves);
            assert!(!text.contains("pass"));
            assert_eq!(
                text.len(),
                2 * moves.iter().filter(|m| **m != Move::Pass).count()
            );
            assert_eq!(parse_transcript(&text, &start).unwrap(), moves, "{text}");
            // Passes written out are accepted where they are forced.
            let spelled: Vec<String> = moves.iter().map(Move::to_string).collect();
            assert_eq!(parse_transcript(&spelled.join(" "), &start).unwrap(), moves);
            // A prefix ending with a pass reads back without the trailing pass.
            let k = rng.below(moves.len() + 1);
            let mut prefix = moves[..k].to_vec();
            let text = write_transcript(&prefix);
            while prefix.last() == Some(&Move::Pass) {
                prefix.pop();
            }
            assert_eq!(parse_transcript(&text, &start).unwrap(), prefix);
        }
    }
    assert!(passes > 0, "the random games should include passes");
}

#[test]
fn transcripts_are_read_tolerantly() {
    let canonical = parse_transcript("f5d6c3d3", &eight()).unwrap();
    for text in [
        "F5D6C3D3",
        "f5 d6 c3 d3",
        "F5, d6, C3, d3",
        "f5-d6-c3-d3",
        "  f5\td6\nc3;d3. ",
        "1. f5 d6 2. c3 d3",
    ] {
        if text.starts_with('1') {
            // Move numbers are not part of the notation.
            assert!(parse_transcript(text, &eight()).is_err());
            continue;
        }
        assert_eq!(
            parse_transcript(text, &eight()).unwrap(),
            canonical,
            "{text}"
        );
    }
    assert_eq!(write_transcript(&canonical), "f5d6c3d3");
    assert_eq!(parse_transcript("", &eight()).unwrap(), vec![]);
    assert_eq!(parse_transcript(" , - ", &eight()).unwrap(), vec![]);
}

#[test]
fn a_pass_is_read_only_where_it_is_forced() {
    let moves = parse_transcript(SHORT_GAME, &eight()).unwrap();
    let at = moves.iter().position(|m| *m == Move::Pass).unwrap();
    let before: Vec<String> = moves[..at].iter().map(Move::to_string).collect();
    let after: Vec<String> = moves[at + 1..].iter().map(Move::to_string).collect();
    for pass in ["pa", "PA", "pass", "Pass"] {
        let text = format!("{} {pass} {}", before.join(""), after.join(" "));
        assert_eq!(parse_transcript(&text, &eight()).unwrap(), moves, "{text}");
    }
    // Where a move exists, a pass is refused with the move number and reason.
    for text in ["pa", "f5 pass"] {
        let e = transcript_error(text, &eight());
        let n = text.split(' ').count();
        let color = if n == 1 { Color::Black } else { Color::White };
        assert_eq!(
            e.to_string(),
            format!("move {n}: pass is not legal for {color} (a legal move exists)")
        );
        assert_eq!(
            e.reason,
            Reason::Illegal {
                index: n,
                mv: Move::Pass,
                color,
                why: IllegalMove::PassNotAllowed(color)
            }
        );
    }
    // Two passes in a row never happen: the second would be after the end or
    // before a move of the other side.
    let text = format!("{} pa pa", before.join(""));
    assert!(parse_transcript(&text, &eight()).is_err());
}

#[test]
fn transcript_errors_name_the_move_and_the_reason() {
    // 11 legal moves, then a token that is not a square.
    let eleven = "e6d6c6f4c3c7f5g6d7b7g3";
    let e = transcript_error(&format!("{eleven} h9"), &eight());
    assert_eq!(e.to_string(), "move 12: \"h9\" is not a square");
    assert_eq!(e.column, 24);
    assert_eq!(
        e.reason,
        Reason::BadToken {
            index: 12,
            text: "h9".into()
        }
    );
    for (text, message) in [
        ("f5 xyz", "move 2: \"xyz\" is not a square"),
        ("f5d33", "move 2: \"d33\" is not a square"),
        (
            "f5 d6 c3 d3 a1",
            "move 5: a1 is not legal for Black (it encloses no line)",
        ),
        (
            "f5 f5",
            "move 2: f5 is not legal for White (the square is occupied)",
        ),
        (
            "d4",
            "move 1: d4 is not legal for Black (the square is occupied)",
        ),
    ] {
        assert_eq!(
            transcript_error(text, &eight()).to_string(),
            message,
            "{text}"
        );
    }
    let e = transcript_error(&format!("{WIPE_OUT} a1"), &eight());
    assert_eq!(
        e.to_string(),
        "move 10: a1 is not legal for White (the game is over)"
    );
    let e = transcript_error(&format!("{WIPE_OUT} pa"), &eight());
    assert_eq!(
        e.to_string(),
        "move 10: pass is not legal for White (the game is over)"
    );
}

#[test]
fn off_board_moves_on_6x6_name_the_move() {
    let six = Position::initial(BoardSize::Six);
    let e = transcript_error("c2 g1", &six);
    assert_eq!(
        e.to_string(),
        "move 2: g1 is not legal for White (not on the 6x6 board)"
    );
    assert_eq!(e.column, 4);
    let e = transcript_error("a7", &six);
    assert_eq!(
        e.to_string(),
        "move 1: a7 is not legal for Black (not on the 6x6 board)"
    );
}

#[test]
fn boards_round_trip_on_both_sizes() {
    assert_eq!(write_board(&eight()), START);
    assert_eq!(parse_board(START), Ok(eight()));
    let six = Position::initial(BoardSize::Six);
    assert_eq!(write_board(&six), START_6X6);
    assert_eq!(START_6X6.len(), 38);
    assert_eq!(parse_board(START_6X6), Ok(six));
    let mut rng = XorShift::new(0xb0a4d);
    for size in [BoardSize::Eight, BoardSize::Six] {
        for _ in 0..300 {
            let (_, positions) = random_game(&mut rng, size);
            for p in positions {
                let text = write_board(&p);
                assert_eq!(text.len(), size.squares() as usize + 2);
                assert_eq!(parse_board(&text), Ok(p), "{text}");
            }
        }
    }
}

#[test]
fn boards_are_read_tolerantly() {
    let white_to_move = eight().play_unchecked(Move::Pass);
    for text in [
        "---------------------------ox------xo--------------------------- x",
        "...........................OX......XO........................... X",
        "___________________________OX______XO___________________________ b",
        "--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\n-------- X",
        "---------------------------OX------XO---------------------------X",
    ] {
        assert_eq!(parse_board(text), Ok(eight()), "{text}");
    }
    for text in [
        "---------------------------OX------XO--------------------------- O",
        "---------------------------WB------BW--------------------------- w",
    ] {
        assert_eq!(parse_board(text), Ok(white_to_move), "{text}");
    }
    let six_rows = "------\n------\n--OX--\n--XO--\n------\n------ X";
    assert_eq!(parse_board(six_rows), Ok(Position::initial(BoardSize::Six)));
}

#[test]
fn bad_boards_say_where_and_why() {
    let e = parse_board("---------------------------OX--Z---XO--------------------------- X")
        .unwrap_err();
    assert_eq!(e.reason, Reason::BoardChar('Z'));
    assert_eq!(e.column, 32);
    assert_eq!(e.to_string(), "'Z' is not a square of a board (X, O or -)");

    let e = parse_board("----XO----").unwrap_err();
    assert_eq!(e.reason, Reason::BoardLength(10));
    assert_eq!(
        e.to_string(),
        "a board needs 64 squares (or 36 for 6x6), found 10"
    );

    let e = parse_board("---------------------------OX------XO--------------------------- Q")
        .unwrap_err();
    assert_eq!(e.reason, Reason::SideToMove("Q".into()));
    assert_eq!(e.column, 66);
    assert_eq!(e.to_string(), "side to move must be X or O, found \"Q\"");

    let e = parse_board("---------------------------OX------XO---------------------------")
        .unwrap_err();
    assert_eq!(e.to_string(), "side to move must be X or O, found \"\"");

    let e = parse_board("").unwrap_err();
    assert_eq!(
        (e.reason.clone(), e.to_string()),
        (Reason::Empty, "nothing to read".into())
    );
}

#[test]
fn obf_lines_of_the_ffo_suite_are_read() {
    let obf = parse_obf(FFO_1).unwrap();
    let p = obf.position;
    assert_eq!(p.size(), BoardSize::Eight);
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.empties().count(), 14);
    assert_eq!(p.disc_at(sq("c1")), Some(Color::Black));
    assert_eq!(p.disc_at(sq("b2")), Some(Color::White));
    assert_eq!(p.disc_at(sq("a1")), None);
    assert_eq!(write_board(&p), FFO_1[..66]);
    assert_eq!(obf.scores.len(), 8);
    assert_eq!(obf.scores[0], (Move::Place(sq("g8")), 18));
    assert_eq!(obf.scores[7], (Move::Place(sq("g2")), -24));
    // Every annotated move is legal, and the annotations list all the moves.
    for (mv, _) in &obf.scores {
        assert!(p.is_legal(*mv), "{mv}");
    }
    assert_eq!(p.legal_moves().count(), 8);

    let obf = parse_obf(FFO_2).unwrap();
    assert_eq!(obf.scores[0], (Move::Place(sq("a4")), 10));
    assert_eq!(obf.scores[1], (Move::Place(sq("b2")), 0));
    assert!(obf.scores.iter().all(|(mv, _)| obf.position.is_legal(*mv)));

    // Without annotations, and with a pass annotation.
    assert_eq!(parse_obf(START).unwrap().scores, vec![]);
    assert_eq!(
        parse_obf(&format!("{START}; PA:-3")).unwrap().scores,
        vec![(Move::Pass, -3)]
    );
}

#[test]
fn bad_obf_annotations_say_where_and_why() {
    for (bad, column) in [("G8+18", 69), ("Z9:+1", 69), ("G8:abc", 69)] {
        let e = parse_obf(&format!("{START}; {bad};")).unwrap_err();
        assert_eq!(e.reason, Reason::Annotation(bad.into()));
        assert_eq!(
            e.to_string(),
            format!("\"{bad}\" is not a MOVE:score annotation")
        );
        assert_eq!(e.column, column, "{bad}");
    }
    let e = parse_obf(&format!("{START}; G8:+1; H1")).unwrap_err();
    assert_eq!(e.reason, Reason::Annotation("H1".into()));
    // Errors of the board part are those of parse_board.
    let e = parse_obf("--X; G8:+1").unwrap_err();
    assert_eq!(e.reason, Reason::BoardLength(3));
}

/// One reader for a move reads back both writers (GGF/NBoard `PA`, people's
/// `pass`), in either case.
#[test]
fn moves_round_trip_through_the_one_reader() {
    use reversi::notation::{parse_move, write_move};
    let mut all: Vec<Move> = (0..64u8)
        .map(|i| Move::Place(Square::at(i % 8, i / 8)))
        .collect();
    all.push(Move::Pass);
    for mv in all {
        assert_eq!(parse_move(&write_move(mv)).unwrap(), mv);
        assert_eq!(
            parse_move(&write_move(mv).to_ascii_uppercase()).unwrap(),
            mv
        );
        assert_eq!(parse_move(&mv.to_string()).unwrap(), mv);
    }
    assert!(parse_move("pas").is_err());
    assert!(parse_move("i1").is_err());
}

/// A transcripts file: comments and blank lines skipped, each game with its
/// line; an error names the line, the game's number and the column in the
/// line (leading spaces counted), on either board size.
#[test]
fn transcript_lines_name_the_line_game_and_column() {
    let text = "# two games\nf5 d6\n\n  c4c3 # second\n";
    let games = parse_transcript_lines(text, BoardSize::Eight).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0], (2, parse_transcript("f5d6", &eight()).unwrap()));
    assert_eq!(games[1], (4, parse_transcript("c4c3", &eight()).unwrap()));

    let err: LineError = parse_transcript_lines("f5\n# x\n\n  f5z9\n", BoardSize::Eight)
        .expect_err("z9 is not a square");
    assert_eq!((err.line, err.game, err.error.column), (4, 2, 5));
    assert!(err.to_string().starts_with("line 4: "), "{err}");

    // 6×6: c2 is a legal first move there; g1 is off the board.
    let six = parse_transcript_lines("c2\n", BoardSize::Six);
    assert_eq!(six.map(|g| g.len()), Ok(1));
    let err = parse_transcript_lines("c2\ng1\n", BoardSize::Six).expect_err("off the board");
    assert_eq!((err.line, err.game, err.error.column), (2, 2, 1));
}
