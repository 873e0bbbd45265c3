#!/bin/sh
# check-help.sh YELP_CHECK DIR: every xref of the guide names a page or a
# section that exists, every image is there, and every page is reachable.
# yelp-check prints what is wrong and succeeds all the same, so any
# output is the failure.
set -eu
check=$1
dir=$2
problems=$("$check" links "$dir"; "$check" media "$dir"; "$check" orphans "$dir")
if [ -n "$problems" ]; then
  printf '%s\n' "$problems" >&2
  exit 1
fi
