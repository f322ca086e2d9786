//! The examples of the rules pages (tests/../shared/seeds), one test each: the
//! opening moves, d3 flipping d4 only, a move closing a row, a column and a
//! diagonal at once, a forced pass, a game ending before the board is full, a
//! wipe-out, draws, the empties-to-winner score, Anti Reversi's winner, the 8
//! symmetries; then `Game` history semantics and `play` errors.

mod common;

use common::{XorShift, random_game, sq, squares};
use reversi::notation::parse_transcript;
use reversi::rules::{
    Bitboard, BoardSize, Color, Game, GameError, IllegalMove, Move, Position, Rules, Scoring,
    Status, Symmetry, perft,
};

/// The moves of a transcript from the initial position (passes made explicit).
fn moves(size: BoardSize, text: &str) -> Vec<Move> {
    parse_transcript(text, &Position::initial(size)).expect("a legal transcript")
}

/// The final position of a transcript from the initial position.
fn after(size: BoardSize, text: &str) -> Position {
    let game = Game::with_moves(
        Rules::standard(size),
        Position::initial(size),
        &moves(size, text),
    )
    .unwrap();
    game.position()
}

fn position(black: &[&str], white: &[&str], to_move: Color) -> Position {
    Position::from_discs(
        Bitboard(squares(black)),
        Bitboard(squares(white)),
        to_move,
        BoardSize::Eight,
    )
    .unwrap()
}

fn rules(size: BoardSize, anti: bool, scoring: Scoring) -> Rules {
    Rules {
        size,
        anti,
        scoring,
    }
}

/// 15 placements and one forced pass; the game ends 2–17 with 45 empty squares.
const SHORT_GAME: &str = "f5d6c5b6c4g5a7d3f4e3f2b4c3d2g1";
/// The shortest wipe-out: after 9 moves White has no disc left.
const WIPE_OUT: &str = "d3c3b3d2e1d6d7e3f4";
/// A full 8×8 board, 32–32.
const FULL_DRAW: &str = "e6d6c6f4c3c7f5g6d7b7g3h2b6f7g4g5h6d3c8b8h4h5f3b3g7f6b2g2a6g8e3b5a3c2e7h3a4c4h8f2a8a7b4a5f1a2a1h7d2b1e2f8h1c5c1g1e1d1d8e8";
/// 8×8, ends 31–31 with two empty squares.
const DRAW_WITH_EMPTIES: &str = "f5f4c3c4g3g4c5e6h4b5c6d3f3d7b3h2e3b2c7b6f2a2c8e7d6d8c2d2f6e2a5b4b1d1a4g6h7h3a6h6f1b8a3a7f8g1f7g5g2h5g7e8c1h8e1g8h1b7";
/// 6×6, ends 17–17 with two empty squares: 18–18 with empties to the winner.
const SIX_DRAW: &str = "d5e5b3b2e4b4c2f4f3c5a1b1c6d1a4f2f5e6b5b6a2d6a5f6c1e3a3d2e1a6";
/// 6×6, ends 13 (Black) – 22 (White) with one empty square.
const SIX_EMPTY: &str = "d5e3c2b1c1d1e4b3f2f3a2e5d2b4f5a4b2e6f4e2c5c6a3a1d6e1b5a6a5b6f6";

#[test]
fn the_opening_moves_are_d3_c4_f5_e6() {
    let p = Position::initial(BoardSize::Eight);
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.disc_at(sq("d4")), Some(Color::White));
    assert_eq!(p.disc_at(sq("e5")), Some(Color::White));
    assert_eq!(p.disc_at(sq("d5")), Some(Color::Black));
    assert_eq!(p.disc_at(sq("e4")), Some(Color::Black));
    assert_eq!(p.legal_moves().0, squares(&["d3", "c4", "f5", "e6"]));
}

#[test]
fn d3_flips_d4_only() {
    let p = Position::initial(BoardSize::Eight);
    assert_eq!(p.flips(sq("d3")).0, squares(&["d4"]));
    let next = p.play(Move::Place(sq("d3"))).unwrap();
    assert_eq!(
        next.discs(Color::Black).0,
        squares(&["d3", "d4", "d5", "e4"])
    );
    assert_eq!(next.discs(Color::White).0, squares(&["e5"]));
    assert_eq!(next.side_to_move(), Color::White);
}

