//! The model of the online screen: the connection's state, the lobby's
//! tables, the create form and the table being played or watched, and the
//! messages and effects of its update function.
//!
//! The game at a table is the server's: moves are applied only when the
//! server announces them (`moved`), and turn, passes and the result are read
//! from the [`GameView`]. The clocks are the server's times, counted down
//! here between its messages. Depends on `net` (protocol types, the client's
//! game view) and `rules`; never on the terminal.

use super::super::board_input::BoardInput;
use crate::ai::Level;
use crate::i18n::Lang;
use crate::net::client::{GameView, server_key};
use crate::net::protocol::{
    ClientMsg, ClockSpec, ColourChoice, ErrorCode, GameState, Opponent, ScoringRule, Side, TableId,
    TableInfo, TableSpec, TableStatus, Variant,
};
use crate::net::session::SessionEvent;
use crate::net::text::{name_key, same_name};
use crate::notation::ggf::Record;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The server and the name to play under.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Server {
    /// `ws://host:port` or `wss://host:port`.
    pub url: String,
    /// The player's name.
    pub name: String,
    /// The session token the server gave this name, kept so that a client
    /// started again (after a crash or a quit in the middle of a game)
    /// resumes the session and its seats. `None` for a new session; a token
    /// the server no longer knows is ignored by it.
    pub token: Option<String>,
}

impl Server {
    /// The server `url` for `name`, with the token held for them.
    #[must_use]
    pub fn new(url: String, name: String, tokens: &Tokens) -> Server {
        let token = tokens.get(&url, &name).map(str::to_string);
        Server { url, name, token }
    }
}

/// The session tokens this client holds, one per server and name: the
/// server as [`server_key`] spells it (so `ws://localhost:P` and
/// `ws://127.0.0.1:P/` share one) and the name as the server compares names
/// ([`name_key`]). A token is replaced by the next one the server gives for
/// the same server and name, and never dropped otherwise: a refusal leaves
/// it in place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tokens {
    /// By (server key, name key): the name as given, and the token.
    held: BTreeMap<(String, String), (String, String)>,
}

impl Tokens {
    /// The token held for `name` at `url`.
    #[must_use]
    pub fn get(&self, url: &str, name: &str) -> Option<&str> {
        self.held
            .get(&(server_key(url), name_key(name)))
            .map(|(_, token)| token.as_str())
    }

    /// Holds `token` for `name` at `url` (replacing the one held before).
    /// What could not be written back on one line of `online.conf` (empty,
    /// with spaces or control characters) is not held.
    pub fn keep(&mut self, url: &str, name: &str, token: &str) {
        let server = server_key(url);
        let one_word =
            |s: &str| !s.is_empty() && !s.chars().any(|c| c.is_whitespace() || c.is_control());
        if one_word(&server) && one_word(name) && one_word(token) {
            self.held.insert(
                (server, name_key(name)),
                (name.to_string(), token.to_string()),
            );
        }
    }

    /// Every token held: (server key, name, token), by server and name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.held
            .iter()
            .map(|((server, _), (name, token))| (server.as_str(), name.as_str(), token.as_str()))
    }

    /// Holds every token of `other` too (its own where both hold one).
    pub fn merge(&mut self, other: &Tokens) {
        self.held
            .extend(other.held.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
}

/// The connection's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// Not asked to connect yet (the connect form is shown).
    Off,
    /// The first connection is being made.
    Connecting,
    /// Connected and welcomed.
    Connected,
    /// The connection dropped; the worker reconnects by itself.
    Reconnecting {
        /// When it dropped.
        since: Instant,
        /// Failed attempts since.
        attempt: u32,
        /// When the next attempt is made, once one has failed.
        next: Option<Instant>,
    },
    /// The server could not be reached at the start, or not in a way that
    /// trying again would mend (TLS); the reason, for people.
    Unreachable(String),
    /// The server refused the `hello`: the name (bad, or another
    /// session's), or the protocol.
    Refused(ErrorCode),
    /// The server says the name is in use, and this client holds that
    /// session's token (another window of this player has it): `r` takes
    /// the session back with the token.
    Taken,
    /// Another connection took this session over (another window, or
    /// another computer with this client's token); nothing reconnects
    /// until `r` takes it back.
    Replaced,
}

