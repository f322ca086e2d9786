# English messages of the game screen (Fluent syntax: https://projectfluent.org).
# Every id here is used by the code and is also in fr.ftl (a test checks both).

## The language itself

# The language's name in itself, as the new-game screen shows it.
lang-name = English

## The new-game screen

newgame-field-language = Language
