//! What the drawing shows at given cells: colours, glyphs without colour,
//! the banner, and clicks landing on the cell drawn under them.

use super::*;
#[test]
fn a_click_plays_the_square_drawn_under_it() {
    let mut app = two_humans();
    for (w, h) in [(100, 40), (80, 24), (56, 14)] {
        update(
            &mut app,
            Msg::Resize {
                width: w,
                height: h,
            },
        );
        let ScreenLayout::Game { board, .. } = layout(Rect::new(0, 0, w, h), BoardSize::Eight)
        else {
            panic!("fits");
        };
        let legal = game(&app).position().legal_moves().iter().next().unwrap();
        let cell = board.cell(legal);
        // Check the drawing agrees: the cell shows a legal dot.
        let text = render(&app, w, h);
        let row: String = text
            .lines()
            .nth(usize::from(cell.y + cell.height / 2))
            .unwrap()
            .chars()
            .collect();
        let centre: String = row
            .chars()
            .skip(usize::from(cell.x + cell.width / 2))
            .take(1)
            .collect();
        assert_eq!(centre, "·", "{w}x{h}: {row}");
        let before = game(&app).ply();
        update(
            &mut app,
            Msg::Click {
                x: cell.x + cell.width - 1,
                y: cell.y,
            },
        );
        assert_eq!(game(&app).ply(), before + 1);
        assert_eq!(game(&app).last_move(), Some(Move::Place(legal)));
    }
}

#[test]
fn colour_discs_read_on_a_board_of_their_own() {
    use ratatui::style::Color as Tint;
    let app = two_humans();
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| view(&app, f)).unwrap();
    let ScreenLayout::Game { board, .. } = layout(Rect::new(0, 0, 80, 24), BoardSize::Eight) else {
        panic!("fits");
    };
    let buf = terminal.backend().buffer();
    let at = |s: &str| {
        let c = board.cell(sq(s));
        buf[(c.x + c.width / 2, c.y + c.height / 2)].clone()
    };
    let (black, white) = (at("e4"), at("d4"));
    assert_eq!(black.fg, Tint::Rgb(0, 0, 0));
    assert_eq!(white.fg, Tint::Rgb(255, 255, 255));
    assert_eq!(black.bg, white.bg, "both on the board's own green");
    assert_ne!(black.bg, Tint::Reset);
}

#[test]
fn without_colour_the_flip_preview_and_last_move_have_glyphs() {
    let mut app = app_with(
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Eight)),
        NO_COLOUR,
    );
    let ScreenLayout::Game { board, .. } = layout(Rect::new(0, 0, 80, 24), BoardSize::Eight) else {
        panic!("fits");
    };
    let cell_text = |app: &App, s: &str| -> String {
        let text = render(app, 80, 24);
        let c = board.cell(sq(s));
        let row = text.lines().nth(usize::from(c.y + c.height / 2)).unwrap();
        row.chars()
            .skip(usize::from(c.x))
            .take(usize::from(c.width))
            .collect()
    };
    // The cursor on d3 (legal for Black) previews the flip of d4.
    assert_eq!(cell_text(&app, "d3"), "[·]");
    assert_eq!(cell_text(&app, "d4"), " ○~");
    typed(&mut app, "d3");
    assert_eq!(cell_text(&app, "d3"), "[●]", "cursor over the last move");
    press(&mut app, Key::Right);
    assert_eq!(cell_text(&app, "d3"), "(●)");
    assert_eq!(cell_text(&app, "d4"), " ●*");
    // Dots off.
    press(&mut app, Key::Char('L'));
    assert_eq!(cell_text(&app, "c3"), "   ");
    press(&mut app, Key::Char('L'));
    assert_eq!(cell_text(&app, "c3"), " · ");
}