#[test]
fn six_by_six_starts_with_four_crossed_discs() {
    let p = Position::initial(BoardSize::Six);
    assert_eq!(p.discs(Color::White).0, squares(&["c3", "d4"]));
    assert_eq!(p.discs(Color::Black).0, squares(&["d3", "c4"]));
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.legal_moves().0, squares(&["c2", "b3", "e4", "d5"]));
    // At most 32 moves: every 6×6 game fills at most its 32 empty squares.
    let mut rng = XorShift::new(32);
    for _ in 0..200 {
        let (moves, _) = random_game(&mut rng, BoardSize::Six);
        let placed = moves.iter().filter(|m| **m != Move::Pass).count();
        assert!(placed <= 32);
    }
}

#[test]
fn c3_closes_a_row_a_column_and_a_diagonal_at_once() {
    // Row 3: d3 e3 white, f3 black. Column c: c4 c5 white, c6 black.
    // Diagonal: d4 e5 white, f6 black. b2 and b3 are white but not closed.
    let p = position(
        &["f3", "c6", "f6"],
        &["d3", "e3", "c4", "c5", "d4", "e5", "b2", "b3"],
        Color::Black,
    );
    let lines = squares(&["d3", "e3", "c4", "c5", "d4", "e5"]);
    assert_eq!(p.flips(sq("c3")).0, lines);
    let next = p.play(Move::Place(sq("c3"))).unwrap();
    assert_eq!(
        next.discs(Color::Black).0,
        lines | squares(&["c3", "f3", "c6", "f6"])
    );
    assert_eq!(next.discs(Color::White).0, squares(&["b2", "b3"]));
}

#[test]
fn a_line_not_closed_by_an_own_disc_flips_nothing() {
    // Empty, white, white, then empty: no bracket.
    let p = position(&["h8"], &["b1", "c1", "g8"], Color::Black);
    assert!(p.flips(sq("a1")).is_empty());
    assert_eq!(
        p.play(Move::Place(sq("a1"))),
        Err(IllegalMove::EnclosesNothing(sq("a1")))
    );
    // Close it with a black disc and both whites flip.
    let p = position(&["d1"], &["b1", "c1"], Color::Black);
    assert_eq!(p.flips(sq("a1")).0, squares(&["b1", "c1"]));
}

#[test]
fn a_player_without_a_move_must_pass() {
    // Black's only disc c1 is beyond White's a1 b1 at the edge: no black move.
    let p = position(&["c1"], &["a1", "b1"], Color::Black);
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.status(), Status::MustPass(Color::Black));
    assert_eq!(p.moves_list(), vec![Move::Pass]);
    let mut game = Game::from_position(Rules::default(), p).unwrap();
    assert!(game.pass_if_forced());
    assert_eq!(game.moves(), &[Move::Pass]);
    assert_eq!(game.status(), Status::ToMove(Color::White));
    assert_eq!(game.position().legal_moves().0, squares(&["d1"]));
    // White has a move, so White may not pass, and pass_if_forced does nothing.
    assert_eq!(
        game.play(Move::Pass),
        Err(IllegalMove::PassNotAllowed(Color::White))
    );
    assert!(!game.pass_if_forced());
    assert_eq!(game.len(), 1);
}

#[test]
fn a_real_game_with_a_forced_pass_ends_with_empty_squares() {
    let moves = moves(BoardSize::Eight, SHORT_GAME);
    assert_eq!(moves.iter().filter(|m| **m == Move::Pass).count(), 1);
    let mut game = Game::new(Rules::default());
    for mv in moves.iter().filter(|m| **m != Move::Pass) {
        if game.pass_if_forced() {
            assert_eq!(game.last_move(), Some(Move::Pass));
        } else {
            assert_eq!(
                game.position().play(Move::Pass),
                Err(IllegalMove::PassNotAllowed(game.side_to_move()))
            );
        }
        game.play(*mv).unwrap();
    }
    assert_eq!(game.moves(), moves.as_slice());
    let p = game.position();
    assert_eq!(p.status(), Status::GameOver);
    assert_eq!((p.count(Color::Black), p.count(Color::White)), (2, 17));
    assert_eq!(p.empties().count(), 45);
    assert_eq!(p.moves_list(), Vec::<Move>::new());
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.to_string(), "White wins 17–2");
}

