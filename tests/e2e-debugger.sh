#!/bin/sh
# The event debugger as a person uses it: the real editor on Cellier's
# first-order example, driven by xdotool's key presses (F11 one
# transition, Shift+F11 one back), looked at in screenshots.
#
# At each step the canvas rings the block of the transition: blue for an
# external transition, amber for an internal one. The test finds the
# ring's colour in the screenshot and checks where it is: the Sum's
# external transition (row 3 of the Transitions table), then the
# Integrator's (row 6) to its right, the Integrator's internal one
# (row 8) in the same place, the Sum again (row 13) and the Integrator
# again (row 16), in the table's order. Then three steps back and three
# forward again give the same pictures as before, pixel for pixel.
#
# Usage: e2e-debugger.sh [QDEVS]; skips (77) without xdotool, ImageMagick
# or a display. QD_E2E_SCREENSHOTS=DIR keeps the screenshots.
set -u

build_root=${MESON_BUILD_ROOT:-build}
qdevs=${1:-$build_root/app/qdevs}
src=${QD_SOURCE_DIR:-$(dirname "$0")/..}

. "$(dirname "$0")/e2e-lib.sh"

e2e_need xdotool import
e2e_display "-screen 0 1280x900x24" "$@"
e2e_built "$qdevs"

e2e_scratch qd-e2e
shots=${QD_E2E_SCREENSHOTS:-$work/shots}
mkdir -p "$shots"

fail ()
{
  echo "FAIL: $1"
  exit 1
}

e2e_isolate "$qdevs"

"$qdevs" "$src/data/examples/cellier-first-order.qdevs" >"$work/log" 2>&1 &
app_pid=$!
win=$(e2e_place_window "Cellier") || { cat "$work/log"; fail "the editor's window did not appear"; }
# Out of the canvas, so that no hover mark is drawn.
xdotool mousemove 640 20

presses=0
# Presses F11 until row $1 (from 1) of the Transitions table is shown.
step_to ()
{
  while [ $presses -lt "$1" ]; do
    xdotool key F11
    presses=$((presses + 1))
    sleep 0.5
  done
  sleep 1
}

# The ring of colour ($2, $3, $4) in screenshot $1's canvas (the window's
# top part): "PIXELS MEAN_X".
ring ()
{
  convert "$1" -crop 1280x430+0+100 +repage txt:- | awk -v R="$2" -v G="$3" -v B="$4" '
    NR > 1 {
      split ($1, xy, /[,:]/); c = $2; gsub (/[()]/, "", c); split (c, v, ",")
      if (v[1] - R <= 4 && R - v[1] <= 4 && v[2] - G <= 4 && G - v[2] <= 4 \
          && v[3] - B <= 4 && B - v[3] <= 4) { n++; sx += xy[1] }
    }
    END { if (n > 0) printf "%d %d\n", n, sx / n; else print "0 0" }'
}

shot ()
{
  import -window root "$shots/$1.png" || fail "no screenshot"
}

blue="38 115 243"
amber="245 140 13"

# Row 3: the Sum's external transition (the Step's output arrived).
step_to 3; shot row03
set -- $(ring "$shots/row03.png" $blue); n=$1; x_sum=$2
[ "$n" -gt 40 ] || fail "row 3: no blue ring on the canvas ($n pixels)"
# Row 6: the Integrator's external transition, right of the Sum.
step_to 6; shot row06
set -- $(ring "$shots/row06.png" $blue); n=$1; x_int=$2
[ "$n" -gt 40 ] || fail "row 6: no blue ring ($n pixels)"
[ "$x_int" -gt $((x_sum + 60)) ] || fail "row 6: the ring is at x = $x_int, not right of the Sum's ($x_sum)"
# Row 8: the Integrator's internal transition, amber, in the same place.
step_to 8; shot row08
set -- $(ring "$shots/row08.png" $amber); n=$1; x=$2
[ "$n" -gt 40 ] || fail "row 8: no amber ring ($n pixels)"
[ $((x - x_int)) -lt 25 ] && [ $((x_int - x)) -lt 25 ] || fail "row 8: the amber ring is at x = $x, not on the Integrator ($x_int)"
# Row 13: the Sum again (the Gain's output arrived); row 16: the Integrator.
step_to 13; shot row13
set -- $(ring "$shots/row13.png" $blue); x=$2
[ $((x - x_sum)) -lt 25 ] && [ $((x_sum - x)) -lt 25 ] || fail "row 13: the ring is at x = $x, not on the Sum ($x_sum)"
step_to 16; shot row16
set -- $(ring "$shots/row16.png" $blue); x=$2
[ $((x - x_int)) -lt 25 ] && [ $((x_int - x)) -lt 25 ] || fail "row 16: the ring is at x = $x, not on the Integrator ($x_int)"
echo "ok: Sum at x = $x_sum, then Integrator at x = $x_int, in the order of the table"

# Three back, to row 13: the same canvas as when row 13 was reached.
for k in 1 2 3; do xdotool key shift+F11; sleep 0.5; done
sleep 1; shot back13
convert "$shots/row13.png" -crop 1280x430+0+100 +repage "$work/a.png"
convert "$shots/back13.png" -crop 1280x430+0+100 +repage "$work/b.png"
diff=$(compare -metric AE "$work/a.png" "$work/b.png" null: 2>&1)
[ "$diff" = "0" ] || fail "three steps back: $diff pixels differ from row 13"
# Three forward, to row 16: the same window, pixel for pixel.
for k in 1 2 3; do xdotool key F11; sleep 0.5; done
sleep 1; shot forward16
diff=$(compare -metric AE "$shots/row16.png" "$shots/forward16.png" null: 2>&1)
[ "$diff" = "0" ] || fail "three steps forward again: $diff pixels differ from row 16"
echo "ok: three steps back and three forward give the same pictures"
grep -i "critical" "$work/log" && fail "GTK reported a critical"
exit 0
