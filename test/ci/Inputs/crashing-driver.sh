#!/bin/sh
# A driver that answers --version and --list-checks like the real one ($REAL)
# and then dies of SIGSEGV on every file, like a crashing clang-tidy.
case "$*" in
  *--list-checks*|*--version*) exec "$REAL_DRIVER" "$@" ;;
esac
kill -SEGV $$