#[test]
fn empties_go_to_the_winner_under_the_competition_rule() {
    let p = after(BoardSize::Eight, SHORT_GAME);
    let r = rules(BoardSize::Eight, false, Scoring::EmptiesToWinner);
    let o = r.outcome(&p).unwrap();
    assert_eq!((o.winner, o.black, o.white), (Some(Color::White), 2, 62));
    assert_eq!(o.to_string(), "White wins 62–2");
    // The margin the search maximises, for Black to move... or White.
    let margin = r.final_margin(&p);
    let expected = if p.side_to_move() == Color::White {
        60
    } else {
        -60
    };
    assert_eq!(margin, expected);
    // Without the rule the empties count for nobody: same winner.
    let o = Rules::default().outcome(&p).unwrap();
    assert_eq!((o.winner, o.black, o.white), (Some(Color::White), 2, 17));
}

#[test]
fn a_wipe_out_ends_the_game_at_once() {
    let p = after(BoardSize::Eight, WIPE_OUT);
    assert_eq!(p.count(Color::White), 0);
    assert_eq!(p.count(Color::Black), 13);
    assert_eq!(p.status(), Status::GameOver);
    let o = Rules::default().outcome(&p).unwrap();
    assert_eq!(o.to_string(), "Black wins 13–0");
    let o = rules(BoardSize::Eight, false, Scoring::EmptiesToWinner)
        .outcome(&p)
        .unwrap();
    assert_eq!(o.to_string(), "Black wins 64–0");
    // In Anti Reversi the side left without a disc wins.
    let o = rules(BoardSize::Eight, true, Scoring::EmptiesToNobody)
        .outcome(&p)
        .unwrap();
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(o.to_string(), "White wins 0–13");
}

#[test]
fn equal_counts_are_a_draw() {
    let p = after(BoardSize::Eight, FULL_DRAW);
    assert!(p.empties().is_empty());
    let o = Rules::default().outcome(&p).unwrap();
    assert_eq!((o.winner, o.black, o.white), (None, 32, 32));
    assert_eq!(o.to_string(), "Draw 32–32");

    let p = after(BoardSize::Eight, DRAW_WITH_EMPTIES);
    assert_eq!(p.empties().count(), 2);
    let o = Rules::default().outcome(&p).unwrap();
    assert_eq!(o.to_string(), "Draw 31–31");
    let o = rules(BoardSize::Eight, false, Scoring::EmptiesToWinner)
        .outcome(&p)
        .unwrap();
    assert_eq!(o.to_string(), "Draw 32–32");
    // A draw is a draw in Anti Reversi too.
    let o = rules(BoardSize::Eight, true, Scoring::EmptiesToNobody)
        .outcome(&p)
        .unwrap();
    assert_eq!(o.winner, None);
}

#[test]
fn a_six_by_six_draw_counts_18_18() {
    let p = after(BoardSize::Six, SIX_DRAW);
    assert_eq!((p.count(Color::Black), p.count(Color::White)), (17, 17));
    let six = Rules::standard(BoardSize::Six);
    assert_eq!(six.scoring, Scoring::EmptiesToWinner);
    let o = six.outcome(&p).unwrap();
    assert_eq!((o.winner, o.black, o.white), (None, 18, 18));
    assert_eq!(o.to_string(), "Draw 18–18");
    assert_eq!(six.final_margin(&p), 0);
}

#[test]
fn in_anti_reversi_the_side_with_fewer_discs_wins() {
    let p = after(BoardSize::Eight, SHORT_GAME);
    let anti = rules(BoardSize::Eight, true, Scoring::EmptiesToNobody);
    let o = anti.outcome(&p).unwrap();
    assert_eq!((o.winner, o.black, o.white), (Some(Color::Black), 2, 17));
    assert_eq!(o.to_string(), "Black wins 2–17");

    // 6×6 Anti with its default scoring: the empty square widens the winner's
    // margin (it is counted with the loser's discs), as in `final_margin`.
    let p = after(BoardSize::Six, SIX_EMPTY);
    assert_eq!((p.count(Color::Black), p.count(Color::White)), (13, 22));
    let anti = Rules {
        anti: true,
        ..Rules::standard(BoardSize::Six)
    };
    let o = anti.outcome(&p).unwrap();
    assert_eq!((o.winner, o.black, o.white), (Some(Color::Black), 13, 23));
    assert_eq!(o.to_string(), "Black wins 13–23");
    let black_margin = if p.side_to_move() == Color::Black {
        anti.final_margin(&p)
    } else {
        -anti.final_margin(&p)
    };
    assert_eq!(black_margin, 10);
    // The normal 6×6 result of the same game.
    let o = Rules::standard(BoardSize::Six).outcome(&p).unwrap();
    assert_eq!(o.to_string(), "White wins 23–13");
}

