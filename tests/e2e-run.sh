#!/bin/sh
# e2e-run.sh: the editor's Run, end to end, with real input events
#
# Opens the Lotka-Volterra example in the real application, switches real
# time on at 100x (so the 300 s run takes about 3 s of wall time), presses
# F5, takes two screenshots while the run goes on (they must differ: the
# plot grows), lets it finish, exports the plot's CSV through Ctrl+E and
# its file chooser, and compares the file with `qdevs-cli run --csv` of
# the same diagram, byte for byte.
#
# Needs xdotool, xvfb-run, and ImageMagick's import or xwd (x11-apps) for
# the screenshots (exit 77, "skipped", without them).
# Set QD_E2E_KEEP=DIR to keep the screenshots in DIR.
set -u

SRC=${QD_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
MODEL=$SRC/data/examples/lotka-volterra.qdevs
. "$SRC/tests/e2e-lib.sh"
e2e_init "$@"

export GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 GTK_A11Y=none
"$APP" "$MODEL" >"$WORK/app.log" 2>&1 &
APP_PID=$!

WID=$(timeout 30 xdotool search --sync --onlyvisible --name "Lotka" | head -n 1)
[ -n "$WID" ] || fail "the window did not appear"
xdotool windowsize "$WID" 1200 820
sleep 1

# Real time (Alt+R toggles it), then the speed scale next to it to its
# end, 100x.
xdotool key --window "$WID" alt+r
sleep 0.3
xdotool key --window "$WID" Tab End
sleep 0.3

xdotool key --window "$WID" F5
sleep 0.8
shot first
FIRST=$SHOT
# The run paces itself at 100x real time; on a loaded machine (or under
# a sanitizer) a frame may take long to come: look again, up to 10 s,
# until the window has changed.
for i in 1 2 3 4 5 6 7 8 9 10; do
  sleep 1
  shot "second-$i"
  SECOND=$SHOT
  cmp -s "$FIRST" "$SECOND" || break
done
if cmp -s "$FIRST" "$SECOND"; then
  fail "the screenshots during the run stay the same for 10 s: the plot does not grow"
fi
echo "ok: the window changed while the run went on"

# 300 s at 100x: done after about 3 s; leave room for a slow machine.
sleep 3
shot finished

xdotool key --window "$WID" ctrl+e
sleep 1.5
# The chooser's name field has the focus: a full path replaces the name.
save_as "$WORK/editor.csv" || fail "Ctrl+E did not write $WORK/editor.csv"

"$CLI" run "$MODEL" --csv "$WORK/cli.csv" >/dev/null || fail "qdevs-cli run failed"
cmp "$WORK/editor.csv" "$WORK/cli.csv" || fail "the editor's CSV differs from qdevs-cli run --csv"
echo "ok: the exported CSV equals qdevs-cli run --csv ($(wc -l <"$WORK/cli.csv") lines)"

if [ -n "${QD_E2E_KEEP:-}" ]; then
  mkdir -p "$QD_E2E_KEEP"
  cp "$WORK"/first.* "$WORK"/second.* "$WORK"/finished.* "$QD_E2E_KEEP"/
fi
exit 0
