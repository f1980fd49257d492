#!/bin/sh
# Thin wrapper: see catch-misreadings.js. Run from the repository root.
exec node "$(dirname "$0")/catch-misreadings.js" "$@"