#[test]
fn the_eight_symmetries_give_the_same_counts() {
    let all = Symmetry::ALL;
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a, b);
        }
    }
    let mut rng = XorShift::new(8);
    for size in [BoardSize::Eight, BoardSize::Six] {
        for _ in 0..4 {
            let (_, positions) = random_game(&mut rng, size);
            let p = positions[positions.len().min(7) - 1];
            let depth = if size == BoardSize::Eight { 5 } else { 6 };
            let counts = perft(&p, depth);
            for s in all {
                let q = s.position(&p);
                assert_eq!(perft(&q, depth), counts, "{s:?} of {p:?}");
                assert_eq!(q.count(Color::Black), p.count(Color::Black));
                let mapped: u64 = p
                    .legal_moves()
                    .iter()
                    .map(|m| s.square(m, size).bit())
                    .fold(0, |a, b| a | b);
                assert_eq!(q.legal_moves().0, mapped, "{s:?} of {p:?}");
            }
        }
        // Every position of a random game has as many moves in all 8 images.
        let (_, positions) = random_game(&mut rng, size);
        for p in positions {
            for s in all {
                let q = s.position(&p);
                assert_eq!(q.legal_moves().count(), p.legal_moves().count());
                assert_eq!(q.status(), p.status());
            }
        }
    }
    // The start position: its perft counts under every symmetry.
    let start = Position::initial(BoardSize::Eight);
    for s in all {
        assert_eq!(perft(&s.position(&start), 6), 8200, "{s:?}");
    }
}

#[test]
fn undo_redo_and_jump_move_one_cursor() {
    let f5d6c3 = moves(BoardSize::Eight, "f5d6c3");
    let mut game = Game::new(Rules::default());
    assert!(!game.can_undo() && !game.undo());
    for &mv in &f5d6c3 {
        game.play(mv).unwrap();
    }
    let end = game.position();
    assert_eq!((game.ply(), game.len()), (3, 3));
    assert_eq!(game.last_move(), Some(f5d6c3[2]));
    assert_eq!(
        game.last_flips().0,
        game.position_at(2).unwrap().flips(sq("c3")).0
    );
    assert!(!game.can_redo() && !game.redo());

    assert!(game.undo());
    assert_eq!(game.ply(), 2);
    assert_eq!(game.position(), game.position_at(2).unwrap());
    assert_eq!(game.played(), &f5d6c3[..2]);
    assert_eq!(game.moves(), f5d6c3.as_slice());
    assert_eq!(game.side_to_move(), Color::Black);
    assert!(game.redo());
    assert_eq!(game.position(), end);

    assert_eq!(game.jump(0), 0);
    assert_eq!(game.position(), Position::initial(BoardSize::Eight));
    assert_eq!(game.last_move(), None);
    assert!(game.last_flips().is_empty());
    assert_eq!(game.jump(99), 3);
    assert_eq!(game.position(), end);

    // Replaying the very move that was undone keeps the redo tail.
    game.jump(1);
    game.play(f5d6c3[1]).unwrap();
    assert_eq!((game.ply(), game.len()), (2, 3));
    assert!(game.can_redo());

    // A different move drops it.
    game.jump(1);
    game.play(Move::Place(sq("f6"))).unwrap();
    assert_eq!((game.ply(), game.len()), (2, 2));
    assert!(!game.can_redo());
    assert_eq!(game.moves(), &[f5d6c3[0], Move::Place(sq("f6"))]);
    assert_eq!(game.start(), Position::initial(BoardSize::Eight));

    // Truncate drops the tail explicitly.
    game.undo();
    game.truncate();
    assert_eq!((game.ply(), game.len()), (1, 1));
    assert!(!game.is_empty());
}

