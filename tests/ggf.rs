//! GGF game records: round trips (passes, 6×6, anti, a non-standard start, annotations),
//! a hand-written fixture in the style of server game files, and every error path.

use reversi::notation::ggf::{EndedEarly, MoveNote, Record, parse_ggf, utc_date, write_ggf};
use reversi::notation::parse_board;
use reversi::rules::{BoardSize, Color, Game, Move, Position, Rules, Scoring};

/// A seeded random game (xorshift), played to the end or to `max_plies`.
fn random_game(rules: Rules, start: Position, seed: u64, max_plies: usize) -> Game {
    let mut game = Game::from_position(rules, start).unwrap();
    let mut rng = reversi::random::seeded(seed);
    for _ in 0..max_plies {
        let moves = game.position().moves_list();
        if moves.is_empty() {
            break;
        }
        game.play(moves[reversi::random::below(&mut rng, moves.len())])
            .unwrap();
    }
    game
}

fn round_trip(game: Game) {
    let mut record = Record::new(game);
    record.black = "Alice".into();
    record.white = "Bob [the bot]".into();
    record.date = "2026.11.29_13:04:51.UTC".into();
    let text = write_ggf(&record);
    let back = parse_ggf(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.len(), 1);
    let back = &back[0];
    assert_eq!(back.game, record.game, "{text}");
    assert_eq!(back.black, "Alice");
    assert_eq!(back.white, "Bob [the bot)");
    assert_eq!(back.result, record.result);
    assert_eq!(write_ggf(back), text);
}

#[test]
fn round_trips_of_random_games_with_passes_both_sizes_and_anti() {
    let mut passes = 0;
    for seed in 1..200u64 {
        for (size, anti) in [
            (BoardSize::Eight, false),
            (BoardSize::Six, false),
            (BoardSize::Six, true),
            (BoardSize::Eight, true),
        ] {
            let mut rules = Rules::standard(size);
            rules.anti = anti;
            let game = random_game(rules, Position::initial(size), seed, 200);
            passes += game.moves().iter().filter(|m| **m == Move::Pass).count();
            round_trip(game);
        }
    }
    assert!(
        passes > 10,
        "the sample should include passes, had {passes}"
    );
}

#[test]
fn round_trip_of_an_unfinished_game_from_a_non_standard_start() {
    let start =
        parse_board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X").unwrap();
    let game = random_game(Rules::standard(BoardSize::Eight), start, 7, 5);
    let record = Record::new(game);
    assert_eq!(record.result, None);
    let text = write_ggf(&record);
    assert!(text.contains("BO[8 --*****- -OOO**-O"), "{text}");
    assert_eq!(parse_ggf(&text).unwrap()[0].game, record.game);
}

#[test]
fn annotations_round_trip() {
    let game = random_game(Rules::default(), Position::initial(BoardSize::Eight), 3, 4);
    let mut record = Record::new(game);
    record.notes[0] = MoveNote {
        eval: Some(1.5),
        time: Some(0.25),
    };
    record.notes[2] = MoveNote {
        eval: None,
        time: Some(3.0),
    };
    let text = write_ggf(&record);
    let back = &parse_ggf(&text).unwrap()[0];
    assert_eq!(back.notes, record.notes);
}

const FIXTURE: &str = "\
(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[saio1200]PW[Saio3000]RB[2197.72]
RW[2490.49]TI[5:00//02:00]TY[8]RE[?]BO[8 -------- -------- -------- ---O*--- ---*O---
-------- -------- -------- *]B[f5//0.01]W[d6/-1.23/0.02]B[C3]w[d3/0.5/1:02.5]b[c4]
;)
  (;gm[othello]pb[x]pw[y]ty[6]bo[6 ------ ------ --O*-- --*O-- ------ ------ *]
    b[c2] w[b2] ;)
(;GM[Othello]TY[8]BO[8 OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO *OOOOO-- O]W[pass]B[g8];)
";

#[test]
fn reads_a_server_style_fixture_with_several_games() {
    let games = parse_ggf(FIXTURE).unwrap();
    assert_eq!(games.len(), 3);
    let g = &games[0];
    assert_eq!(g.black, "saio1200");
    assert_eq!(
        reversi::notation::write_transcript(g.game.moves()),
        "f5d6c3d3c4"
    );
    assert_eq!(g.notes[1].eval, Some(-1.23));
    assert_eq!(g.notes[3].time, Some(62.5));
    assert_eq!(games[1].game.rules().size, BoardSize::Six);
    assert_eq!(games[1].game.len(), 2);
    // White must pass (it has no move), then Black fills g8 and the game ends.
    let g = &games[2].game;
    assert_eq!(
        g.moves(),
        &[
            Move::Pass,
            Move::Place(reversi::notation::parse_square("g8").unwrap())
        ]
    );
    assert!(g.outcome().is_some());
}

