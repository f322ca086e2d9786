//! The edge of the UI towards the terminal (crossterm): entering and leaving
//! the full screen, restoring it on every exit (errors, panics, signals),
//! the clipboard through OSC 52, and terminal events mapped to the model's
//! [`Msg`]s and [`KeyPress`]es, so that nothing inside knows crossterm.

use super::app::Msg;
use super::keys::{Key, KeyPress};
use super::worker;
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event,
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{Stdout, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Copies `text` to the clipboard through the terminal: the OSC 52 sequence.
#[must_use]
pub fn osc52(text: &str) -> String {
    const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::from("\x1b]52;c;");
    for chunk in text.as_bytes().chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(B64[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out.push('\x07');
    out
}

/// Puts the terminal back: raw mode off, main screen, mouse released, cursor
/// shown. Safe to call more than once.
pub fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(
        stdout(),
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

/// Watches SIGTERM, SIGHUP, SIGINT and SIGQUIT: the returned flag asks the
/// event loop to end cleanly. If the loop has not ended a second later (when the
/// terminal is gone, crossterm can spin on its closed input and never return to
/// the loop), the terminal is restored and the process exits with 128 + signal.
pub(super) fn watch_signals() -> anyhow::Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let signalled = Arc::new(AtomicBool::new(false));
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
    let flag = Arc::clone(&signalled);
    std::thread::Builder::new()
        .name("reversi-signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                flag.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_secs(1));
                restore_terminal();
                std::process::exit(128 + sig);
            }
        })?;
    Ok(signalled)
}

/// Restores the terminal when dropped (on return, on error, on unwinding).
pub(super) struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

pub(super) fn init_terminal(mouse: bool) -> std::io::Result<Terminal<CrosstermBackend<Stdout>>> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // A panic in the AI worker is caught there and shown in the status
        // line; any other panic ends the program, so restore the terminal first.
        if std::thread::current().name() != Some(worker::THREAD_NAME) {
            restore_terminal();
            hook(info);
        }
    }));
    enable_raw_mode()?;
    // Erased explicitly: after a crash the terminal may still be on the
    // alternate screen, and entering it again keeps what is there.
    execute!(
        stdout(),
        EnterAlternateScreen,
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All),
        crossterm::cursor::MoveTo(0, 0),
        crossterm::cursor::Hide,
        // A paste arrives as one text, never as keys.
        EnableBracketedPaste
    )?;
    if mouse {
        execute!(stdout(), EnableMouseCapture)?;
    }
    Terminal::new(CrosstermBackend::new(stdout()))
}

/// The message for a terminal event: key presses (not releases or repeats of
/// a release), left clicks, resizes and pastes.
#[must_use]
pub fn message_of(event: Event) -> Option<Msg> {
    match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => Some(Msg::Key(key_press(key))),
        Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => Some(Msg::Click {
            x: m.column,
            y: m.row,
        }),
        Event::Resize(width, height) => Some(Msg::Resize { width, height }),
        Event::Paste(text) => Some(Msg::Paste(text)),
        _ => None,
    }
}

/// The model's key press for a terminal key event.
#[must_use]
pub fn key_press(event: KeyEvent) -> KeyPress {
    let key = match event.code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Backspace => Key::Backspace,
        _ => Key::Other,
    };
    let held = |m| event.modifiers.contains(m);
    KeyPress {
        key,
        ctrl: held(KeyModifiers::CONTROL),
        alt: held(KeyModifiers::ALT),
        shift: held(KeyModifiers::SHIFT),
    }
}
