#!/bin/sh
# Fake child: a well-formed 3-byte frame whose payload is not a Response (an unterminated varint).
printf '\003\000\000\000\377\377\377'
exec cat >/dev/null
