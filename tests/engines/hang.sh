#!/bin/sh
# A test NBoard engine that completes the handshake, then never answers `go`.
while read -r cmd arg rest; do
  case "$cmd" in
    nboard) echo "set myname hang" ;;
    ping) echo "pong $arg" ;;
    go) sleep 3600 ;;
    quit) exit 0 ;;
  esac
done
