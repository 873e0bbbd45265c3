#!/bin/sh
# Merges the strings added or changed in the sources into every
# translation (po/LL.po), after a merge or before a release:
#
#   po/update-po.sh [BUILDDIR]        (BUILDDIR: default "build")
#
# 1. lists in po/POTFILES every source that now has marked strings,
# 2. extracts po/qdevs.pot and merges it into each po/LL.po
#    (meson's targets qdevs-pot and qdevs-update-po),
# 3. prints what is left to translate: untranslated messages, and the
#    fuzzy ones msgmerge guessed from a similar old string (check the
#    guess, then delete the "#, fuzzy" line).
#
# The tests po-LL (suite "data") fail until both lists are empty.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}

python3 po/check-potfiles.py . --update
ninja -C "$build" qdevs-pot qdevs-update-po
for po in po/*.po; do
  echo "== $po"
  msgfmt --check --statistics -o /dev/null "$po"
  for kind in only-fuzzy untranslated; do
    # "FILE:LINE: msgid" for each, the header left out
    msgattrib --$kind --no-obsolete --no-wrap "$po" |
      awk -v kind="${kind#only-}" '/^#: / { at = $2 }
        /^msgid / && at != "" { id = substr($0, 7) }
        /^"/ && id == "\"\"" { id = $0 }
        /^msgstr/ && at != "" { print "  " kind ", " at ": " id; at = "" }'
  done
done