/// A take-back by a side goes back to before its last disc, the opponent's
/// moves and passes since going with it.
#[test]
fn a_take_back_goes_to_before_the_sides_last_disc_through_a_pass() {
    let all = moves(BoardSize::Eight, SHORT_GAME);
    let pass = all.iter().position(|m| *m == Move::Pass).unwrap();
    let start = Position::initial(BoardSize::Eight);
    let game = |n: usize| Game::with_moves(Rules::default(), start, &all[..n]).unwrap();
    let passer = game(pass).side_to_move();
    let other = passer.opponent();
    // Just after the pass: each side's last disc.
    let g = game(pass + 1);
    assert_eq!(g.take_back_to(passer), Some(pass - 2));
    assert_eq!(g.take_back_to(other), Some(pass - 1));
    // The other side played again: the passer's take-back crosses the pass.
    let g = game(pass + 2);
    assert_eq!(g.take_back_to(passer), Some(pass - 2));
    assert_eq!(g.take_back_to(other), Some(pass + 1));
    // Black's first disc is the first move; White has none yet.
    let g = game(1);
    assert_eq!(g.take_back_to(Color::Black), Some(0));
    assert_eq!(g.take_back_to(Color::White), None);
}

#[test]
fn play_errors_say_why_and_change_nothing() {
    let mut game = Game::with_moves(
        Rules::default(),
        Position::initial(BoardSize::Eight),
        &moves(BoardSize::Eight, "f5"),
    )
    .unwrap();
    let before = game.clone();
    let cases = [
        (
            Move::Place(sq("e4")),
            IllegalMove::Occupied(sq("e4")),
            "e4 is not legal: the square is occupied",
        ),
        (
            Move::Place(sq("a1")),
            IllegalMove::EnclosesNothing(sq("a1")),
            "a1 is not legal: it encloses no line",
        ),
        (
            Move::Pass,
            IllegalMove::PassNotAllowed(Color::White),
            "White cannot pass: a legal move exists",
        ),
    ];
    for (mv, error, message) in cases {
        assert_eq!(game.play(mv), Err(error));
        assert_eq!(error.to_string(), message);
        assert_eq!(game, before);
        assert_eq!(game.position().play(mv), Err(error));
        assert!(!game.position().is_legal(mv));
    }

    // Off the 6×6 board.
    let mut six = Game::new(Rules::standard(BoardSize::Six));
    let before = six.clone();
    let g1 = sq("g1");
    assert_eq!(
        six.play(Move::Place(g1)),
        Err(IllegalMove::OffBoard(g1, BoardSize::Six))
    );
    assert_eq!(
        IllegalMove::OffBoard(g1, BoardSize::Six).to_string(),
        "g1 is not on the 6x6 board"
    );
    assert_eq!(six, before);
    assert!(six.position().flips(sq("a7")).is_empty());

    // After the end of the game nothing is legal, not even a pass.
    let mut over = Game::with_moves(
        Rules::default(),
        Position::initial(BoardSize::Eight),
        &moves(BoardSize::Eight, WIPE_OUT),
    )
    .unwrap();
    let before = over.clone();
    for mv in [Move::Pass, Move::Place(sq("a1"))] {
        assert_eq!(over.play(mv), Err(IllegalMove::GameOver));
        assert_eq!(over, before);
    }
    assert_eq!(IllegalMove::GameOver.to_string(), "the game is over");
    assert!(!over.pass_if_forced());

    // A list of moves names the first illegal one.
    let err = Game::with_moves(
        Rules::default(),
        Position::initial(BoardSize::Eight),
        &[Move::Place(sq("f5")), Move::Place(sq("f5"))],
    )
    .unwrap_err();
    assert_eq!(
        err,
        GameError::Illegal {
            index: 2,
            error: IllegalMove::Occupied(sq("f5"))
        }
    );
    assert_eq!(
        err.to_string(),
        "move 2: f5 is not legal: the square is occupied"
    );
    let err = Game::from_position(Rules::default(), Position::initial(BoardSize::Six)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the start position is 6x6, the rules are for 8x8"
    );
}

#[test]
fn a_position_rejects_overlapping_or_off_board_discs() {
    let d4 = Bitboard(sq("d4").bit());
    let err = Position::from_discs(d4, d4, Color::Black, BoardSize::Eight).unwrap_err();
    assert_eq!(err.to_string(), "d4 holds both a black and a white disc");
    let h8 = Bitboard(sq("h8").bit());
    let err = Position::from_discs(h8, Bitboard::EMPTY, Color::Black, BoardSize::Six).unwrap_err();
    assert_eq!(err.to_string(), "h8 is outside the 6x6 board");
}
