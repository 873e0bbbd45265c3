#!/bin/sh
# e2e-sweep.sh: Sweep… (main menu) in the editor, end to end, with real input events
#
# Opens the Lotka-Volterra example in the real application, opens the
# Sweep dialog from the main menu, checks the variables m and beta (five
# values each, the dialog's defaults: 25 runs), presses Run Sweep and
# waits for the ensemble plot, points at it (a curve under the pointer is
# drawn highlighted: the window changes), exports the Runs table through
# its button and file chooser, and compares the file with
# `qdevs-cli sweep --out --cpu-time` of the same sweep, but for the CPU
# times. The widgets are found where the editor says they are
# (QD_TEST_GEOMETRY, ui/qd-test-geometry.c), not at fixed positions.
#
# Needs xdotool, xvfb-run, and ImageMagick's import or xwd (x11-apps) for
# the screenshots (exit 77, "skipped", without them).
# Set QD_E2E_KEEP=DIR to keep the screenshots in DIR.
set -u

SRC=${QD_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
MODEL=$SRC/data/examples/lotka-volterra.qdevs
. "$SRC/tests/e2e-lib.sh"
e2e_init "$@"

# Each window says where its named widgets are (ui/qd-test-geometry.c).
export GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 GTK_A11Y=none QD_TEST_GEOMETRY=1
"$APP" "$MODEL" >"$WORK/app.log" 2>&1 &
APP_PID=$!

WID_1=$(timeout 30 xdotool search --sync --onlyvisible --name "Lotka" | head -n 1)
[ -n "$WID_1" ] || fail "the window did not appear"
xdotool windowsize "$WID_1" 1200 820
sleep 1

# The main menu, then S_weep… by its mnemonic.
at=$(centre 1 main-menu) || fail "no main menu button"
xdotool mousemove $at click 1
sleep 0.8
xdotool key w
WID_2=$(timeout 30 xdotool search --sync --onlyvisible --name "^Sweep" | head -n 1)
[ -n "$WID_2" ] || fail "Run > Sweep did not open the Sweep dialog"
xdotool windowsize "$WID_2" 1150 680
sleep 1
shot dialog

# m and beta (five values each, the dialog's defaults), then Run Sweep.
for name in sweep-var:m sweep-var:beta sweep-run; do
  at=$(centre 2 "$name") || fail "no $name in the Sweep dialog"
  xdotool mousemove $at click 1
  sleep 0.3
done

# 25 runs of 0.5 ms each: done at once; leave room for a slow machine.
# Points along a vertical line over the plot until one of them is on a
# curve, which is then drawn highlighted.
sleep 3
r=$(rect 2 sweep-plot) || fail "no plot in the Sweep dialog"
set -- $r
PX=$1 PY=$2 PW=$3 PH=$4
# Off the plot first, so that nothing is highlighted.
xdotool mousemove $((PX + PW / 2)) $((PY - 40))
sleep 0.5
shot ensemble
BEFORE=$SHOT
found=
for k in 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18; do
  y=$((PY + PH * k / 20))
  xdotool mousemove $((PX + PW / 2)) "$y"
  sleep 0.3
  xdotool mousemove $((PX + PW / 2 + 2)) $((y + 1))
  sleep 0.4
  shot hover
  if ! cmp -s "$BEFORE" "$SHOT"; then
    found=$y
    break
  fi
done
[ -n "$found" ] || fail "pointing at the plot highlights no curve (no change in the window)"
echo "ok: pointing at y = $found highlights a run"

# The Runs tab, its Export Table button, the chooser's name field.
at=$(centre 2 sweep-tab:runs) || fail "no Runs tab"
xdotool mousemove $at click 1
sleep 0.8
shot runs
at=$(centre 2 sweep-export-table) || fail "no Export Table button"
xdotool mousemove $at click 1
sleep 1.5
save_as "$WORK/editor.csv" || fail "Export Table did not write $WORK/editor.csv"

"$CLI" sweep "$MODEL" --vary m=0.05:0.15:5 --vary beta=0.05:0.15:5 --seed 1 \
  --out "$WORK/cli.csv" --cpu-time >/dev/null 2>&1 || fail "qdevs-cli sweep failed"
# Every column but cpu_s (the 9th: run, the two varied names, ok, the
# three counts, final_time, then cpu_s).
cut -d, -f9 --complement "$WORK/editor.csv" >"$WORK/editor-cut.csv"
cut -d, -f9 --complement "$WORK/cli.csv" >"$WORK/cli-cut.csv"
head -n 1 "$WORK/cli.csv" | cut -d, -f9 | grep -qx cpu_s || fail "the 9th column of the CSV is not cpu_s"
[ "$(wc -l <"$WORK/cli.csv")" -eq 26 ] || fail "qdevs-cli sweep wrote $(wc -l <"$WORK/cli.csv") lines, not 26"
cmp "$WORK/editor-cut.csv" "$WORK/cli-cut.csv" \
  || fail "the editor's table differs from qdevs-cli sweep --out"
echo "ok: the exported table equals qdevs-cli sweep --out (25 runs, CPU times aside)"

if [ -n "${QD_E2E_KEEP:-}" ]; then
  mkdir -p "$QD_E2E_KEEP"
  cp "$WORK"/dialog.* "$WORK"/ensemble.* "$WORK"/hover.* "$WORK"/runs.* "$QD_E2E_KEEP"/
fi
exit 0
