#!/bin/sh
# Fake child: answers Hello with HelloAck{protocol_version: 2}
# (Response field 1 = 0x0a, length 2; HelloAck field 1 varint = 0x08, value 2).
printf '\004\000\000\000\012\002\010\002'
exec cat >/dev/null
