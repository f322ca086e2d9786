//! Every sentence and label the online screen shows, from the message
//! catalogues (`online-…` ids in `src/i18n/*.ftl`). Text from other players
//! is passed in already cleaned and is never part of a message id.

use crate::i18n::tr;
use crate::net::protocol::{
    ClockSpec, ColourChoice, EndReason, ErrorCode, GameResult, Opponent, ScoringRule, Seat, Side,
    TableId, TableStatus, Variant,
};
use crate::tr;
use std::time::Duration;

/// "Black" or "White".
#[must_use]
pub fn side(side: Side) -> String {
    match side {
        Side::Black => tr("online-black"),
        Side::White => tr("online-white"),
    }
}

/// A variant's name.
#[must_use]
pub fn variant(v: Variant) -> String {
    match v {
        Variant::Eight => tr("online-variant-8x8"),
        Variant::Six => tr("online-variant-6x6"),
        Variant::Anti => tr("online-variant-anti"),
    }
}

/// A scoring rule's name.
#[must_use]
pub fn scoring(s: ScoringRule) -> String {
    match s {
        ScoringRule::EmptiesToNobody => tr("online-scoring-nobody"),
        ScoringRule::EmptiesToWinner => tr("online-scoring-winner"),
    }
}

/// A colour choice.
#[must_use]
pub fn colour(c: ColourChoice) -> String {
    match c {
        ColourChoice::Random => tr("online-colour-random"),
        ColourChoice::Black => tr("online-black"),
        ColourChoice::White => tr("online-white"),
    }
}