/// The board widget draws a plain game with the marks it is given: the
/// cursor (and the flips of a move there), the hint's scores, the dots.
#[test]
fn the_board_widget_draws_a_game_with_the_marks_it_is_given() {
    use crate::ui::board::{BoardView, draw};
    let game = Game::new(Rules::standard(BoardSize::Eight));
    let ScreenLayout::Game { board: geo, .. } = layout(Rect::new(0, 0, 80, 24), BoardSize::Eight)
    else {
        panic!("fits");
    };
    let hint = [
        MoveEval {
            mv: Move::Place(sq("f5")),
            score: Score::Estimate(300),
            book: false,
        },
        MoveEval {
            mv: Move::Place(sq("c4")),
            score: Score::Estimate(-100),
            book: false,
        },
    ];
    let cell_text = |view: &BoardView<'_>, s: &str| -> String {
        let mut buf = ratatui::buffer::Buffer::empty(Rect::new(0, 0, 80, 24));
        draw(view, &geo, &mut buf);
        let c = geo.cell(sq(s));
        (c.x..c.x + c.width)
            .map(|x| buf[(x, c.y + c.height / 2)].symbol().to_string())
            .collect()
    };
    let view = BoardView {
        game: &game,
        cursor: Some(sq("d3")),
        hint: &hint,
        dots: true,
        look: NO_COLOUR,
        lang: crate::i18n::Lang::En,
    };
    assert_eq!(cell_text(&view, "d3"), "[·]");
    assert_eq!(cell_text(&view, "d4"), " ○~");
    assert_eq!(cell_text(&view, "f5"), "+3 ");
    assert_eq!(cell_text(&view, "c4"), "-1 ");
    let bare = BoardView {
        cursor: None,
        hint: &[],
        dots: false,
        ..view
    };
    assert_eq!(cell_text(&bare, "d3"), "   ");
    assert_eq!(cell_text(&bare, "d4"), " ○ ");
    assert_eq!(cell_text(&bare, "f5"), "   ");
}

#[test]
fn the_banner_names_the_scoring_rule_when_it_counts() {
    // 6x6, Black to move: a1 Black, b1 White; Black takes b1 and White is gone.
    let start = crate::notation::parse_board(&format!("XO{} X", "-".repeat(34))).unwrap();
    let rules = Rules::standard(BoardSize::Six);
    let g = Game::with_moves(rules, start, &[Move::Place(sq("c1"))]).unwrap();
    let app = app_with([Player::Human, Player::Human], g, COLOUR);
    let text = render(&app, 80, 24);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Game over: Black wins 36–0 (empties") && flat.contains("to the winner)"),
        "{text}"
    );
}

#[test]
fn in_anti_reversi_the_banner_says_the_empties_count_against_the_loser() {
    // Black takes b1 from a1 and White is gone: in Anti Reversi White, with
    // no disc, wins, and the empty squares go to the winner's lead.
    for (size, empties) in [(BoardSize::Six, 33), (BoardSize::Eight, 61)] {
        let cells = size.squares() as usize - 2;
        let start = crate::notation::parse_board(&format!("XO{} X", "-".repeat(cells))).unwrap();
        let rules = Rules {
            anti: true,
            scoring: crate::rules::Scoring::EmptiesToWinner,
            ..Rules::standard(size)
        };
        let g = Game::with_moves(rules, start, &[Move::Place(sq("c1"))]).unwrap();
        let app = app_with([Player::Human, Player::Human], g, COLOUR);
        let text = render(&app, 100, 40);
        let result = format!("Game over: White wins 0–{}", 3 + empties);
        assert!(text.contains(&result), "{size}: {text}");
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(text.contains("(empties"), "{size}: {text}");
        assert!(flat.contains("counted against the"), "{size}: {text}");
    }
}

#[test]
fn help_on_a_small_terminal_shows_the_keys_first() {
    let mut app = two_humans();
    press(&mut app, Key::Char('?'));
    let text = render(&app, 56, 14);
    assert!(text.contains("move the cursor"), "{text}");
    assert!(!text.contains("Place a disc"), "rules left out: {text}");
    assert!(render(&app, 80, 24).contains("Place a disc"));
}

