# English messages of the game screen (Fluent syntax: https://projectfluent.org).
# Every id here is used by the code and is also in fr.ftl (a test checks both).

## The language itself

# The language's name in itself, as the new-game screen shows it.
lang-name = English

## The new-game screen

newgame-field-language = Language
newgame-online-table = an online table
newgame-key-learn = learn the rules
newgame-key-rules = read the rules

## Keys named on screen

key-enter = Enter
# The key that answers yes in a window that asks (n answers no).
key-yes = y
key-esc = Esc

## The guided first game (reversi learn)

lesson-title = Learn the rules
lesson-step = Step { $n } of { $total }: { $title }
lesson-next = Enter: next step
lesson-leave = Enter: back to the new-game screen
lesson-key-move = move
lesson-page-down = PgDn
lesson-page-up = PgUp
lesson-key-play = play / next
lesson-key-leave = leave
lesson-key-quit = quit

lesson-coordinates-title = the board
lesson-coordinates = Columns are lettered a to h from left to right, rows numbered 1 to 8 from top to bottom; a square is named column first: d3 is column d, row 3. A game starts with four discs in the centre, White on d4 and e5, Black on d5 and e4. Black moves first.
lesson-coordinates-task = Put the cursor on a White disc and press Enter (or type its name, such as e5).
lesson-coordinates-done = Yes: { $square } holds a White disc.
lesson-wrong-black-disc = { $square } holds a Black disc; White's discs are the other two in the centre.
lesson-wrong-empty = { $square } is empty: column { $column }, row { $row }. Look at the four centre squares.

lesson-legal-title = legal moves
lesson-legal = You never move a disc: you add one on an empty square. The square must close at least one line: going from it in one of the eight directions (two across, two up and down, four diagonal), there must be one or more White discs in a row, then a Black one. The dots mark such squares: at the start Black has four, d3, c4, f5 and e6.
lesson-legal-task = Choose any marked square.
lesson-legal-done = { $square } is legal: a line of White discs runs from it to a Black disc.

lesson-first-title = the first move
lesson-first = Down the column from d3: d4 is White, then d5 is Black. A disc on d3 would catch d4 between itself and d5.
lesson-first-task = Play d3.
lesson-first-done = d4 turned Black: it lay between your new disc and d5, so the line closed. Only discs inside a closed line turn, and no other direction from d3 closes. A disc turned now can turn back later.
lesson-wrong-other-legal = { $square } is legal too, but this step asks for { $target }.

lesson-lines-title = several lines at once
lesson-lines = Every direction from the new disc is judged on its own: each one that closes turns over, all in the same move.
lesson-lines-task = Find the square that closes a row, a column and a diagonal together, and play it.
lesson-lines-done = c3 closed three lines at once: d3 and e3 along the row, c4 down the column, d4 and e5 on the diagonal. { $n ->
    [one] One disc turned.
   *[other] { $n } discs turned.
}
lesson-wrong-fewer-lines = { $square } closes { $lines ->
    [one] only one line
   *[other] only { $lines } lines
}. Look for a square where a row, a column and a diagonal each end at a Black disc.

lesson-pass-title = passing
lesson-pass = It was Black's turn, but not one square had a dot: no Black move closed a line. So Black passed, and the game did it for you. Passing is never a choice: while a dot remains you must play. White then played b4 and turned c3.
lesson-pass-task = Black can move again: play a marked square.
lesson-pass-done = Good. Had White been unable to move as well, the game would have ended there.

lesson-end-title = the end and the count
lesson-end = The game ends as soon as neither side can move, even with empty squares left. Then each side counts its discs: the higher count wins; equal counts are a draw.
lesson-end-task = Play c2, the last move of this game.
lesson-end-done = Nobody can move now, with { $empty ->
    [one] one square
   *[other] { $empty } squares
} still empty: the game is over. Black { $black }, White { $white }: Black wins. The empty squares count for nobody.