/// A clock: `5+3` (minutes, and seconds of increment), or "no clock".
#[must_use]
pub fn clock(c: Option<ClockSpec>) -> String {
    match c {
        None => tr("online-no-clock"),
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
pub fn status(s: TableStatus) -> String {
    match s {
        TableStatus::Waiting => tr("online-status-waiting"),
        TableStatus::Playing => tr("online-status-playing"),
        TableStatus::Finished => tr("online-status-finished"),
    }
}

/// Who may sit at a table.
#[must_use]
pub fn opponent(o: &Opponent) -> String {
    match o {
        Opponent::Open => tr("online-anyone"),
        Opponent::Invite { name } => tr!("online-only", name = name.as_str()),
        Opponent::Ai { level } => tr!("online-server-ai-short", level = *level),
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
pub fn result(r: &GameResult, names: [&str; 2]) -> String {
    let who = |s: Side| {
        let n = names[super::model::side_index(s)];
        if n.is_empty() {
            side(s)
        } else {
            format!("{n} ({})", side(s))
        }
    };
    let (b, w) = (r.black, r.white);
    match (r.winner, r.reason) {
        (None, EndReason::Abandoned) => tr("online-draw-abandoned"),
        (None, _) => tr!("online-draw", black = b, white = w),
        (Some(s), EndReason::Finished) => tr!("online-wins", who = who(s), black = b, white = w),
        (Some(s), EndReason::Resigned) => {
            tr!(
                "online-wins-resigned",
                who = who(s),
                loser = who(s.opponent())
            )
        }
        (Some(s), EndReason::Time) => tr!("online-wins-on-time", who = who(s)),
        (Some(s), EndReason::Abandoned) => {
            tr!(
                "online-wins-abandoned",
                who = who(s),
                loser = who(s.opponent())
            )
        }
    }
}

/// The take-back question.
#[must_use]
pub fn undo_asked(by: &str, moves: usize) -> String {
    tr!("online-undo-asked", name = by, n = moves)
}

/// The connection line while connecting.
#[must_use]
pub fn connecting() -> String {
    tr("online-connecting")
}

/// The connection line when connected.
#[must_use]
pub fn connected() -> String {
    tr("online-connected")
}

/// The connection line before connecting.
#[must_use]
pub fn offline() -> String {
    tr("online-offline")
}

/// The connection line while reconnecting: after `attempt` failed
/// attempts, the next one `next_in` from now (once known).
#[must_use]
pub fn reconnecting(attempt: u32, next_in: Option<Duration>) -> String {
    match next_in {
        _ if attempt == 0 => tr("online-reconnecting"),
        Some(d) if d >= Duration::from_secs(1) => tr!(
            "online-reconnecting-next",
            n = attempt + 1,
            secs = d.as_secs().saturating_add(u64::from(d.subsec_nanos() > 0))
        ),
        _ => tr!("online-reconnecting-attempt", n = attempt + 1),
    }
}

/// The server could not be reached.
#[must_use]
pub fn unreachable(url: &str, reason: &str) -> String {
    tr!("online-unreachable", url = url, reason = reason)
}

/// Why the network failed, in the screen's language when it is one of the
/// usual reasons (the library's own sentence otherwise).
#[must_use]
pub fn why(reason: &str) -> String {
    let r = reason.to_ascii_lowercase();
    if r.contains("connection refused") {
        tr("online-why-refused")
    } else if r.contains("no answer") || r.contains("timed out") {
        tr("online-why-no-answer")
    } else if r.contains("failed to lookup")
        || r.contains("name or service not known")
        || r.contains("no address")
    {
        tr("online-why-unknown-host")
    } else if r.contains("unknownissuer") || r.contains("unknown issuer") {
        tr("online-why-untrusted")
    } else if r.contains("notvalidforname") || r.contains("not valid for name") {
        tr("online-why-wrong-name")
    } else if r.contains("certificate expired") {
        tr("online-why-expired")
    } else if r.contains("tls:")
        && (r.contains("corrupt message") || r.contains("invalidcontenttype"))
    {
        tr("online-why-not-tls")
    } else if r.contains("reset") || r.contains("closed") || r.contains("broken pipe") {
        tr("online-why-closed")
    } else {
        reason.to_string()
    }
}

/// A refusal by the server, in the screen's language (from its code: the
/// server's own sentence is English).
#[must_use]
pub fn refusal(code: ErrorCode) -> String {
    match code {
        ErrorCode::BadRequest => tr("online-no-bad-request"),
        ErrorCode::BadTable => tr("online-no-bad-table"),
        ErrorCode::Limit => tr("online-no-limit"),
        ErrorCode::Version => tr("online-no-version"),
        ErrorCode::BadName => tr("online-no-bad-name"),
        ErrorCode::NameTaken => tr("online-no-name-taken"),
        ErrorCode::BadToken => tr("online-no-bad-token"),
        ErrorCode::NoSuchTable => tr("online-no-such-table"),
        ErrorCode::TableFull => tr("online-no-table-full"),
        ErrorCode::NotInvited => tr("online-no-not-invited"),
        ErrorCode::NotSeated => tr("online-no-not-seated"),
        ErrorCode::NotPlaying => tr("online-no-not-playing"),
        ErrorCode::NotYourTurn => tr("online-no-not-your-turn"),
        ErrorCode::IllegalMove => tr("online-no-illegal"),
        ErrorCode::Undo => tr("online-no-undo"),
        ErrorCode::AiBusy => tr("online-no-ai-busy"),
        ErrorCode::InGame => tr("online-no-in-game"),
        ErrorCode::Claim => tr("online-no-claim"),
    }
}

/// A table that is not there: one that never existed, or one that is
/// closed (`closed`).
#[must_use]
pub fn no_such_table(table: Option<TableId>, closed: bool) -> String {
    match table {
        Some(table) if !closed => tr!("online-no-table-never", table = table),
        _ => tr("online-no-such-table"),
    }
}

/// A player's connection is gone, as the panel says it: `claim_in` is the
/// wait before we may claim the game (zero: now), `None` when we cannot
/// (a spectator, or a table with a clock).
#[must_use]
pub fn away(name: &str, claim_in: Option<Duration>) -> String {
    match claim_in {
        None => tr!("online-away", name = name),
        Some(d) if d.is_zero() => tr!("online-away-claim", name = name),
        Some(d) => tr!("online-away-claim-in", name = name, time = wait(d)),
    }
}

/// A wait in whole seconds, rounded up: `0:42`, `1:00`.
fn wait(d: Duration) -> String {
    let secs = d.as_millis().div_ceil(1000);
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// A player's connection just went.
#[must_use]
pub fn went_away(name: &str) -> String {
    tr!("online-went-away", name = name)
}

/// A player is connected again.
#[must_use]
pub fn came_back(name: &str) -> String {
    tr!("online-came-back", name = name)
}

/// A take-back request ended by a disconnection.
#[must_use]
pub fn undo_cancelled(name: &str) -> String {
    tr!("online-undo-cancelled", name = name)
}

/// A key other than y/n while the take-back question is asked.
#[must_use]
pub fn answer_undo_first() -> String {
    tr("online-undo-answer-first")
}

/// The claim window: title, what happened, the choices.
#[must_use]
pub fn claim(name: &str) -> [String; 3] {
    [
        tr("online-claim-title"),
        tr!("online-claim-question", name = name),
        tr("online-claim-choices"),
    ]
}

/// Claiming before the grace period is over.
#[must_use]
pub fn claim_wait(left: Duration) -> String {
    tr!("online-claim-wait", time = wait(left))
}

/// Claiming at a table with a clock.
#[must_use]
pub fn claim_clock(name: &str) -> String {
    tr!("online-claim-clock", name = name)
}

/// Claiming with the opponent connected.
#[must_use]
pub fn claim_nothing() -> String {
    tr("online-claim-nothing")
}

/// The server refused the name.
#[must_use]
pub fn refused(message: &str) -> String {
    tr!("online-refused", message = message)
}

/// Another connection took the session over (the window over the screen).
#[must_use]
pub fn replaced() -> String {
    tr("online-replaced")
}

/// The name is in use, and this client holds its session's token.
#[must_use]
pub fn taken(name: &str) -> String {
    tr!("online-taken", name = name)
}

/// Keys offered when the session may be taken back.
#[must_use]
pub fn take_back_keys() -> String {
    tr("online-take-back-keys")
}

/// Keys offered when the server cannot be reached.
#[must_use]
pub fn unreachable_keys() -> String {
    tr("online-unreachable-keys")
}

/// The connection dropped.
#[must_use]
pub fn lost(reason: &str) -> String {
    tr!("online-lost", reason = reason)
}

/// Back after a drop.
#[must_use]
pub fn reconnected() -> String {
    tr("online-reconnected")
}

/// A request needs the connection.
#[must_use]
pub fn need_connection() -> String {
    tr("online-need-connection")
}

/// The move is not ours to play.
#[must_use]
pub fn not_your_turn() -> String {
    tr("online-not-your-turn")
}

/// Spectators cannot move.
#[must_use]
pub fn watching_only() -> String {
    tr("online-watching-only")
}

/// The typed square is not legal.
#[must_use]
pub fn illegal(square: &str) -> String {
    tr!("online-illegal", square = square)
}

/// A move was sent.
#[must_use]
pub fn sent(square: &str) -> String {
    tr!("online-sent", square = square)
}

/// A take-back was asked.
#[must_use]
pub fn undo_sent() -> String {
    tr("online-undo-sent")
}

/// Nothing to take back.
#[must_use]
pub fn nothing_to_undo() -> String {
    tr("online-nothing-to-undo")
}

/// Our request was declined.
#[must_use]
pub fn undo_declined() -> String {
    tr("online-undo-declined")
}

/// Moves were taken back.
#[must_use]
pub fn undone() -> String {
    tr("online-undone")
}

/// We accepted a take-back.
#[must_use]
pub fn undo_accepted() -> String {
    tr("online-undo-accepted")
}

/// We declined a take-back.
#[must_use]
pub fn undo_refused() -> String {
    tr("online-undo-refused")
}

/// Waiting for an opponent.
#[must_use]
pub fn waiting() -> String {
    tr("online-waiting")
}

/// Waiting for an opponent at a table whose colours are drawn at the start.
#[must_use]
pub fn waiting_for_draw() -> String {
    tr("online-waiting-draw")
}

/// The table is gone.
#[must_use]
pub fn table_gone() -> String {
    tr("online-table-gone")
}

/// The server refused a request.
#[must_use]
pub fn server_error(message: &str) -> String {
    tr!("online-server-error", message = message)
}

/// Enter with no table.
#[must_use]
pub fn no_table() -> String {
    tr("online-no-table")
}

/// The finished game was kept.
#[must_use]
pub fn kept(path: &str) -> String {
    tr!("online-kept", path = path)
}

/// The finished game could not be kept.
#[must_use]
pub fn not_kept(path: &str, error: &str) -> String {
    tr!("online-not-kept", path = path, error = error)
}

/// The server and name could not be remembered.
#[must_use]
pub fn not_remembered(error: &str) -> String {
    tr!("online-not-remembered", error = error)
}

/// The network thread could not start.
#[must_use]
pub fn no_thread(error: &str) -> String {
    tr!("online-no-thread", error = error)
}

/// A bad name in the connect form.
#[must_use]
pub fn bad_name(e: &str) -> String {
    tr!("online-bad-name", error = e)
}

/// Why a name is refused, in the screen's language.
#[must_use]
pub fn name_problem(e: &crate::net::text::NameError) -> String {
    use crate::net::text::{MAX_NAME_CHARS, NameError};
    match e {
        NameError::Empty => tr("online-name-empty"),
        NameError::TooLong => tr!("online-name-too-long", max = MAX_NAME_CHARS),
        NameError::BadChar(c) => tr!("online-name-bad-char", char = format!("{c:?}")),
        NameError::Reserved => tr("online-name-reserved"),
        NameError::Restricted(c) => tr!("online-name-restricted", char = format!("{c:?}")),
        NameError::MixedScripts(c) => tr!("online-name-mixed-scripts", char = format!("{c:?}")),
    }
}

/// A bad address in the connect form.
#[must_use]
pub fn bad_url() -> String {
    tr("online-bad-url")
}

/// The resign window: title and question.
#[must_use]
pub fn confirm_resign() -> [String; 2] {
    [tr("online-resign-title"), tr("online-resign-question")]
}

/// The leave window: title and question.
#[must_use]
pub fn confirm_leave() -> [String; 2] {
    [tr("online-leave-title"), tr("online-leave-question")]
}

/// The take-back window's title.
#[must_use]
pub fn undo_title() -> String {
    tr("online-undo-title")
}

/// The lobby's column titles.
#[must_use]
pub fn lobby_columns() -> [String; 7] {
    [
        "#".into(),
        tr("online-col-players"),
        tr("online-col-variant"),
        tr("online-col-scoring"),
        tr("online-col-clock"),
        tr("online-col-status"),
        tr("online-col-watching"),
    ]
}

/// The lobby's title.
#[must_use]
pub fn lobby() -> String {
    tr("online-lobby")
}

/// An empty lobby.
#[must_use]
pub fn no_tables() -> String {
    tr("online-no-tables")
}

/// The create form's title.
#[must_use]
pub fn create() -> String {
    tr("online-create")
}

/// The create form's fields.
#[must_use]
pub fn create_fields() -> [String; 5] {
    [
        tr("online-field-board"),
        tr("online-field-empties"),
        tr("online-field-colour"),
        tr("online-field-clock"),
        tr("online-field-opponent"),
    ]
}

/// The number of fields of the create form.
pub const CREATE_FIELD_COUNT: usize = 5;

/// The connect form's title.
#[must_use]
pub fn connect() -> String {
    tr("online-connect")
}

/// The connect form's fields.
#[must_use]
pub fn connect_fields() -> [String; 2] {
    [tr("online-field-server"), tr("online-field-name")]
}

/// A person may sit.
#[must_use]
pub fn any_person() -> String {
    tr("online-any-person")
}

/// The invited name typed so far on the create form (a placeholder while
/// empty).
#[must_use]
pub fn invitee(name: &str) -> String {
    if name.is_empty() {
        tr("online-invite-type")
    } else {
        tr!("online-only", name = name)
    }
}

/// Joining a table kept for someone else: watching it instead.
#[must_use]
pub fn watching_invited(table: TableId, name: &str) -> String {
    tr!("online-watching-invited", table = table, name = name)
}

/// The reason not to invite oneself.
#[must_use]
pub fn invite_yourself() -> String {
    tr("online-invite-yourself")
}

/// The create form's invited name cannot be used.
#[must_use]
pub fn bad_invitee(reason: &str) -> String {
    tr!("online-invite-bad", reason = reason)
}

/// The server's engine may sit.
#[must_use]
pub fn server_ai(level: u8) -> String {
    tr!("online-server-ai", level = level)
}

/// "you: NAME" in the lobby's header.
#[must_use]
pub fn you_are(name: &str) -> String {
    tr!("online-you-are", name = name)
}

/// The label "you".
#[must_use]
pub fn you() -> String {
    tr("online-you")
}

/// Whose turn.
#[must_use]
pub fn to_move(side_name: &str, name: &str, ours: bool) -> String {
    if ours {
        tr!("online-to-move-yours", side = side_name)
    } else if name.is_empty() {
        tr!("online-to-move", side = side_name)
    } else {
        tr!("online-to-move-named", side = side_name, name = name)
    }
}

/// Spectators (empty for none).
#[must_use]
pub fn watching(n: u32) -> String {
    if n == 0 {
        String::new()
    } else {
        tr!("online-spectators", n = n)
    }
}

/// The chat's title.
#[must_use]
pub fn chat() -> String {
    tr("online-chat")
}

/// A table's title.
#[must_use]
pub fn table_title(id: u64) -> String {
    tr!("online-table", id = id)
}

/// Keys of a screen: (key, what it does) pairs.
#[must_use]
pub fn keys(screen: KeysOf) -> Vec<(String, String)> {
    let (enter, esc) = (tr("key-enter"), tr("key-esc"));
    match screen {
        KeysOf::Connect => vec![
            ("Tab".into(), tr("online-key-next-field")),
            (enter, tr("online-key-connect")),
            (esc, tr("online-key-back")),
        ],
        KeysOf::Lobby => vec![
            ("↑↓".into(), tr("online-key-choose")),
            (enter, tr("online-key-join")),
            ("w".into(), tr("online-key-watch")),
            ("c".into(), tr("online-key-create")),
            ("?".into(), tr("online-key-help")),
            ("q".into(), tr("online-key-quit")),
        ],
        KeysOf::Create => vec![
            ("↑↓".into(), tr("online-key-choose")),
            ("←→".into(), tr("online-key-change")),
            (enter, tr("online-key-create-table")),
            (esc, tr("online-key-back")),
        ],
        KeysOf::Typing => vec![
            (enter, tr("online-key-send")),
            (esc, tr("online-key-cancel")),
        ],
        KeysOf::Over => vec![
            ("v".into(), tr("online-key-replay")),
            ("s".into(), tr("online-key-save")),
            ("t".into(), tr("online-key-chat")),
            ("q".into(), tr("online-key-lobby")),
            ("?".into(), tr("online-key-help")),
            ("Q".into(), tr("online-key-quit")),
        ],
        KeysOf::Playing => vec![
            ("←↑↓→".into(), tr("online-key-move")),
            (enter, tr("online-key-play")),
            ("u".into(), tr("online-key-undo")),
            ("t".into(), tr("online-key-chat")),
            ("?".into(), tr("online-key-help")),
            ("q".into(), tr("online-key-resign")),
        ],
        KeysOf::Claimable => vec![
            ("w".into(), tr("online-key-claim")),
            (enter, tr("online-key-play")),
            ("t".into(), tr("online-key-chat")),
            ("?".into(), tr("online-key-help")),
            ("q".into(), tr("online-key-resign")),
        ],
        KeysOf::Watching => vec![
            ("t".into(), tr("online-key-chat")),
            ("?".into(), tr("online-key-help")),
            ("q".into(), tr("online-key-leave")),
        ],
    }
}

/// A help row: its keys (with `Enter`, `Esc` and `Space` in the language)
/// and what they do.
#[must_use]
pub fn help_row(b: &super::keys::Binding) -> (String, String) {
    use super::keys::Help;
    let label = b
        .label
        .split(' ')
        .map(|k| match k {
            "Enter" => tr("key-enter"),
            "Esc" => tr("key-esc"),
            "Space" => tr("key-space"),
            "Home" => tr("key-home"),
            "End" => tr("key-end"),
            "click" => tr("help-key-click"),
            other => other.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    let help = match b.help {
        Help::Choose => tr("online-help-choose"),
        Help::FirstLast => tr("online-help-first-last"),
        Help::Join => tr("online-help-join"),
        Help::Watch => tr("online-help-watch"),
        Help::Create => tr("online-help-create"),
        Help::Refresh => tr("online-help-refresh"),
        Help::Back => tr("online-help-back"),
        Help::Cursor => tr("help-move-cursor"),
        Help::Play => tr("help-play-cursor"),
        Help::TypeSquare => tr("help-type-square"),
        Help::Click => tr("help-click"),
        Help::Undo => tr("online-help-undo"),
        Help::Claim => tr("online-help-claim"),
        Help::Chat => tr("online-help-chat"),
        Help::Dots => tr("help-dots"),
        Help::ReplaySave => tr("online-help-replay-save"),
        Help::Resign => tr("online-help-resign"),
        Help::Keys => tr("online-help-help"),
        Help::Quit => tr("online-help-quit"),
    };
    (label, help)
}

/// The help window's title and its closing hint.
#[must_use]
pub fn help_title() -> [String; 2] {
    [tr("online-help-title"), tr("online-help-close")]
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
    /// Watching.
    Watching,
}