#[test]
fn help_on_a_small_terminal_keeps_whole_words_and_says_how_to_close() {
    let (mut app, w, h) = sized(two_humans(), 56, 14);
    press(&mut app, Key::Char('?'));
    let screen = render(&app, w, h);
    assert!(screen.contains("Esc closes"), "{screen}");
    let rows: Vec<(String, String)> = crate::ui::keys::GAME_KEYS
        .iter()
        .map(|b| b.row(crate::i18n::Lang::En))
        .collect();
    let words: std::collections::HashSet<&str> = rows
        .iter()
        .flat_map(|(k, what)| k.split_whitespace().chain(what.split_whitespace()))
        .chain(["Help", "Esc", "closes", "Rules"])
        .collect();
    for token in screen
        .split(|c: char| c.is_whitespace() || "│─╭╮╰╯".contains(c))
        .filter(|t| !t.is_empty())
    {
        assert!(
            words.contains(token),
            "{token:?} is not a whole word of the help:\n{screen}"
        );
    }
}

#[test]
fn keys_are_ignored_while_the_terminal_is_too_small() {
    let (mut app, _, _) = sized(two_humans(), 30, 10);
    assert!(render(&app, 30, 10).contains("Terminal too small"));
    typed(&mut app, "f5");
    press(&mut app, Key::Enter);
    assert_eq!(game(&app).ply(), 0, "nothing played unseen");
    typed(&mut app, "?");
    assert_eq!(app.overlay, None);
    let (mut app, _, _) = sized(app, 100, 40);
    typed(&mut app, "f5");
    assert_eq!(game(&app).ply(), 1);
    // Too small again: q quits at once, keeping the unfinished game.
    let (mut app, _, _) = sized(app, 30, 10);
    let fx = press(&mut app, Key::Char('q'));
    assert!(app.quit);
    assert!(!fx.iter().any(|e| matches!(e, Effect::Autosave(None))));
}

#[test]
fn long_messages_show_a_path_whole_and_its_file_name_on_one_row() {
    let path = "/home/someone/with/a/rather/long/home/folder/.local/share/reversi/games/2026-11-30T20-21-35.ggf";
    let message = format!("Saved to {path}");
    // The game screen's panel.
    let (mut app, w, h) = sized(two_humans(), 100, 40);
    app.status = Some(message.clone());
    let screen = render(&app, w, h);
    assert!(screen.contains("2026-11-30T20-21-35.ggf"), "{screen}");
    // The whole path, in order, over the panel's rows.
    let panel: String = screen
        .lines()
        .filter_map(|l| {
            l.rfind(['│', '┤', '┘'])
                .map(|i| l[i + '│'.len_utf8()..].trim())
        })
        .collect();
    assert!(panel.contains(path), "{panel}\n{screen}");
    // The new-game screen's status lines.
    let mut app = App::new(Choices::default(), COLOUR, 1, Instant::now());
    app.status = Some(format!(
        "The autosaved game could not be read (line 1, column 1: expected \"(;\" to start a game); it was moved to {path}.corrupt-2026-11-30T20-21-35"
    ));
    for (w, h) in [(100, 40), (80, 24)] {
        let screen = render(&app, w, h);
        assert!(screen.contains(".corrupt-2026-11-30T20-21-35"), "{screen}");
        assert!(screen.contains("could not be read"), "{screen}");
    }
}

#[test]
fn paths_are_shortened_in_the_middle_never_at_the_end() {
    use crate::ui::text::shorten_paths;
    let p = "/home/me/.local/share/reversi/games/2026-11-30T20-21-35.ggf";
    assert_eq!(
        shorten_paths(&format!("Saved to {p}"), 80),
        format!("Saved to {p}")
    );
    let short = shorten_paths(p, 40);
    assert!(short.chars().count() <= 40, "{short}");
    assert!(short.ends_with("/games/2026-11-30T20-21-35.ggf"), "{short}");
    assert!(short.starts_with('/') && short.contains('…'), "{short}");
    // A file name longer than the room keeps its end.
    assert_eq!(shorten_paths(p, 20), "…-11-30T20-21-35.ggf");
}

