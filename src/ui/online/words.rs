//! Every sentence and label the online screen shows, from the message
//! catalogues (`online-…` ids in `src/i18n/*.ftl`). Text from other players
//! is passed in already cleaned and is never part of a message id.

use crate::ai::Level;
use crate::i18n::{Lang, tr};
use crate::net::protocol::{
    ClockSpec, ColourChoice, EndReason, ErrorCode, GameResult, Opponent, ScoringRule, Seat, Side,
    TableId, TableStatus, Variant,
};
use crate::tr;
use std::time::Duration;

/// "Black" or "White".
#[must_use]
pub fn side(lang: Lang, side: Side) -> String {
    match side {
        Side::Black => tr(lang, "online-black"),
        Side::White => tr(lang, "online-white"),
    }
}

/// A variant's name.
#[must_use]
pub fn variant(lang: Lang, v: Variant) -> String {
    match v {
        Variant::Eight => tr(lang, "online-variant-8x8"),
        Variant::Six => tr(lang, "online-variant-6x6"),
        Variant::Anti => tr(lang, "online-variant-anti"),
    }
}

/// A scoring rule's name.
#[must_use]
pub fn scoring(lang: Lang, s: ScoringRule) -> String {
    match s {
        ScoringRule::EmptiesToNobody => tr(lang, "online-scoring-nobody"),
        ScoringRule::EmptiesToWinner => tr(lang, "online-scoring-winner"),
    }
}

/// A colour choice.
#[must_use]
pub fn colour(lang: Lang, c: ColourChoice) -> String {
    match c {
        ColourChoice::Random => tr(lang, "online-colour-random"),
        ColourChoice::Black => tr(lang, "online-black"),
        ColourChoice::White => tr(lang, "online-white"),
    }
}

/// A clock: `5+3` (minutes, and seconds of increment), or "no clock".
#[must_use]
pub fn clock(lang: Lang, c: Option<ClockSpec>) -> String {
    match c {
        None => tr(lang, "online-no-clock"),
        Some(c) => {
            let base = c.base_ms / 1000;
            let base = if base % 60 == 0 {
                format!("{}", base / 60)
            } else {
                format!("{base}s")
            };
            format!("{base}+{}", c.increment_ms / 1000)
        }
    }
}

/// A table's status.
#[must_use]
pub fn status(lang: Lang, s: TableStatus) -> String {
    match s {
        TableStatus::Waiting => tr(lang, "online-status-waiting"),
        TableStatus::Playing => tr(lang, "online-status-playing"),
        TableStatus::Finished => tr(lang, "online-status-finished"),
    }
}

/// Who may sit at a table.
#[must_use]
pub fn opponent(lang: Lang, o: &Opponent) -> String {
    match o {
        Opponent::Open => tr(lang, "online-anyone"),
        Opponent::Invite { name } => tr!(lang, "online-only", name = name.as_str()),
        Opponent::Ai { level } => tr!(lang, "online-server-ai-short", level = level.number()),
    }
}

/// A seat's label.
#[must_use]
pub fn seat(s: &Seat) -> String {
    super::model::shown_name(&s.label())
}