impl Link {
    /// Whether the connection is over until the player acts (`r` to try
    /// again or take the session back, `e` to change address or name).
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        matches!(
            self,
            Link::Unreachable(_) | Link::Refused(_) | Link::Taken | Link::Replaced
        )
    }
}

/// What to do once welcomed (from the command line: an invitation is an id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Create a table.
    Create(TableSpec),
    /// Join this table.
    Join(TableId),
    /// Watch this table.
    Watch(TableId),
}

impl Intent {
    /// The request that carries it out.
    #[must_use]
    pub fn request(&self) -> ClientMsg {
        match self {
            Intent::Create(spec) => ClientMsg::Create(spec.clone()),
            Intent::Join(table) => ClientMsg::Join { table: *table },
            Intent::Watch(table) => ClientMsg::Watch { table: *table },
        }
    }
}

/// A create, join or watch sent and not answered yet: if the connection
/// drops before its answer, it is asked again after the reconnection,
/// unless the resumed session shows it was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The request.
    pub intent: Intent,
    /// The tables where this player sat when it was sent (a created table
    /// is one that is not among them).
    pub seated: Vec<TableId>,
    /// This player's name, when known (a new table with random colours
    /// names no side for its creator until the draw, only the name).
    pub me: Option<String>,
}

impl Asked {
    /// `intent`, sent while the player sits at the tables of `tables`
    /// that name `me`.
    #[must_use]
    pub fn new(intent: Intent, tables: &[TableInfo], me: Option<&str>) -> Asked {
        Asked {
            intent,
            seated: seated_at(tables, me),
            me: me.map(str::to_string),
        }
    }

    /// Whether `state` answers it: the table joined or watched, or a new
    /// table where the player sits.
    #[must_use]
    pub fn is_answered_by(&self, state: &GameState) -> bool {
        let id = state.table.id;
        match self.intent {
            Intent::Join(t) | Intent::Watch(t) => t == id,
            Intent::Create(_) => {
                let sits = state.you.is_some()
                    || self.me.as_deref().is_some_and(|me| {
                        state
                            .table
                            .players
                            .iter()
                            .any(|p| same_name(&p.label(), me))
                    });
                sits && !self.seated.contains(&id)
            }
        }
    }

    /// Whether a refusal about `table` answers it (a refused create names
    /// no table).
    #[must_use]
    pub fn is_refused_by(&self, table: Option<TableId>) -> bool {
        match self.intent {
            Intent::Join(t) | Intent::Watch(t) => table == Some(t),
            Intent::Create(_) => table.is_none(),
        }
    }

    /// Whether the tables of a `welcome` show it done before the
    /// connection dropped: the player sits at the table joined, or at an
    /// unfinished table that is not one of those of before (its `game`
    /// follows). A watch is never kept across connections.
    #[must_use]
    pub fn is_done_in(&self, tables: &[TableInfo], me: Option<&str>) -> bool {
        let now = seated_at(tables, me);
        match self.intent {
            Intent::Join(t) => now.contains(&t),
            Intent::Watch(_) => false,
            Intent::Create(_) => now.iter().any(|t| !self.seated.contains(t)),
        }
    }
}

/// The unfinished tables of `tables` where `me` sits.
fn seated_at(tables: &[TableInfo], me: Option<&str>) -> Vec<TableId> {
    let Some(me) = me else { return Vec::new() };
    tables
        .iter()
        .filter(|t| t.status != TableStatus::Finished)
        .filter(|t| t.players.iter().any(|p| same_name(&p.label(), me)))
        .map(|t| t.id)
        .collect()
}