lesson-empties-title = empties to the winner
lesson-empties = Some rules give the squares left empty at the end to the winner: a 6×6 game does unless you choose otherwise, and any game can choose it on the new-game screen.
lesson-empties-task = Play c2 again, this time with the empty squares going to the winner.
lesson-empties-done = Black { $black }, White { $white }: the { $empty ->
    [one] empty square went
   *[other] { $empty } empty squares went
} to Black. The rule changes the score, never the winner; a draw shares them.

lesson-finished-title = well done
lesson-finished = You have seen every rule: legal moves, several lines at once, passes, the end before a full board and the count. On 6×6 the same rules apply on a smaller board; in Anti Reversi the side with fewer discs wins. R shows the rules in full at any time.

lesson-why-taken = { $square } already holds a { $colour ->
    [black] Black
   *[other] White
} disc: a disc goes on an empty square and never moves.
lesson-why-alone = { $square } touches no { $them ->
    [black] Black
   *[other] White
} disc, so no line can start from it.
lesson-why-open = From { $square }, no line of { $them ->
    [black] Black
   *[other] White
} discs ends at a { $us ->
    [black] Black
   *[other] White
} disc: nothing closes, so the move is not legal.
lesson-lines-wiped-out = White has no disc left: nobody can move, and the game ends at once, { $black }–0 for Black.

## The rules in full (R)

rules-heading = The rules
rules-close = Esc closes
rules-scroll = ↑↓ scroll, Esc closes
rules-board-title = The board and the four discs
rules-board = The board has 8 columns (a to h) and 8 rows (1 to 8); the small board has 6 of each. Every disc is black on one face and white on the other. The game starts with four discs on the centre squares, each colour on one diagonal: White on d4 and e5, Black on d5 and e4. Black moves first, then the sides take turns.
rules-moves-title = Legal moves, in eight directions
rules-moves = A move adds a disc of your colour on an empty square; discs on the board never move. The move is legal only if it closes a line: in at least one of the eight directions (two across, two up and down, four diagonal), the new disc touches one or more of the opponent's discs in an unbroken row, and one of your discs ends that row. The legal squares are marked with a dot.
rules-lines-title = Several lines at once
rules-lines = Each direction is judged on its own. Every line the move closes turns to your colour in the same move — a row, a column and a diagonal together if need be — and only the discs inside those lines turn. A turned disc can be turned back later.
rules-pass-title = Passing
rules-pass = When you have no legal move, you pass and the opponent plays again; the game passes for you. You can never pass while you have a legal move.
rules-end-title = The end, full board or not
rules-end = The game ends as soon as neither side can move: when the board is full, or earlier with empty squares left, for instance when one colour has no disc left.
rules-count-title = The count and the draw
rules-count = Each side then counts its discs. The higher count wins; equal counts make a draw.
rules-empties-title = Empties to the winner
rules-empties = By default on 8×8, empty squares left at the end count for nobody. With "empties to the winner" (the default on 6×6, a choice on the new-game screen) the winner is decided on the discs alone, then the empty squares are credited to the winner: added to the winner's count, or shared in a draw. In Anti Reversi, where the smaller count wins, they are added to the loser's count, so that there too they widen the winner's lead. The score changes, never the winner.
rules-variants-title = 6×6 and Anti Reversi
rules-variants = Reversi 6×6 plays by the same rules on a 6×6 board: a shorter game, of at most 32 moves. Anti Reversi keeps every move rule but turns the goal around: the side with fewer discs at the end wins.

## The online screen (reversi online; "an online table" on the new-game screen)

