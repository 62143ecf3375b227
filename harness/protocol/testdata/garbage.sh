#!/bin/sh
# Fake child: prints text where a frame belongs ("hell" read as a length is 1819043176 bytes).
printf 'hello, this is not a frame\n'
exec cat >/dev/null