/// The connect form: server address and name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectForm {
    /// 0: the address, 1: the name.
    pub field: usize,
    /// The address being typed.
    pub url: String,
    /// The name being typed.
    pub name: String,
}

/// The clocks a table may be created with, in seconds (base, increment).
pub const CLOCKS: [Option<(u64, u64)>; 6] = [
    None,
    Some((60, 0)),
    Some((180, 2)),
    Some((300, 5)),
    Some((600, 5)),
    Some((1800, 20)),
];

/// The smallest terminal the online screens are drawn in (columns, rows);
/// a smaller one gets a "too small" line instead (a table needs more: see
/// [`Online::needed_size`]).
pub const MIN_SIZE: (u16, u16) = (40, 12);

/// The create form's field of who may sit (the last one).
pub const SITTER_FIELD: usize = 4;

/// Who may take the second seat of a new table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sitter {
    /// Any person who joins.
    Person,
    /// Only the person named in [`CreateForm::invitee`].
    Invited,
    /// The server's engine at a level.
    Ai(Level),
}

/// The create form: the same choices as a local game, plus the clock and
/// who may sit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateForm {
    /// The selected field (an index into [`super::view::CREATE_FIELDS`]).
    pub field: usize,
    /// The variant.
    pub variant: Variant,
    /// The scoring rule.
    pub scoring: ScoringRule,
    /// The creator's colour.
    pub colour: ColourChoice,
    /// An index into [`CLOCKS`].
    pub clock: usize,
    /// Who may sit opposite.
    pub sitter: Sitter,
    /// The name typed for [`Sitter::Invited`].
    pub invitee: String,
}

impl Default for CreateForm {
    /// 8×8, empties to nobody, colours drawn, 5+5 minutes, any person.
    fn default() -> CreateForm {
        CreateForm {
            field: 0,
            variant: Variant::Eight,
            scoring: ScoringRule::EmptiesToNobody,
            colour: ColourChoice::Random,
            clock: 3,
            sitter: Sitter::Person,
            invitee: String::new(),
        }
    }
}

impl CreateForm {
    /// The `create` request of the form.
    ///
    /// # Errors
    /// An invited name the server would refuse, with the reason.
    pub fn spec(&self) -> Result<TableSpec, crate::net::text::NameError> {
        Ok(TableSpec {
            variant: self.variant,
            scoring: Some(self.scoring),
            colour: self.colour,
            clock: CLOCKS[self.clock.min(CLOCKS.len() - 1)].map(|(b, i)| ClockSpec {
                base_ms: b * 1000,
                increment_ms: i * 1000,
            }),
            opponent: match self.sitter {
                Sitter::Person => Opponent::Open,
                Sitter::Invited => Opponent::Invite {
                    name: crate::net::text::validate_name(&self.invitee)?,
                },
                Sitter::Ai(level) => Opponent::Ai { level },
            },
        })
    }

    /// Whether the selected field is the invited name being typed.
    #[must_use]
    pub fn typing_name(&self) -> bool {
        self.field == SITTER_FIELD && self.sitter == Sitter::Invited
    }
}

/// The server's clocks: the times it last sent, and when they arrived; the
/// side to move's time runs down from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Black's and White's remaining milliseconds at `at`.
    pub ms: [u64; 2],
    /// When the server's times arrived.
    pub at: Instant,
    /// The clock's base time (for "low").
    pub base_ms: u64,
}

impl Clocks {
    /// The remaining time of `side` at `now`, when `running` is the side
    /// whose clock runs (none once the game is over).
    #[must_use]
    pub fn remaining(&self, side: Side, running: Option<Side>, now: Instant) -> Duration {
        let ms = Duration::from_millis(self.ms[side.index()]);
        if running == Some(side) {
            ms.saturating_sub(now.saturating_duration_since(self.at))
        } else {
            ms
        }
    }