#[test]
fn missing_passes_are_re_derived() {
    let text = "(;GM[Othello]TY[8]BO[8 OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO *OOOOO-- O]B[g8];)";
    let g = &parse_ggf(text).unwrap()[0];
    assert_eq!(g.game.moves()[0], Move::Pass);
    assert_eq!(g.notes.len(), 2);
}

fn error_of(text: &str) -> String {
    parse_ggf(text).unwrap_err().to_string()
}

#[test]
fn errors_name_line_column_and_what_was_expected() {
    assert_eq!(
        error_of(""),
        "line 1, column 1: expected a game starting with \"(;\""
    );
    assert_eq!(
        error_of("  x"),
        "line 1, column 3: expected \"(;\" to start a game, found 'x'"
    );
    assert_eq!(
        error_of("(;GM[Othello]"),
        "line 1, column 14: expected \";)\" to end the game, found the end of the file"
    );
    assert_eq!(
        error_of("(;GM[Othello"),
        "line 1, column 3: property GM is not closed by \"]\""
    );
    assert_eq!(
        error_of("(;GM[Othello]\n PB x;)"),
        "line 2, column 5: expected \"[\" after property PB, found 'x'"
    );
    assert_eq!(
        error_of("(;GM[Othello]\n  B[f5]B[d6];)"),
        "line 2, column 8: B[d6]: expected a move by White"
    );
    assert_eq!(
        error_of("(;GM[Othello]B[a1];)"),
        "line 1, column 14: B[a1]: move 1: a1 is not legal: it encloses no line"
    );
    assert_eq!(
        error_of("(;GM[Othello]B[z9];)"),
        "line 1, column 14: B[z9]: \"z9\" is not a square or PA"
    );
    assert_eq!(
        error_of("(;GM[Othello]B[pa];)"),
        "line 1, column 14: B[pa]: move 1: Black cannot pass: a legal move exists"
    );
    assert_eq!(
        error_of("(;GM[Chess];)"),
        "line 1, column 3: GM[Chess] is not an Othello game"
    );
    assert_eq!(
        error_of("(;TY[10];)"),
        "line 1, column 3: TY[10]: expected a board size 8 or 6, e.g. TY[8]"
    );
    assert_eq!(
        error_of("(;BO[8 ---];)"),
        "line 1, column 3: BO: expected 64 squares and the side to move, found 3 characters"
    );
    assert_eq!(
        error_of("(;BO[7 ---];)"),
        "line 1, column 3: BO: expected the board size 8 or 6, found \"7\""
    );
    assert!(error_of("(;TY[6]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *];)").contains("TY says 6x6"));
    assert_eq!(
        error_of("(;GM[Othello];) junk"),
        "line 1, column 17: expected \"(;\" to start a game, found 'j'"
    );
    assert_eq!(
        error_of("(;GM[Othello] 5;)"),
        "line 1, column 15: expected a property such as B[f5] or \";)\" to end the game, found '5'"
    );
}

#[test]
fn dates_are_written_like_the_servers() {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_957_491);
    assert_eq!(utc_date(t), "2026.11.29_13:04:51.UTC");
    assert_eq!(utc_date(std::time::UNIX_EPOCH), "1970.01.01_00:00:00.UTC");
}

#[test]
fn an_undone_game_keeps_its_cursor_and_its_redo_tail() {
    let mut game = random_game(
        Rules::standard(BoardSize::Eight),
        Position::initial(BoardSize::Eight),
        11,
        20,
    );
    // At the end: no cursor tag.
    assert!(!write_ggf(&Record::new(game.clone())).contains("CU["));
    for ply in [0, 7, 19] {
        game.jump(ply);
        let record = Record::new(game.clone());
        let text = write_ggf(&record);
        assert!(text.contains(&format!("CU[{ply}];)")), "{text}");
        let back = &parse_ggf(&text).unwrap()[0];
        assert_eq!(back.game.ply(), ply);
        assert_eq!(back.game.moves(), game.moves());
        assert_eq!(back.game, game);
        assert_eq!(write_ggf(back), text);
    }
    // A cursor past the moves, or not a number, is an error that says where.
    let text = write_ggf(&Record::new(game.clone())).replace("CU[19]", "CU[21]");
    let err = error_of(&text);
    assert!(
        err.contains("CU[21]: the cursor must be a number of moves from 0 to 20"),
        "{err}"
    );
    let err = error_of(&text.replace("CU[21]", "CU[x]"));
    assert!(err.contains("CU[x]"), "{err}");
}

/// A finished game that ends with empty squares (Black wipes White out after
/// c1, d8 on this board), and an unfinished one, for a given variant.
fn games_of(size: BoardSize, anti: bool, scoring: Scoring) -> [Game; 2] {
    let rules = Rules {
        size,
        anti,
        scoring,
    };
    let start = Position::initial(size);
    // Unfinished: a few random moves.
    let unfinished = random_game(rules, start, 5, 6);
    assert!(unfinished.outcome().is_none());
    // Finished: random games until one ends with empties (or the board fills).
    let finished = (1..500u64)
        .map(|seed| random_game(rules, start, seed, 200))
        .find(|g| g.outcome().is_some() && g.position().empties().count() > 0)
        .expect("a random game that ends before the board is full");
    [finished, unfinished]
}