/// A clock's face: `4:59`, `0:07.3` under ten seconds.
#[must_use]
pub fn time_left(d: Duration) -> String {
    let ms = d.as_millis();
    let secs = ms / 1000;
    if secs < 10 {
        format!("0:0{secs}.{}", (ms % 1000) / 100)
    } else if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// The result line: "ann (Black) wins 40–24", "… wins on time", "Draw 32–32".
#[must_use]
pub fn result(lang: Lang, r: &GameResult, names: [&str; 2]) -> String {
    let who = |s: Side| {
        let n = names[s.index()];
        if n.is_empty() {
            side(lang, s)
        } else {
            format!("{n} ({})", side(lang, s))
        }
    };
    let (b, w) = (r.black, r.white);
    match (r.winner, r.reason) {
        (None, EndReason::Abandoned) => tr(lang, "online-draw-abandoned"),
        (None, _) => tr!(lang, "online-draw", black = b, white = w),
        (Some(s), EndReason::Finished) => {
            tr!(lang, "online-wins", who = who(s), black = b, white = w)
        }
        (Some(s), EndReason::Resigned) => {
            tr!(
                lang,
                "online-wins-resigned",
                who = who(s),
                loser = who(s.opponent())
            )
        }
        (Some(s), EndReason::Time) => tr!(lang, "online-wins-on-time", who = who(s)),
        (Some(s), EndReason::Abandoned) => {
            tr!(
                lang,
                "online-wins-abandoned",
                who = who(s),
                loser = who(s.opponent())
            )
        }
    }
}

/// The take-back question.
#[must_use]
pub fn undo_asked(lang: Lang, by: &str, moves: usize) -> String {
    tr!(lang, "online-undo-asked", name = by, n = moves)
}

/// The connection line while connecting.
#[must_use]
pub fn connecting(lang: Lang) -> String {
    tr(lang, "online-connecting")
}

/// The connection line when connected.
#[must_use]
pub fn connected(lang: Lang) -> String {
    tr(lang, "online-connected")
}

/// The connection line before connecting.
#[must_use]
pub fn offline(lang: Lang) -> String {
    tr(lang, "online-offline")
}

/// The connection line while reconnecting: after `attempt` failed
/// attempts, the next one `next_in` from now (once known).
#[must_use]
pub fn reconnecting(lang: Lang, attempt: u32, next_in: Option<Duration>) -> String {
    match next_in {
        _ if attempt == 0 => tr(lang, "online-reconnecting"),
        Some(d) if d >= Duration::from_secs(1) => tr!(
            lang,
            "online-reconnecting-next",
            n = attempt + 1,
            secs = d.as_secs().saturating_add(u64::from(d.subsec_nanos() > 0))
        ),
        _ => tr!(lang, "online-reconnecting-attempt", n = attempt + 1),
    }
}

/// The server could not be reached.
#[must_use]
pub fn unreachable(lang: Lang, url: &str, reason: &str) -> String {
    tr!(lang, "online-unreachable", url = url, reason = reason)
}

/// Why the network failed, in the screen's language when it is one of the
/// usual reasons (the library's own sentence otherwise).
#[must_use]
pub fn why(lang: Lang, reason: &str) -> String {
    let r = reason.to_ascii_lowercase();
    if r.contains("connection refused") {
        tr(lang, "online-why-refused")
    } else if r.contains("no answer") || r.contains("timed out") {
        tr(lang, "online-why-no-answer")
    } else if r.contains("failed to lookup")
        || r.contains("name or service not known")
        || r.contains("no address")
    {
        tr(lang, "online-why-unknown-host")
    } else if r.contains("unknownissuer") || r.contains("unknown issuer") {
        tr(lang, "online-why-untrusted")
    } else if r.contains("notvalidforname") || r.contains("not valid for name") {
        tr(lang, "online-why-wrong-name")
    } else if r.contains("certificate expired") {
        tr(lang, "online-why-expired")
    } else if r.contains("tls:")
        && (r.contains("corrupt message") || r.contains("invalidcontenttype"))
    {
        tr(lang, "online-why-not-tls")
    } else if r.contains("reset") || r.contains("closed") || r.contains("broken pipe") {
        tr(lang, "online-why-closed")
    } else {
        reason.to_string()
    }
}

/// A refusal by the server, in the screen's language (from its code: the
/// server's own sentence is English).
#[must_use]
pub fn refusal(lang: Lang, code: ErrorCode) -> String {
    match code {
        ErrorCode::BadRequest => tr(lang, "online-no-bad-request"),
        ErrorCode::BadTable => tr(lang, "online-no-bad-table"),
        ErrorCode::Limit => tr(lang, "online-no-limit"),
        ErrorCode::Version => tr(lang, "online-no-version"),
        ErrorCode::BadName => tr(lang, "online-no-bad-name"),
        ErrorCode::NameTaken => tr(lang, "online-no-name-taken"),
        ErrorCode::BadToken => tr(lang, "online-no-bad-token"),
        ErrorCode::NoSuchTable => tr(lang, "online-no-such-table"),
        ErrorCode::TableFull => tr(lang, "online-no-table-full"),
        ErrorCode::NotInvited => tr(lang, "online-no-not-invited"),
        ErrorCode::NotSeated => tr(lang, "online-no-not-seated"),
        ErrorCode::NotPlaying => tr(lang, "online-no-not-playing"),
        ErrorCode::NotYourTurn => tr(lang, "online-no-not-your-turn"),
        ErrorCode::IllegalMove => tr(lang, "online-no-illegal"),
        ErrorCode::Undo => tr(lang, "online-no-undo"),
        ErrorCode::AiBusy => tr(lang, "online-no-ai-busy"),
        ErrorCode::InGame => tr(lang, "online-no-in-game"),
        ErrorCode::Claim => tr(lang, "online-no-claim"),
    }
}

/// A table that is not there: one that never existed, or one that is
/// closed (`closed`).
#[must_use]
pub fn no_such_table(lang: Lang, table: Option<TableId>, closed: bool) -> String {
    match table {
        Some(table) if !closed => tr!(lang, "online-no-table-never", table = table),
        _ => tr(lang, "online-no-such-table"),
    }
}

/// A player's connection is gone, as the panel says it: `claim_in` is the
/// wait before we may claim the game (zero: now), `None` when we cannot
/// (a spectator, or a table with a clock).
#[must_use]
pub fn away(lang: Lang, name: &str, claim_in: Option<Duration>) -> String {
    match claim_in {
        None => tr!(lang, "online-away", name = name),
        Some(d) if d.is_zero() => tr!(lang, "online-away-claim", name = name),
        Some(d) => tr!(lang, "online-away-claim-in", name = name, time = wait(d)),
    }
}

/// A wait in whole seconds, rounded up: `0:42`, `1:00`.
fn wait(d: Duration) -> String {
    let secs = d.as_millis().div_ceil(1000);
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// A player's connection just went.
#[must_use]
pub fn went_away(lang: Lang, name: &str) -> String {
    tr!(lang, "online-went-away", name = name)
}

/// A player is connected again.
#[must_use]
pub fn came_back(lang: Lang, name: &str) -> String {
    tr!(lang, "online-came-back", name = name)
}

/// A take-back request ended by a disconnection.
#[must_use]
pub fn undo_cancelled(lang: Lang, name: &str) -> String {
    tr!(lang, "online-undo-cancelled", name = name)
}

/// A key other than y/n while the take-back question is asked.
#[must_use]
pub fn answer_undo_first(lang: Lang) -> String {
    tr(lang, "online-undo-answer-first")
}

/// The claim window: title, what happened, the choices.
#[must_use]
pub fn claim(lang: Lang, name: &str) -> [String; 3] {
    [
        tr(lang, "online-claim-title"),
        tr!(lang, "online-claim-question", name = name),
        tr(lang, "online-claim-choices"),
    ]
}

/// Claiming before the grace period is over.
#[must_use]
pub fn claim_wait(lang: Lang, left: Duration) -> String {
    tr!(lang, "online-claim-wait", time = wait(left))
}

/// Claiming at a table with a clock.
#[must_use]
pub fn claim_clock(lang: Lang, name: &str) -> String {
    tr!(lang, "online-claim-clock", name = name)
}

/// Claiming with the opponent connected.
#[must_use]
pub fn claim_nothing(lang: Lang) -> String {
    tr(lang, "online-claim-nothing")
}

/// The server refused the name.
#[must_use]
pub fn refused(lang: Lang, message: &str) -> String {
    tr!(lang, "online-refused", message = message)
}

/// Another connection took the session over (the window over the screen).
#[must_use]
pub fn replaced(lang: Lang) -> String {
    tr(lang, "online-replaced")
}

/// The name is in use, and this client holds its session's token.
#[must_use]
pub fn taken(lang: Lang, name: &str) -> String {
    tr!(lang, "online-taken", name = name)
}

/// Keys offered when the session may be taken back.
#[must_use]
pub fn take_back_keys(lang: Lang) -> String {
    tr(lang, "online-take-back-keys")
}

/// Keys offered when the server cannot be reached.
#[must_use]
pub fn unreachable_keys(lang: Lang) -> String {
    tr(lang, "online-unreachable-keys")
}

/// The connection dropped.
#[must_use]
pub fn lost(lang: Lang, reason: &str) -> String {
    tr!(lang, "online-lost", reason = reason)
}

/// Back after a drop.
#[must_use]
pub fn reconnected(lang: Lang) -> String {
    tr(lang, "online-reconnected")
}

/// A request needs the connection.
#[must_use]
pub fn need_connection(lang: Lang) -> String {
    tr(lang, "online-need-connection")
}

/// The move is not ours to play.
#[must_use]
pub fn not_your_turn(lang: Lang) -> String {
    tr(lang, "online-not-your-turn")
}

/// Spectators cannot move.
#[must_use]
pub fn watching_only(lang: Lang) -> String {
    tr(lang, "online-watching-only")
}

/// The typed square is not legal.
#[must_use]
pub fn illegal(lang: Lang, square: &str) -> String {
    tr!(lang, "online-illegal", square = square)
}

/// A move was sent.
#[must_use]
pub fn sent(lang: Lang, square: &str) -> String {
    tr!(lang, "online-sent", square = square)
}

/// A take-back was asked.
#[must_use]
pub fn undo_sent(lang: Lang) -> String {
    tr(lang, "online-undo-sent")
}

/// Nothing to take back.
#[must_use]
pub fn nothing_to_undo(lang: Lang) -> String {
    tr(lang, "online-nothing-to-undo")
}

/// Our request was declined.
#[must_use]
pub fn undo_declined(lang: Lang) -> String {
    tr(lang, "online-undo-declined")
}

/// Moves were taken back.
#[must_use]
pub fn undone(lang: Lang) -> String {
    tr(lang, "online-undone")
}

/// We accepted a take-back.
#[must_use]
pub fn undo_accepted(lang: Lang) -> String {
    tr(lang, "online-undo-accepted")
}

/// We declined a take-back.
#[must_use]
pub fn undo_refused(lang: Lang) -> String {
    tr(lang, "online-undo-refused")
}

/// Waiting for an opponent.
#[must_use]
pub fn waiting(lang: Lang) -> String {
    tr(lang, "online-waiting")
}

/// Waiting for an opponent at a table whose colours are drawn at the start.
#[must_use]
pub fn waiting_for_draw(lang: Lang) -> String {
    tr(lang, "online-waiting-draw")
}

/// The table is gone.
#[must_use]
pub fn table_gone(lang: Lang) -> String {
    tr(lang, "online-table-gone")
}

/// The server refused a request.
#[must_use]
pub fn server_error(lang: Lang, message: &str) -> String {
    tr!(lang, "online-server-error", message = message)
}

/// Enter with no table.
#[must_use]
pub fn no_table(lang: Lang) -> String {
    tr(lang, "online-no-table")
}

/// The finished game was kept.
#[must_use]
pub fn kept(lang: Lang, path: &str) -> String {
    tr!(lang, "online-kept", path = path)
}

/// The finished game could not be kept.
#[must_use]
pub fn not_kept(lang: Lang, path: &str, error: &str) -> String {
    tr!(lang, "online-not-kept", path = path, error = error)
}

/// The server and name could not be remembered.
#[must_use]
pub fn not_remembered(lang: Lang, error: &str) -> String {
    tr!(lang, "online-not-remembered", error = error)
}

/// The network thread could not start.
#[must_use]
pub fn no_thread(lang: Lang, error: &str) -> String {
    tr!(lang, "online-no-thread", error = error)
}

/// A bad name in the connect form.
#[must_use]
pub fn bad_name(lang: Lang, e: &str) -> String {
    tr!(lang, "online-bad-name", error = e)
}

/// Why a name is refused, in the screen's language.
#[must_use]
pub fn name_problem(lang: Lang, e: &crate::net::text::NameError) -> String {
    use crate::net::text::{MAX_NAME_CHARS, NameError};
    match e {
        NameError::Empty => tr(lang, "online-name-empty"),
        NameError::TooLong => tr!(lang, "online-name-too-long", max = MAX_NAME_CHARS),
        NameError::BadChar(c) => tr!(lang, "online-name-bad-char", char = format!("{c:?}")),
        NameError::Reserved => tr(lang, "online-name-reserved"),
        NameError::Restricted(c) => tr!(lang, "online-name-restricted", char = format!("{c:?}")),
        NameError::MixedScripts(c) => {
            tr!(lang, "online-name-mixed-scripts", char = format!("{c:?}"))
        }
    }
}

/// A bad address in the connect form.
#[must_use]
pub fn bad_url(lang: Lang) -> String {
    tr(lang, "online-bad-url")
}

/// The resign window: title and question.
#[must_use]
pub fn confirm_resign(lang: Lang) -> [String; 2] {
    [
        tr(lang, "online-resign-title"),
        tr(lang, "online-resign-question"),
    ]
}

/// The leave window: title and question.
#[must_use]
pub fn confirm_leave(lang: Lang) -> [String; 2] {
    [
        tr(lang, "online-leave-title"),
        tr(lang, "online-leave-question"),
    ]
}

/// The take-back window's title.
#[must_use]
pub fn undo_title(lang: Lang) -> String {
    tr(lang, "online-undo-title")
}

/// The lobby's column titles.
#[must_use]
pub fn lobby_columns(lang: Lang) -> [String; 7] {
    [
        "#".into(),
        tr(lang, "online-col-players"),
        tr(lang, "online-col-variant"),
        tr(lang, "online-col-scoring"),
        tr(lang, "online-col-clock"),
        tr(lang, "online-col-status"),
        tr(lang, "online-col-watching"),
    ]
}

/// The lobby's title.
#[must_use]
pub fn lobby(lang: Lang) -> String {
    tr(lang, "online-lobby")
}

/// An empty lobby.
#[must_use]
pub fn no_tables(lang: Lang) -> String {
    tr(lang, "online-no-tables")
}

/// The create form's title.
#[must_use]
pub fn create(lang: Lang) -> String {
    tr(lang, "online-create")
}

/// The create form's fields.
#[must_use]
pub fn create_fields(lang: Lang) -> [String; 5] {
    [
        tr(lang, "online-field-board"),
        tr(lang, "online-field-empties"),
        tr(lang, "online-field-colour"),
        tr(lang, "online-field-clock"),
        tr(lang, "online-field-opponent"),
    ]
}

/// The number of fields of the create form.
pub const CREATE_FIELD_COUNT: usize = 5;

/// The connect form's title.
#[must_use]
pub fn connect(lang: Lang) -> String {
    tr(lang, "online-connect")
}

/// The connect form's fields.
#[must_use]
pub fn connect_fields(lang: Lang) -> [String; 2] {
    [
        tr(lang, "online-field-server"),
        tr(lang, "online-field-name"),
    ]
}

/// A person may sit.
#[must_use]
pub fn any_person(lang: Lang) -> String {
    tr(lang, "online-any-person")
}

/// The invited name typed so far on the create form (a placeholder while
/// empty).
#[must_use]
pub fn invitee(lang: Lang, name: &str) -> String {
    if name.is_empty() {
        tr(lang, "online-invite-type")
    } else {
        tr!(lang, "online-only", name = name)
    }
}

/// Joining a table kept for someone else: watching it instead.
#[must_use]
pub fn watching_invited(lang: Lang, table: TableId, name: &str) -> String {
    tr!(lang, "online-watching-invited", table = table, name = name)
}

/// The reason not to invite oneself.
#[must_use]
pub fn invite_yourself(lang: Lang) -> String {
    tr(lang, "online-invite-yourself")
}

/// The create form's invited name cannot be used.
#[must_use]
pub fn bad_invitee(lang: Lang, reason: &str) -> String {
    tr!(lang, "online-invite-bad", reason = reason)
}

/// The server's engine may sit.
#[must_use]
pub fn server_ai(lang: Lang, level: Level) -> String {
    tr!(lang, "online-server-ai", level = level.number())
}

/// "you: NAME" in the lobby's header.
#[must_use]
pub fn you_are(lang: Lang, name: &str) -> String {
    tr!(lang, "online-you-are", name = name)
}

/// The label "you".
#[must_use]
pub fn you(lang: Lang) -> String {
    tr(lang, "online-you")
}

/// Whose turn.
#[must_use]
pub fn to_move(lang: Lang, side_name: &str, name: &str, ours: bool) -> String {
    if ours {
        tr!(lang, "online-to-move-yours", side = side_name)
    } else if name.is_empty() {
        tr!(lang, "online-to-move", side = side_name)
    } else {
        tr!(lang, "online-to-move-named", side = side_name, name = name)
    }
}

/// Spectators (empty for none).
#[must_use]
pub fn watching(lang: Lang, n: u32) -> String {
    if n == 0 {
        String::new()
    } else {
        tr!(lang, "online-spectators", n = n)
    }
}

/// The chat's title.
#[must_use]
pub fn chat(lang: Lang) -> String {
    tr(lang, "online-chat")
}

/// The chat's title while it is scrolled back from the newest lines.
#[must_use]
pub fn chat_older(lang: Lang) -> String {
    tr(lang, "online-chat-older")
}

/// A table's title.
#[must_use]
pub fn table_title(lang: Lang, id: u64) -> String {
    tr!(lang, "online-table", id = id)
}

/// The line that tells how to send the invitation, above the invitation.
#[must_use]
pub fn invite(lang: Lang) -> String {
    tr(lang, "online-invite-line")
}

/// The status line once the invitation is copied.
#[must_use]
pub fn invite_copied(lang: Lang) -> String {
    tr(lang, "online-invite-copied")
}

/// Keys of a screen: (key, what it does) pairs.
#[must_use]
pub fn keys(lang: Lang, screen: KeysOf) -> Vec<(String, String)> {
    let (enter, esc) = (tr(lang, "key-enter"), tr(lang, "key-esc"));
    match screen {
        KeysOf::Connect => vec![
            ("Tab".into(), tr(lang, "online-key-next-field")),
            (enter, tr(lang, "online-key-connect")),
            (esc, tr(lang, "online-key-back")),
        ],
        KeysOf::Lobby => vec![
            ("↑↓".into(), tr(lang, "online-key-choose")),
            (enter, tr(lang, "online-key-join")),
            ("w".into(), tr(lang, "online-key-watch")),
            ("c".into(), tr(lang, "online-key-create")),
            ("?".into(), tr(lang, "online-key-help")),
            ("q".into(), tr(lang, "online-key-quit")),
        ],
        KeysOf::Create => vec![
            ("↑↓".into(), tr(lang, "online-key-choose")),
            ("←→".into(), tr(lang, "online-key-change")),
            (enter, tr(lang, "online-key-create-table")),
            (esc, tr(lang, "online-key-back")),
        ],
        KeysOf::Typing => vec![
            (enter, tr(lang, "online-key-send")),
            (esc, tr(lang, "online-key-cancel")),
        ],
        KeysOf::Over => vec![
            ("v".into(), tr(lang, "online-key-replay")),
            ("s".into(), tr(lang, "online-key-save")),
            ("t".into(), tr(lang, "online-key-chat")),
            ("q".into(), tr(lang, "online-key-lobby")),
            ("?".into(), tr(lang, "online-key-help")),
            ("Q".into(), tr(lang, "online-key-quit")),
        ],
        KeysOf::Playing => vec![
            ("←↑↓→".into(), tr(lang, "online-key-move")),
            (enter, tr(lang, "online-key-play")),
            ("u".into(), tr(lang, "online-key-undo")),
            ("t".into(), tr(lang, "online-key-chat")),
            ("?".into(), tr(lang, "online-key-help")),
            ("q".into(), tr(lang, "online-key-resign")),
        ],
        KeysOf::Claimable => vec![
            ("w".into(), tr(lang, "online-key-claim")),
            (enter, tr(lang, "online-key-play")),
            ("t".into(), tr(lang, "online-key-chat")),
            ("?".into(), tr(lang, "online-key-help")),
            ("q".into(), tr(lang, "online-key-resign")),
        ],
        KeysOf::Waiting => vec![
            ("y".into(), tr(lang, "online-key-invite")),
            ("t".into(), tr(lang, "online-key-chat")),
            ("?".into(), tr(lang, "online-key-help")),
            ("q".into(), tr(lang, "online-key-leave")),
        ],
        KeysOf::Watching => vec![
            ("t".into(), tr(lang, "online-key-chat")),
            ("?".into(), tr(lang, "online-key-help")),
            ("q".into(), tr(lang, "online-key-leave")),
        ],
    }
}

/// A help row: its keys (with `Enter`, `Esc` and `Space` in the language)
/// and what they do.
#[must_use]
pub fn help_row(lang: Lang, b: &super::keys::Binding) -> (String, String) {
    use super::keys::Help;
    let label = b
        .label
        .split(' ')
        .map(|k| match k {
            "Enter" => tr(lang, "key-enter"),
            "Esc" => tr(lang, "key-esc"),
            "Space" => tr(lang, "key-space"),
            "Home" => tr(lang, "key-home"),
            "End" => tr(lang, "key-end"),
            "PgUp" => tr(lang, "lesson-page-up"),
            "PgDn" => tr(lang, "lesson-page-down"),
            "click" => tr(lang, "help-key-click"),
            other => other.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    let help = match b.help {
        Help::Choose => tr(lang, "online-help-choose"),
        Help::FirstLast => tr(lang, "online-help-first-last"),
        Help::Join => tr(lang, "online-help-join"),
        Help::Watch => tr(lang, "online-help-watch"),
        Help::Create => tr(lang, "online-help-create"),
        Help::Refresh => tr(lang, "online-help-refresh"),
        Help::Back => tr(lang, "online-help-back"),
        Help::Cursor => tr(lang, "help-move-cursor"),
        Help::Play => tr(lang, "help-play-cursor"),
        Help::TypeSquare => tr(lang, "help-type-square"),
        Help::Click => tr(lang, "help-click"),
        Help::Undo => tr(lang, "online-help-undo"),
        Help::Claim => tr(lang, "online-help-claim"),
        Help::Chat => tr(lang, "online-help-chat"),
        Help::Invite => tr(lang, "online-help-invite"),
        Help::ChatScroll => tr(lang, "online-help-chat-scroll"),
        Help::Dots => tr(lang, "help-dots"),
        Help::ReplaySave => tr(lang, "online-help-replay-save"),
        Help::Resign => tr(lang, "online-help-resign"),
        Help::Keys => tr(lang, "online-help-help"),
        Help::Quit => tr(lang, "online-help-quit"),
    };
    (label, help)
}

/// The help window's title and its closing hint.
#[must_use]
pub fn help_title(lang: Lang) -> [String; 2] {
    [tr(lang, "online-help-title"), tr(lang, "online-help-close")]
}

/// Which screen's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeysOf {
    /// The connect form.
    Connect,
    /// The lobby.
    Lobby,
    /// The create form.
    Create,
    /// Typing a chat line.
    Typing,
    /// A finished game.
    Over,
    /// Playing.
    Playing,
    /// Playing, the opponent gone long enough for a claim.
    Claimable,
    /// Our own table, waiting for an opponent.
    Waiting,
    /// Watching.
    Watching,
}
