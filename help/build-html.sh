#!/bin/sh
# build-html.sh YELP_BUILD OUTDIR PAGE...: the user guide as HTML in OUTDIR,
# made afresh so that a page removed from the guide does not linger.
set -eu
yelp_build=$1
out=$2
shift 2
rm -rf "$out"
mkdir -p "$out"
exec "$yelp_build" html -o "$out/" "$@"
