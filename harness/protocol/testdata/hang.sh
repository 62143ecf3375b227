#!/bin/sh
# Fake child: reads its requests and never answers.
exec cat >/dev/null
