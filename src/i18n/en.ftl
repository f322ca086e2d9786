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
key-esc = Esc

## The guided first game (reversi learn)

lesson-title = Learn the rules
lesson-step = Step { $n } of { $total }: { $title }
lesson-next = Enter: next step
lesson-leave = Enter: back to the new-game screen
lesson-key-move = move
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
lesson-legal = You never move a disc: you add one on an empty square. The square must close at least one line: going from it in one of the eight directions (two across, two up and down, four diagonal), one or more White discs in a row, then a Black one. The dots mark such squares: at the start Black has four, d3, c4, f5 and e6.
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
lesson-empties = Some rules give the squares left empty at the end to the winner: every 6×6 game here does, and an 8×8 game can choose it on the new-game screen.
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
rules-empties = By default on 8×8, empty squares left at the end count for nobody. With "empties to the winner" (the default on 6×6, a choice on the new-game screen) they are added to the winner's count, and shared in a draw: the score changes, never the winner.
rules-variants-title = 6×6 and Anti Reversi
rules-variants = Reversi 6×6 plays by the same rules on a 6×6 board: a shorter game, of at most 32 moves. Anti Reversi keeps every move rule but turns the goal around: the side with fewer discs at the end wins.

## The online screen (reversi online; "an online table" on the new-game screen)

online-black = Black
online-white = White
online-variant-8x8 = 8×8
online-variant-6x6 = 6×6
online-variant-anti = Anti 8×8
online-scoring-nobody = empties to nobody
online-scoring-winner = empties to winner
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
online-draw = Draw { $black }–{ $white }
online-wins = { $who } wins { $black }–{ $white }
online-wins-resigned = { $who } wins: { $loser } resigned
online-wins-on-time = { $who } wins on time
online-undo-asked = { $name } asks to take back the last move — y/n
online-undo-title = Take back
online-connecting = connecting…
online-connected = connected
online-offline = not connected
online-reconnecting = reconnecting…
online-reconnecting-attempt = reconnecting… (attempt { $n })
online-unreachable = Cannot reach the server at { $url }: { $reason }
online-refused = The server refused: { $message }
online-unreachable-keys = r try again   e change address or name   Esc back
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
online-table-gone = The table is gone
online-server-error = Server: { $message }
online-no-table = No table selected
online-kept = Game kept in { $path }
online-not-kept = Game not kept in { $path }: { $error }
online-saved = Saved to { $path }
online-not-saved = Not saved to { $path }: { $error }
online-no-data-dir = Not saved: no data directory
online-not-remembered = Server and name not remembered: { $error }
online-no-thread = cannot start the network thread: { $error }
online-bad-name = Name: { $error }
online-bad-url = Address: expected ws://host:port or wss://host:port
online-resign-title = Resign
online-resign-question = Resign this game?
online-leave-title = Leave
online-leave-question = Leave this table?
online-col-players = Players
online-col-variant = Variant
online-col-scoring = Scoring
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
online-to-move-yours = { $side } to move — your turn
online-to-move = { $side } to move
online-to-move-named = { $side } to move ({ $name })
online-spectators = { $n ->
    [one] 1 watching
   *[other] { $n } watching
}
online-chat = Chat
online-moves = Moves
online-moves-played = { $n } played
online-table = Table { $id }
online-too-small = Terminal too small
online-key-next-field = next field
online-key-connect = connect
online-key-back = back
online-key-choose = choose
online-key-join = join (or watch)
online-key-watch = watch
online-key-create = create
online-key-refresh = refresh
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
online-key-dots = dots
online-key-resign = resign or leave
online-key-leave = leave
