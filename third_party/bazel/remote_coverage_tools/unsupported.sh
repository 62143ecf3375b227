#!/bin/sh
echo "coverage tools are not available in schedcheck's offline build" >&2
exit 1
