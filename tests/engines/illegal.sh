#!/bin/sh
# A test NBoard engine that answers every `go` with an illegal move (a1).
while read -r cmd arg rest; do
  case "$cmd" in
    nboard) echo "set myname illegal" ;;
    ping) echo "pong $arg" ;;
    go) echo "=== A1/0.0/0.0" ;;
    quit) exit 0 ;;
  esac
done