online-black = Black
online-white = White
online-variant-8x8 = 8×8
online-variant-6x6 = 6×6
online-variant-anti = Anti 8×8
online-scoring-nobody = to nobody
online-scoring-winner = to the winner
online-colour-random = random
online-no-clock = no clock
online-status-waiting = waiting
online-status-playing = playing
online-status-finished = finished
online-anyone = anyone
online-only = only { $name }
online-server-ai-short = server AI level { $level }
online-server-ai = the server's AI, level { $level }
online-any-person = a person
online-invite-type = only: type a name
online-invite-bad = The invited name will not do: { $reason }
online-invite-yourself = it is your own name
online-watching-invited = Table { $table } is only for { $name }: watching it
online-draw = Draw { $black }–{ $white }
online-wins = { $who } wins { $black }–{ $white }
online-wins-resigned = { $who } wins: { $loser } resigned
online-wins-on-time = { $who } wins on time
online-wins-abandoned = { $who } wins: { $loser } left the game
online-draw-abandoned = Draw: a player left the game
online-away = { $name } is disconnected
online-away-claim-in = { $name } is disconnected: you may claim the game in { $time }
online-away-claim = { $name } is disconnected: press w to claim the game
online-went-away = { $name } disconnected
online-came-back = { $name } is back
online-undo-cancelled = { $name } disconnected: the take-back request is cancelled
online-undo-answer-first = Answer the take-back request first (y/n)
online-claim-title = Opponent gone
online-claim-question = { $name } has left the table.
online-claim-choices = w claim the win   d call it a draw   Esc wait
online-claim-wait = You may claim the game in { $time }
online-claim-clock = { $name } is disconnected; their clock runs
online-claim-nothing = Your opponent is here: there is nothing to claim
online-no-claim = the game cannot be claimed now
online-no-table-never = there is no table { $table }
online-undo-asked = { $name } asks to take back { $n ->
    [1] their last move
   *[other] their last move and yours ({ $n } moves)
} — y/n
online-undo-title = Take back
online-connecting = connecting…
online-connected = connected
online-offline = not connected
online-reconnecting = reconnecting…
online-reconnecting-attempt = reconnecting… (attempt { $n })
online-reconnecting-next = reconnecting… (attempt { $n } in { $secs } s)
online-unreachable = Cannot reach the server at { $url }: { $reason }
online-refused = The server refused: { $message }
online-unreachable-keys = r try again   e change address or name   Esc back
online-take-back-keys = r take it back   e change address or name   Esc back
online-replaced = This session was opened elsewhere (another window or computer took it over) — r to take it back
online-taken = The name { $name } is in use on this server by a session this computer holds (another window?) — r to take it back
online-lost = Connection lost ({ $reason }); reconnecting…
online-reconnected = Reconnected
online-need-connection = Not connected: wait for the connection to come back
online-not-your-turn = It is not your turn
online-watching-only = You are watching this table
online-illegal = { $square } is not a legal move
online-sent = { $square } sent
online-undo-sent = Take-back asked; waiting for the answer
online-nothing-to-undo = You have no move to take back
online-undo-declined = The take-back was declined
online-undone = Moves taken back
online-undo-accepted = You accepted the take-back
online-undo-refused = You declined the take-back
online-waiting = Waiting for an opponent to join
online-waiting-draw = Waiting for an opponent; colours are drawn when the game starts
online-table-gone = The table is gone
online-server-error = Server: { $message }
online-why-refused = nobody answers at that address (is the server running?)
online-why-no-answer = no answer in time
online-why-unknown-host = unknown host name
online-why-closed = the connection was closed
online-why-untrusted = the server's certificate is not trusted (reversi online --ca FILE adds it)
online-why-wrong-name = the server's certificate is for another name
online-why-expired = the server's certificate has expired
online-why-not-tls = the server does not speak TLS at this address (try ws://)
online-no-bad-request = the server did not understand the request
online-no-version = the server speaks another version of the protocol
online-no-bad-name = the name is not valid (letters, digits, '_', '-', '.'; at most 20)
online-no-name-taken = this name is in use; pick another
online-no-bad-token = the session of this name belongs to someone else
online-no-such-table = there is no such table any more
online-no-table-full = the table has no free seat
online-no-not-invited = this table is for an invited player
online-no-not-seated = you do not sit at this table
online-no-not-playing = the game is not running
online-no-not-your-turn = it is not your turn
online-no-illegal = that move is against the rules
online-no-undo = no take-back is possible now
online-no-bad-table = the server refused these table settings
online-no-ai-busy = the server's AI plays too many tables; try again later
online-no-limit = too many tables: leave one first
online-no-in-game = the game is running: resign to leave it
online-no-table = No table selected
online-kept = Game kept in { $path }
online-not-kept = Game not kept in { $path }: { $error }
online-not-remembered = Server and name not remembered: { $error }
online-no-thread = cannot start the network thread: { $error }
online-bad-name = Name: { $error }
online-name-empty = the name is empty
online-name-too-long = the name is longer than { $max } characters
online-name-bad-char = the name may only hold letters, digits, '_', '-' and '.', not { $char }
online-name-reserved = names starting with "AI-" are kept for the server's engine
online-name-restricted = { $char } is not used in names
online-name-mixed-scripts = { $char } is from another script than the letters before it: write the name in one script
online-bad-url = Address: expected ws://host:port or wss://host:port
online-resign-title = Resign
online-resign-question = Resign this game?
online-leave-title = Leave
online-leave-question = Leave this table?
online-col-players = Players
online-col-variant = Variant
online-col-scoring = Empties
online-col-clock = Clock
online-col-status = Status
online-col-watching = Watching
online-lobby = Salon
online-no-tables = No tables yet: press c to create one
online-create = New online table
online-field-board = Board
online-field-empties = Empty squares
online-field-colour = Your colour
online-field-clock = Clock
online-field-opponent = Opponent
online-connect = Play online
online-field-server = Server
online-field-name = Your name
online-you = you
online-you-are = you: { $name }
online-to-move-yours = { $side } to move — your turn
online-to-move = { $side } to move
online-to-move-named = { $side } to move ({ $name })
online-spectators = { $n ->
    [one] 1 watching
   *[other] { $n } watching
}
online-chat = Chat
online-table = Table { $id }
online-key-next-field = next field
online-key-connect = connect
online-key-back = back
online-key-choose = choose
online-key-join = join (or watch)
online-key-watch = watch
online-key-create = create
online-key-quit = quit
online-key-change = change
online-key-create-table = create
online-key-send = send
online-key-cancel = cancel
online-key-replay = replay
online-key-save = save
online-key-chat = chat
online-key-lobby = back to the lobby
online-key-move = move
online-key-play = play
online-key-undo = ask to take back
online-key-claim = claim
online-key-resign = resign or leave
online-key-leave = leave
online-key-help = help
key-home = Home
key-end = End
online-help-title = Keys
online-help-close = ? or Esc closes
online-help-choose = choose a table
online-help-first-last = the first / the last table
online-help-join = join the table (or watch it when it is not open to you)
online-help-watch = watch the table
online-help-create = create a table
online-help-refresh = ask the server for the list again
online-help-back = back to the new-game screen
online-help-undo = ask the opponent to take back your last move
online-help-claim = claim the game when the opponent has left (the win or a draw)
online-help-chat = type a line to the table (Enter sends it)
online-help-replay-save = once the game is over: replay it / save it (GGF)
online-help-resign = resign (asks first), or leave a watched or finished table
online-help-help = this help
online-help-quit = quit at once
online-help-invite = copy the line that invites a friend to your waiting table
online-key-invite = copy the invitation
online-invite-line = Invite a friend: send them this line (y copies it)
online-invite-copied = Invitation copied
online-help-chat-scroll = scroll the chat back to older lines / on to newer ones
online-chat-older = Chat (earlier; PgDn)
## Words used everywhere

side-name = { $side ->
    [black] Black
   *[other] White
}
level-label = { $n } ({ $name })
level-name = { $n ->
    [1] beginner
    [2] novice
    [3] casual
    [4] hobby
    [5] improver
    [6] intermediate
    [7] club
    [8] advanced
    [9] strong
    [10] tournament
    [11] expert
   *[12] master
}
level-who = { $n ->
    [1] learning the rules
    [2] your first wins
    [3] casual games
    [4] casual players
    [5] keen casual players
    [6] new club players
    [7] club players
    [8] good club players
    [9] strong players
    [10] tournament players
    [11] experts
   *[12] masters
}
level-how = { $n ->
    [1] grabs the most discs, never looks ahead
    [2] keeps its options open, blind to corners
    [3] knows corners and edges, looks one move ahead
    [4] knows corners, looks two moves ahead
    [5] sees corners and edges, three moves ahead
    [6] a real feel for the board, short sight
    [7] 3 moves ahead, the last 8 moves perfect
    [8] 4 moves ahead, the last 10 perfect
    [9] 6 moves ahead, the last 12 perfect
    [10] 8 moves ahead, the last 14 perfect
    [11] 12 moves ahead, the last 18 moves perfect
   *[12] full strength, up to 4 seconds a move
}
move-pass = pass
outcome = { $winner ->
    [black] Black wins { $black }–{ $white }
    [white] White wins { $white }–{ $black }
   *[none] Draw { $black }–{ $white }
}
result-unfinished = unfinished
result-resigned = { $side ->
    [black] Black resigned
   *[white] White resigned
}
result-on-time = { $side ->
    [black] Black lost on time
   *[white] White lost on time
}
rules-short-anti = anti
rules-short-nobody = , empties to nobody
rules-short-winner = , empties to winner
seconds = { $s } s

## The new-game screen (fields, values, keys)

newgame-title = New game
newgame-field-opponent = Opponent
newgame-field-colour = Your colour
newgame-field-level = AI level
newgame-field-board = Board
newgame-field-rules = Rules
newgame-field-empties = Empty squares
opponent-computer = the computer
opponent-human = a person, same keyboard
opponent-watch = none: computer vs computer
colour-random = drawn at random
colour-fixed = { $side ->
    [black] Black
   *[other] White
}
rules-normal = normal: most discs win
rules-anti = anti: fewest discs win
empties-nobody = count for nobody
empties-winner = go to the winner
newgame-level-for = Level { $n } is for { $who }:
key-choose = choose
key-change = change
key-start = start
key-help-rules = help and rules
key-back-to-game = back to the game
note-watching = Watching the AI play itself: t takes over a side
note-drawn = Drawn at random: you play { $you ->
    [black] Black, the AI plays White
   *[other] White, the AI plays Black
}
note-you-play = You play { $you ->
    [black] Black
   *[other] White
}

## The panel beside the board

player-you = You
player-human = Human
player-ai = AI { $n } { $name }
turn-game-over = Game over
turn-weighing = Weighing every move
turn-thinking = { $side ->
    [black] Black
   *[other] White
} is thinking
turn-paused = { $side ->
    [black] Black
   *[other] White
} to move (paused: Space resumes)
turn-yours = Your move ({ $side ->
    [black] Black
   *[other] White
})
turn-to-move = { $side ->
    [black] Black
   *[other] White
} to move
typed-row = typed: now the row, 1 to 8
game-over = Game over: { $result }
empties-to-winner-note = empties to the winner
empties-shared-note = empties shared
replay-header = Replay — move { $ply } of { $len }
replay-start = The start position
replay-passed = { $side ->
    [black] Black
   *[other] White
} passed (no legal move)
replay-played = { $side ->
    [black] Black
   *[other] White
} played { $square }: { $n } flipped
autoplay-every = Autoplay: a move every { $time }
moves-title = Moves
moves-played = { $n } played
empties-against-loser-note = empties counted against the loser
moves-none = No moves played

## Keys in the footer and the panel

key-space = Space
key-arrows = arrows
key-home-end = Home/End PgUp/PgDn
key-step = step
key-autoplay = autoplay
key-continue-here = continue here
key-review = review
key-mistakes = mistakes
key-pace = pace
key-jump = jump
key-leave = leave
key-quit = quit
key-replay = replay
key-new-game = new game
key-save = save
key-step-back = step back
key-help = help
key-move = move
key-play = play
key-undo = undo
key-redo = redo
key-hint = hint
key-new = new
key-pause = pause
key-take-over = take over
key-back = back

## The help window

help-title = Help
help-rules-title = Rules
help-key-enter-space = Enter Space
help-key-click = click
help-key-dots = L or .
help-key-replay = v or click
help-move-cursor = move the cursor
help-play-cursor = play at the cursor
help-type-square = type a square to play it
help-click = play the clicked square
help-undo-redo = undo / redo (back to your previous turn)
help-hint = hint: every move's score, best highlighted
help-dots = legal-move dots on/off
help-take-over = hand the side to move to the AI, or take it
help-pace = pause AI vs AI; AI pace faster / slower
help-replay = replay move by move (click a move in the list)
help-review = review moves, jump: ?!/?/?? lost 1+/4+/10+ discs
help-save = save the game (GGF) / copy the moves
help-new = new game
help-rules-full = the rules in full
help-close = this help / close a window, hide the hint
help-quit = quit (asks while a game is unfinished) / at once
help-rules-1 = Place a disc so that it encloses a straight line of the
help-rules-2 = opponent's discs; they all turn. No legal move: you pass.
help-rules-3 = When neither side can move the game ends and the most
help-rules-4 = discs win (fewest in Anti Reversi).

## Windows that ask

confirm-quit-title = Quit
confirm-quit-1 = The game is not finished.
# The keys of the quit question: keep the game and quit, discard it and quit.
confirm-quit-keep-key = k
confirm-quit-keep = keep it and quit (offered again next time)
confirm-quit-discard-key = d
confirm-quit-discard = discard it and quit
confirm-quit-back = back to the game
confirm-continue-title = Continue from here
confirm-continue-dropped = { $n ->
    [one] The 1 later move will be dropped.
   *[other] The { $n } later moves will be dropped.
}
confirm-continue-ask = Play on from this move?
confirm-resume-title = Resume
confirm-resume-saved = An unfinished game ({ $n ->
    [one] 1 move
   *[other] { $n } moves
}) was saved.
confirm-resume-ask = Resume it?
too-small-title = Terminal too small
too-small-need = need { $need }, have { $have }
too-small-enlarge = Enlarge the window (q quits)
too-small-enlarge-online = Enlarge the window (Ctrl-C quits)

## Status messages

status-analysis-failed = The analysis failed ({ $message })
status-ai-failed = The AI failed ({ $message }); t takes over its side, Space retries
status-playing-on = Playing on from move { $ply }; { $n ->
    [one] 1 later move dropped
   *[other] { $n } later moves dropped
}
status-resume-later = The unfinished game stays saved until a new game replaces it
status-back-to-game = Back to the game
status-off-board = { $square } is not on the { $size } board
status-not-a-column = { $key } is not a column: type a square as its column, { $first } to { $last }, then its row (f5)
status-column-first = Type a square as its column first, then its row (f5)
status-resumed = Resumed
status-paused = Paused
status-nothing-to-replay = No moves to replay yet
status-replay-keys = Replay: ←/→ step, Home/End, PgUp/PgDn, Space autoplay, c continue, Esc leaves
status-nothing-to-copy = No moves to copy yet
status-copied = Copied: { $moves }
status-dots = Legal-move dots { $on ->
    [yes] on
   *[no] off
}
status-ai-pace = AI pace: at least { $time } a move (+ faster, - slower)
status-game-over = Game over: { $result }. n new game, u step back, q quit
status-wait-ai = Wait: { $side ->
    [black] Black
   *[other] White
} (AI) is to move
status-occupied = { $square } is not legal: the square is occupied
status-encloses-nothing = { $square } is not legal: it encloses no line
status-cannot-pass = { $side ->
    [black] Black
   *[other] White
} cannot pass: a legal move exists
status-over = the game is over
status-back-to-move = Back to move { $n }
status-nothing-to-undo = Nothing to undo
status-nothing-to-redo = Nothing to redo
status-forward-to-move = Forward to move { $n }
status-hint-hidden = Hint hidden
status-hint-shown = Hint: scores for the side to move, best highlighted
status-hint-book = Hint: from the opening book, best highlighted
status-hint-person = A hint is only for a person's turn
status-you-now-play = You now play { $side ->
    [black] Black
   *[other] White
}
status-ai-now-plays = The AI (level { $n }, { $name }) now plays { $side ->
    [black] Black
   *[other] White
}
status-ai-illegal = The AI proposed an illegal move ({ $error }); t takes over
status-played = { $side ->
    [black] Black
   *[other] White
} played { $mv }
status-passes = { $side ->
    [black] Black
   *[other] White
} has no legal move and passes
status-playing-on-last = Playing on from the last move
status-replay-left = Replay left
status-autoplay-started = Autoplay started (+ faster, - slower, Space stops)
status-autoplay-stopped = Autoplay stopped
status-autoplay-pace = Autoplay pace: a move every { $time }
status-config-unused = Config not used ({ $error }); defaults chosen
status-choices-not-saved = Choices not saved: { $error }
status-not-saved = Not saved: { $error }
status-saved-to = Saved to { $path }
status-not-saved-to = Not saved to { $path }: { $error }
status-ai-pace-none = AI pace: no wait, as fast as it thinks (- slower)
status-autosave-failed = Autosave failed: { $error }

## The review in replay

review-hidden = Review hidden (a shows it again)
review-shown = Review shown: [ ] jump to mistakes
review-started = Review started: [ ] jump to mistakes
review-no-mistake = { $forward ->
    [yes] No later mistake
   *[no] No earlier mistake
}{ $done ->
    [yes] {""}
   *[no] {" "}reviewed yet
}
review-step-to-move = Review: step to a move to see its score
review-thinking = Review: thinking about this move…
review-forced-pass = { $side ->
    [black] Black
   *[other] White
} had no move: a forced pass
review-best = { $side ->
    [black] Black
   *[other] White
} { $mv }: the best move ({ $score })
review-class = { $class ->
    [inaccuracy] inaccuracy
    [mistake] mistake
    [blunder] blunder
   *[best] best
}
review-worse = { $side ->
    [black] Black
   *[other] White
} { $mv }{ $mark }: { $class }, -{ $loss }
review-where = { $score } where { $best } gave { $best_score }
review-progress = { $running ->
    [yes] Reviewing…
   *[no] Reviewed
} { $done } of { $total } moves
review-per-move = { $loss }/move
review-worst = worst: move { $n } { $mv } (-{ $loss })
review-decided-start = Decided from the start (exact)
review-decided-at = Decided at move { $n }
review-decided-never = Outcome: not certain yet
review-left-book = left the book: move { $n } { $mv } (book { $value }; its best { $best } { $best_value })
review-left-book-unknown = left the book: move { $n } { $mv } (a move it does not know; its best { $best } { $best_value })
graph-caption = Black { $now } { $exact }exact { $estimate }estimate

## Saved games

note-replay-record = { $black } vs { $white }, { $result }: replay (Esc leaves)
note-resumed = { $black } vs { $white }: resumed after { $n ->
    [one] 1 move
   *[other] { $n } moves
}
note-review-unread = { $note }; its saved review was not read ({ $error })
note-autosave-moved = The autosaved game could not be read ({ $error }); it was moved to { $path }
note-autosave-stuck = The autosaved game could not be read ({ $error }) nor moved aside ({ $reason })
note-replay-transcript = Replay of { $n ->
    [one] 1 move
   *[other] { $n } moves
}: → steps, Esc leaves
players-vs = { $black } vs { $white }
note-collection = { $players }, { $result }: replay (Esc leaves)
note-game-of = Game { $n }/{ $count }: { $note }
note-not-played-out = { $result } (not played out)