#[test]
fn every_variant_and_scoring_rule_round_trips_finished_or_not() {
    for size in [BoardSize::Eight, BoardSize::Six] {
        for anti in [false, true] {
            for scoring in [Scoring::EmptiesToNobody, Scoring::EmptiesToWinner] {
                for game in games_of(size, anti, scoring) {
                    let rules = game.rules();
                    let record = Record::new(game.clone());
                    assert_eq!(record.result, game.outcome(), "{rules}");
                    let text = write_ggf(&record);
                    let back = &parse_ggf(&text).unwrap()[0];
                    assert_eq!(back.game.rules(), rules, "{text}");
                    assert_eq!(back.game, game, "{text}");
                    assert_eq!(back.result, record.result, "{text}");
                    assert_eq!(back.ended_early, None);
                    assert_eq!(write_ggf(back), text);
                }
            }
        }
    }
}

#[test]
fn the_scoring_rule_is_written_in_a_property_other_readers_skip() {
    let mut rules = Rules::standard(BoardSize::Eight);
    rules.scoring = Scoring::EmptiesToWinner;
    let text = write_ggf(&Record::new(Game::new(rules)));
    assert!(text.contains("TY[8]RU[normal empties-to-winner]"), "{text}");
    rules.anti = true;
    let text = write_ggf(&Record::new(Game::new(rules)));
    assert!(text.contains("TY[8a]RU[anti empties-to-winner]"), "{text}");
    let err = error_of("(;GM[Othello]RU[anti sideways];)");
    assert_eq!(
        err,
        "line 1, column 14: RU[anti sideways]: \"sideways\" is not a rule \
         (normal, anti, empties-to-nobody, empties-to-winner)"
    );
}

/// After `c1` and `d8` on this board, the game ends 4–3 to White with 57 empties.
const EARLY_END: &str = "XO------------------------------------------------------OXX----- X";

#[test]
fn a_record_without_the_rules_property_takes_the_scoring_its_result_implies() {
    let start = parse_board(EARLY_END).unwrap();
    let moves = reversi::notation::parse_transcript("c1d8", &start).unwrap();
    let mut rules = Rules::standard(BoardSize::Eight);
    rules.scoring = Scoring::EmptiesToWinner;
    let game = Game::with_moves(rules, start, &moves).unwrap();
    let text = write_ggf(&Record::new(game.clone()));
    assert!(text.contains("RE[-58]"), "{text}");
    // An older record without RU: RE[-58] is the score with empties to the winner.
    let old = text.replace("RU[normal empties-to-winner]", "");
    let back = &parse_ggf(&old).unwrap()[0];
    assert_eq!(back.game.rules(), rules);
    assert_eq!(back.result.unwrap().to_string(), "White wins 61–3");
    // With RE[-1] (the disc count), the usual 8×8 rule.
    let back = &parse_ggf(&old.replace("RE[-58]", "RE[-1]")).unwrap()[0];
    assert_eq!(back.game.rules(), Rules::standard(BoardSize::Eight));
    assert_eq!(back.result.unwrap().to_string(), "White wins 4–3");
}

#[test]
fn a_result_before_the_end_is_a_forfeit_or_an_agreed_score() {
    let game = random_game(Rules::default(), Position::initial(BoardSize::Eight), 5, 6);
    let mut record = Record::new(game);
    assert_eq!(record.result, None);
    assert!(write_ggf(&record).contains("RE[?]"));
    assert!(!record.is_finished());
    record.result = Some(reversi::notation::ggf::forfeit_outcome(
        record.game.rules(),
        Color::White,
    ));
    for (early, suffix) in [
        (EndedEarly::Forfeit, "f"),
        (EndedEarly::Resigned, "r"),
        (EndedEarly::Time, "t"),
    ] {
        record.ended_early = Some(early);
        let text = write_ggf(&record);
        assert!(text.contains(&format!("RE[-64:{suffix}]")), "{text}");
        let back = &parse_ggf(&text).unwrap()[0];
        assert_eq!(back.result, record.result);
        assert_eq!(back.ended_early, Some(early));
        // A game resigned or lost on time is over, though its board is not.
        assert!(back.is_finished());
        assert_eq!(write_ggf(back), text);
    }
    let text = write_ggf(&record);
    let back = &parse_ggf(&text.replace("RE[-64:t]", "RE[+12.00]")).unwrap()[0];
    assert_eq!(back.result.unwrap().winner, Some(Color::Black));
    assert_eq!(back.result.unwrap().black_margin(), 12);
    assert_eq!(back.ended_early, None);
    assert!(back.is_finished());
}