    /// Whether `left` is little enough to be shown in red: under 20 s, or
    /// under a fifth of the base time for shorter clocks.
    #[must_use]
    pub fn is_low(&self, left: Duration) -> bool {
        left < Duration::from_millis((self.base_ms / 5).min(20_000))
    }
}

/// One chat line, cleaned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// The sender's name.
    pub from: String,
    /// The text.
    pub text: String,
}

/// The chat's rows at `width` columns, oldest first: each line as
/// `NAME: TEXT` broken between words, a word wider than a row cut across
/// rows; with each row, how many of its first characters are the sender's
/// name and colon (drawn dim).
#[must_use]
pub fn chat_rows(chat: &[ChatLine], width: usize) -> Vec<(String, usize)> {
    let mut rows = Vec::new();
    for c in chat {
        let mut name = c.from.chars().count() + 1;
        for row in super::super::text::text_rows(&format!("{}: {}", c.from, c.text), width) {
            let n = row.chars().count();
            rows.push((row, name.min(n)));
            name = name.saturating_sub(n);
        }
    }
    rows
}

/// A name from the server as shown: plain text (no terminal controls), at
/// most [`NAME_CHARS`] characters.
#[must_use]
pub fn shown_name(name: &str) -> String {
    crate::net::text::clean(name)
        .chars()
        .take(NAME_CHARS)
        .collect()
}

/// The characters of a name shown (the server allows 20).
pub const NAME_CHARS: usize = 40;

/// The characters of a chat line (or its sender's name) kept: more from a
/// server is cut.
pub const CHAT_CHARS: usize = 500;

/// The most chat lines kept per table.
pub const CHAT_KEPT: usize = 100;

/// A seated player whose connection is gone, as the server told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Away {
    /// From when the opponent may claim the game; `None` when it cannot be
    /// claimed (a table with a clock).
    pub claim_at: Option<Instant>,
}

impl Away {
    /// An absence told at `now`, claimable `claim_in_ms` later (`None`: never).
    #[must_use]
    pub fn told(claim_in_ms: Option<u64>, now: Instant) -> Away {
        Away {
            claim_at: claim_in_ms.map(|ms| now + Duration::from_millis(ms)),
        }
    }
}

/// A table being played or watched.
#[derive(Clone, Debug)]
pub struct TableView {
    /// The table as last announced.
    pub info: TableInfo,
    /// The game, as the server announced it.
    pub view: GameView,
    /// The side to move, as the server says (`None` when not running).
    pub to_move: Option<Side>,
    /// The clocks, with a clock.
    pub clocks: Option<Clocks>,
    /// A pending take-back request, by this side.
    pub undo_by: Option<Side>,
    /// The players whose connection is gone, Black's and White's.
    pub away: [Option<Away>; 2],
    /// The board cursor and a column letter typed.
    pub input: BoardInput,
    /// The move sent and not yet announced (ply it is for).
    pub sent: Option<usize>,
    /// The chat, oldest first.
    pub chat: Vec<ChatLine>,
    /// The chat's rows scrolled back from the newest (0: the newest row
    /// at the bottom of the chat).
    pub chat_back: usize,
    /// The chat line being typed, while typing.
    pub typing: Option<String>,
    /// Whether the finished game was kept locally.
    pub kept: bool,
    /// This client sits at the table (with or without a colour: a table
    /// with random colours draws them when the game starts).
    pub seated: bool,
}

impl TableView {
    /// This client's colour, if seated.
    #[must_use]
    pub fn you(&self) -> Option<Side> {
        self.view.you
    }

    /// Whether the game runs.
    #[must_use]
    pub fn is_playing(&self) -> bool {
        self.view.status == TableStatus::Playing && self.view.result.is_none()
    }

    /// Whether it is this client's turn (and no move of ours is on its way).
    #[must_use]
    pub fn is_our_turn(&self) -> bool {
        self.view.is_our_turn() && self.sent.is_none()
    }