#[test]
fn text_rows_break_between_words_and_after_slashes_only() {
    use crate::ui::text::text_rows;
    let p = "/home/someone/.local/share/reversi/games/2026-11-30T20-21-35.ggf";
    let text = format!("Saved to {p} at last");
    for width in [8, 12, 20, 24, 30, 40, 64, 100] {
        let rows = text_rows(&text, width);
        for r in &rows {
            assert!(r.chars().count() <= width, "{width}: {rows:?}");
        }
        // Read back: the rows joined give the text, the path without spaces.
        let joined: String = rows.concat();
        assert_eq!(
            joined.replace(' ', ""),
            text.replace(' ', ""),
            "{width}: {rows:?}"
        );
        assert!(joined.contains(p), "{width}: {rows:?}");
        // A row boundary inside the path falls after a `/`, unless the name
        // there is wider than a row.
        if width >= "2026-11-30T20-21-35.ggf".len() {
            assert!(
                rows.iter().any(|r| r.contains("2026-11-30T20-21-35.ggf")),
                "{width}: {rows:?}"
            );
        }
    }
    assert_eq!(text_rows("a b c", 3), ["a b", "c"]);
    assert_eq!(text_rows("", 10), [""]);
}

#[test]
fn widths_are_counted_in_terminal_columns() {
    use crate::ui::text::{cols, cut_to, shorten_paths, text_rows};
    let name = "山田太郎さんの名前";
    assert_eq!(cols(name), 18);
    for room in 1..20 {
        let cut = cut_to(name, room);
        assert!(cols(&cut) <= room, "{room}: {cut:?}");
        assert!(cut == name || cut.ends_with('…'), "{room}: {cut:?}");
    }
    let text = format!("{name} /home/山田/ゲーム/対局.ggf");
    for width in 1..30 {
        let rows = text_rows(&text, width);
        for r in &rows {
            assert!(cols(r) <= width.max(2), "{width}: {rows:?}");
        }
        assert_eq!(
            rows.concat().replace(' ', ""),
            text.replace(' ', ""),
            "{width}"
        );
        let short = shorten_paths(&text, width.max(4));
        assert!(short.ends_with(".ggf") || width < 6, "{width}: {short}");
    }
}

/// The panel names the opening as the game goes, in the screen's language,
/// the name of the shown ply in replay, and none in Anti Reversi.
#[test]
fn the_panel_names_the_opening_as_the_game_goes() {
    use crate::i18n::Lang;
    let mut app = two_humans();
    let mut seen = Vec::new();
    for square in ["f5", "d6", "c3", "d3", "c4"] {
        typed(&mut app, square);
        seen.push(render(&app, 100, 40));
    }
    assert!(!seen[0].contains("Opening"), "no name after f5 alone");
    assert!(seen[1].contains("Perpendicular Opening"));
    assert!(seen[4].contains("Tiger"), "{}", seen[4]);
    let mut french = app.clone();
    french.lang = Lang::Fr;
    assert!(render(&french, 100, 40).contains("Tigre"));
    // Back one move: the name follows the cursor.
    typed(&mut app, "u");
    let back = render(&app, 100, 40);
    assert!(
        !back.contains("Tiger") && back.contains("Opening"),
        "{back}"
    );

    let anti = Rules {
        anti: true,
        ..Rules::standard(BoardSize::Eight)
    };
    let moves = fixed_game(BoardSize::Eight, "f5d6c3d3c4");
    let game = Game::with_moves(anti, Position::initial(BoardSize::Eight), &moves).unwrap();
    let app = app_with([Player::Human, Player::Human], game, COLOUR);
    assert!(!render(&app, 100, 40).contains("Tiger"));
}
