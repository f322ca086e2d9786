#!/bin/sh
# A test NBoard engine that exits as soon as it is asked for a move.
while read -r cmd arg rest; do
  case "$cmd" in
    nboard) echo "set myname crash" ;;
    ping) echo "pong $arg" ;;
    go) exit 3 ;;
  esac
done