    /// The opponent whose connection is gone, while we play: their side
    /// and absence.
    #[must_use]
    pub fn opponent_away(&self) -> Option<(Side, Away)> {
        let them = self.you()?.opponent();
        let away = self.away[them.index()]?;
        self.is_playing().then_some((them, away))
    }

    /// Whether we may claim the game at `now`: the opponent is gone past
    /// the server's grace period.
    #[must_use]
    pub fn may_claim(&self, now: Instant) -> bool {
        self.opponent_away()
            .and_then(|(_, a)| a.claim_at)
            .is_some_and(|at| now >= at)
    }

    /// Whether the players' colours are known: chosen by the creator, or
    /// drawn at random when the game started.
    #[must_use]
    pub fn colours_drawn(&self) -> bool {
        self.info.black.is_some() || self.info.white.is_some()
    }

    /// The label of `side`'s seat (the players listed while colours are unknown).
    #[must_use]
    pub fn name(&self, side: Side) -> String {
        let label = &self.view.names[side.index()];
        // Before the colours are known (drawn at random when the game
        // starts), the players in the order they sat.
        if label.is_empty() && !self.colours_drawn() {
            self.info
                .players
                .get(side.index())
                .map(|s| shown_name(&s.label()))
                .unwrap_or_default()
        } else {
            shown_name(label)
        }
    }
}

/// The screen shown.
#[derive(Clone, Debug)]
pub enum Screen {
    /// The server address and name.
    Connect(ConnectForm),
    /// The list of tables, with the selected row.
    Lobby {
        /// The selected row.
        selected: usize,
    },
    /// The create form.
    Create(CreateForm),
    /// A table.
    Table(Box<TableView>),
}

/// A question over the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// The keys of the screen shown (`?`).
    Help,
    /// "Resign this game? y/n".
    ConfirmResign,
    /// "Leave this table? y/n".
    ConfirmLeave,
    /// "NAME asks to take back their last move — y/n" (and yours, when
    /// you have moved since).
    UndoAsked {
        /// The asker's name.
        by: String,
        /// The moves a yes takes back (the asker's last one and every one
        /// after it, passes included).
        moves: usize,
    },
    /// "NAME has left the table: w claim the win, d call it a draw, Esc wait".
    Claim {
        /// The absent opponent's name.
        name: String,
    },
}

/// How the online screen ends.
#[derive(Clone, Debug, PartialEq)]
pub enum Exit {
    /// Back to the new-game screen.
    Back,
    /// End the program.
    Quit,
    /// Replay the finished game locally.
    Replay(Box<Record>),
}

/// A message for the online screen alone (the app's [`super::super::app::Msg`]
/// carries it; keys, clicks, resizes and ticks come as the app's own).
#[derive(Clone, Debug)]
pub enum Msg {
    /// The network worker reports.
    Net(SessionEvent),
    /// The tokens `online.conf` holds now (other windows may have written
    /// it), as read after a refusal of the name.
    Recalled(Tokens),
}

/// What the online update asks the runtime to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Start the network worker (dropping any running one).
    Connect(Server),
    /// Stop the network worker (the screen is left).
    Disconnect,
    /// Send a request to the server.
    Send(ClientMsg),
    /// Save the game where `s` saves (the app's own save: the runtime
    /// reports the path).
    Save(Box<Record>),
    /// Keep a finished game in the data directory's saved games.
    Keep(Box<Record>),
    /// Remember the server address, name and session token (with the other
    /// tokens already kept).
    Remember(Server),
    /// Read the tokens kept in `online.conf` (answered by
    /// [`Msg::Recalled`]).
    Recall,
    /// Copy the text to the clipboard through the terminal (OSC 52).
    Copy(String),
}

