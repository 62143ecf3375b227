#!/bin/sh
# Fake child: exits before answering anything.
echo "exit_early.sh: giving up" >&2
exit 3