/// The whole state of the online screen.
#[derive(Clone, Debug)]
pub struct Online {
    /// The server and name (as typed or remembered).
    pub server: Server,
    /// The name the server welcomed.
    pub me: Option<String>,
    /// The connection.
    pub link: Link,
    /// What is shown.
    pub screen: Screen,
    /// The tables, by id.
    pub tables: Vec<TableInfo>,
    /// A question on top, if any.
    pub overlay: Option<Overlay>,
    /// The status line.
    pub status: Option<String>,
    /// The status line as set to say the opponent went or how long until
    /// the game may be claimed: it goes once the claim is possible, unless
    /// another message has replaced it.
    pub claim_note: Option<String>,
    /// The status line for the next table shown (why it is watched).
    pub entering_note: Option<String>,
    /// What to do once welcomed.
    pub intent: Option<Intent>,
    /// The create, join or watch sent and not answered yet.
    pub asked: Option<Asked>,
    /// The session tokens held (those of `online.conf`, and those given
    /// since).
    pub tokens: Tokens,
    /// Whether legal-move dots are shown.
    pub dots: bool,
    /// The language the screen speaks (the app's, which cannot change while
    /// the screen is shown).
    pub lang: Lang,
    /// The terminal size.
    pub area: (u16, u16),
    /// The time of the last tick.
    pub now: Instant,
    /// Set when the screen is done: the app leaves it for what it says.
    pub exit: Option<Exit>,
}

impl TableView {
    /// The moves `by`'s take-back would remove, as the server counts them:
    /// back to before `by`'s last placed disc.
    #[must_use]
    pub fn undo_moves(&self, by: Side) -> usize {
        let game = &self.view.game;
        game.take_back_to(by.into()).map_or(0, |to| game.len() - to)
    }
}

impl Online {
    /// The online screen for `server`: the connect form when `connect` is
    /// false, else connecting at once (the runtime starts the worker); then
    /// `intent` once welcomed.
    #[must_use]
    pub fn new(server: Server, intent: Option<Intent>, lang: Lang, now: Instant) -> Online {
        Online {
            screen: Screen::Connect(ConnectForm {
                field: usize::from(!server.url.is_empty()),
                url: server.url.clone(),
                name: server.name.clone(),
            }),
            server,
            me: None,
            link: Link::Off,
            tables: Vec::new(),
            overlay: None,
            status: None,
            claim_note: None,
            entering_note: None,
            intent,
            asked: None,
            tokens: Tokens::default(),
            dots: true,
            lang,
            area: (100, 40),
            now,
            exit: None,
        }
    }

    /// The table shown, if any.
    #[must_use]
    pub fn table(&self) -> Option<&TableView> {
        match &self.screen {
            Screen::Table(t) => Some(t),
            _ => None,
        }
    }

    /// The smallest terminal the screen shown is drawn in (columns, rows):
    /// the lobby's, or for a table the game screen's for its board.
    #[must_use]
    pub fn needed_size(&self) -> (u16, u16) {
        let (w, h) = MIN_SIZE;
        match self.table() {
            Some(t) => {
                let (bw, bh) = crate::ui::layout::minimum(t.view.game.rules().size);
                (w.max(bw), h.max(bh))
            }
            None => (w, h),
        }
    }

    /// The line to send a friend to bring them to the table shown, while it
    /// is this client's and waits for an opponent: the command that joins
    /// it at the server this client connected to,
    /// `reversi online ws://HOST:PORT --join 12`.
    #[must_use]
    pub fn invitation(&self) -> Option<String> {
        let t = self.table()?;
        (t.seated && t.info.status == TableStatus::Waiting).then(|| {
            format!(
                "reversi online {} --join {}",
                crate::net::client::salon_url(&self.server.url),
                t.info.id
            )
        })
    }

    /// Whether the terminal is smaller than [`Online::needed_size`].
    #[must_use]
    pub fn is_too_small(&self) -> bool {
        let ((w, h), (have_w, have_h)) = (self.needed_size(), self.area);
        have_w < w || have_h < h
    }
}
