#!/bin/bash
# e2e-monkey.sh: random input on an open example, for crashes
#
# Starts the real editor on an example and sends it N random actions
# through xdotool, drawn from a generator seeded with SEED: clicks, double
# clicks and drags (mostly on the canvas, some on the palette, the
# inspector and the run bar), right-clicks that open context menus and
# pick one of their items, wheel turns with and without Ctrl, and keys:
# Ctrl+Z/Y/C/V/X/A/D/R/F/G, Delete, F5, F7, Escape, Tab, arrows, Return
# and short texts typed into whatever has the focus; and drags with one
# of those keys pressed half way, the button still down. The editor must live
# through all of them: with G_DEBUG=fatal-criticals a GTK CRITICAL ends
# it, and a sanitizer build ends it on a memory error, so "still running
# at the end" is the test. The same SEED draws the same actions (not the
# same timing: an event can land before or after a redraw).
#
# Usage: e2e-monkey.sh [-n N] [-e EXAMPLE] QDEVS SEED...
#   N actions per seed (default 150), EXAMPLE a file of data/examples
#   (default rlc.qdevs). Each seed runs in a fresh editor; the first
#   crash stops the run, prints the seed, the action that was last sent
#   and the editor's output (the sanitizer's report is in it).
# With QD_E2E_SCREENSHOTS=DIR and ImageMagick's import, it keeps a
# screenshot of every 25th action in DIR.
# Exits 77 (skipped) without xdotool or xvfb-run. The actions stay below
# the header bar (its close button and menus would end or leave the
# session), keys that open file choosers or quit are not drawn, and a
# file chooser that a click opens is closed at once.
set -u

n_actions=150
example=rlc.qdevs
while getopts "n:e:" opt; do
  case "$opt" in
    n) n_actions=$OPTARG ;;
    e) example=$OPTARG ;;
    *) echo "usage: $0 [-n N] [-e EXAMPLE] QDEVS SEED..."; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: $0 [-n N] [-e EXAMPLE] QDEVS SEED..."; exit 2; }
qdevs=$1
shift

src=${QD_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
model=$src/data/examples/$example

command -v xdotool >/dev/null 2>&1 || { echo "SKIP: xdotool is not installed"; exit 77; }
if [ -z "${QD_E2E_INNER:-}" ]; then
  command -v xvfb-run >/dev/null 2>&1 || { echo "SKIP: xvfb-run is not installed"; exit 77; }
  # -noreset: the server must not restart between two seeds, when the
  # last editor has gone, or the next one finds no display.
  QD_E2E_INNER=1 exec xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" "$0" \
    -n "$n_actions" -e "$example" "$qdevs" "$@"
fi
[ -x "$qdevs" ] || { echo "FAIL: $qdevs is not built"; exit 1; }
qdevs=$(cd "$(dirname "$qdevs")" && pwd)/$(basename "$qdevs")
[ -f "$model" ] || { echo "FAIL: no example $model"; exit 1; }

. "$src/tests/e2e-lib.sh"
e2e_scratch qd-monkey

# A file chooser opened by a random click saves, if anything, in here.
export HOME="$work"
cd "$work" || exit 1
e2e_isolate "$qdevs"
export G_DEBUG=${G_DEBUG:-fatal-criticals}

# The window's size, and the part of it the actions use: below the header
# bar, inside the window. At 1200x900 the palette ends near x = 225, the
# inspector starts near x = 905 and the bottom panels near y = 775; drags
# start away from those pane handles (a drag there would shrink the canvas
# to nothing for the rest of the run).
win_w=1200
win_h=900
top=60

# Random numbers set variables: a $(...) would run in a subshell, which
# draws from a generator of its own, and the seed would not decide.
# R: a number in [0, $1).
rnd () { R=$((RANDOM % $1)); }
# PX PY: a point on the canvas.
canvas_point () { rnd 650; PX=$((240 + R)); rnd 660; PY=$((100 + R)); }
# PX PY: a point, $1 in 100 on the canvas, else anywhere below the
# header bar.
point ()
{
  rnd 100
  if [ "$R" -lt "$1" ]; then
    canvas_point
  else
    rnd $((win_w - 10)); PX=$((5 + R))
    rnd $((win_h - top - 5)); PY=$((top + R))
  fi
}
# PX PY: where a drag starts: mostly the canvas, else a palette row (a
# block dragged in) or the inspector.
drag_point ()
{
  rnd 100
  if [ "$R" -lt 75 ]; then
    canvas_point
  elif [ "$R" -lt 90 ]; then
    rnd 180; PX=$((20 + R)); rnd 690; PY=$((180 + R))
  else
    rnd 260; PX=$((920 + R)); rnd 660; PY=$((100 + R))
  fi
}
# K: one of the arguments.
pick () { rnd $#; shift "$R"; K=$1; }

keys=(ctrl+z ctrl+z ctrl+y ctrl+shift+z ctrl+c ctrl+v ctrl+v ctrl+x ctrl+a
      ctrl+d ctrl+r ctrl+f ctrl+g ctrl+shift+g Delete BackSpace F5 F5 F7
      Escape Escape Tab shift+Tab Up Down Left Right shift+Right Return
      ctrl+minus ctrl+equal ctrl+0 ctrl+1 alt+Up Menu shift+F10 space)
texts=("x" "2*" "k2" "1e3" "-1" "a b" "0")
leave_keys=(Tab Up Down Return shift+Tab Escape)
# Keys pressed in the middle of a drag, with the button down.
drag_keys=(ctrl+z ctrl+y ctrl+x ctrl+v Delete Escape F5 ctrl+a ctrl+g ctrl+d)

# A file chooser (a plot's Export buttons) is closed at once: random
# clicks in it could save files anywhere. Detached plot windows stay.
close_choosers ()
{
  for w in $(xdotool search --onlyvisible --pid "$app_pid" 2>/dev/null); do
    [ "$w" = "$main" ] && continue
    case "$(xdotool getwindowname "$w" 2>/dev/null)" in
      *Export*|*Save*|*Open*)
        xdotool windowfocus --sync "$w" key Escape 2>/dev/null ;;
    esac
  done
}

alive ()
{
  kill -0 "$app_pid" 2>/dev/null
}

last=
act ()
{
  last="$*"
  xdotool "$@" 2>/dev/null
}

# One random action.
action ()
{
  local r x y x2 y2 steps
  rnd 100; r=$R
  point 70; x=$PX; y=$PY
  if [ "$r" -lt 22 ]; then
    act mousemove "$x" "$y" click 1
  elif [ "$r" -lt 27 ]; then
    act mousemove "$x" "$y" click --repeat 2 --delay 60 1
  elif [ "$r" -lt 37 ]; then
    drag_point; x=$PX; y=$PY
    canvas_point; x2=$PX; y2=$PY
    rnd 5; steps=$((2 + R))
    act mousemove "$x" "$y" mousedown 1
    for i in $(seq 1 $steps); do
      xdotool mousemove $((x + (x2 - x) * i / steps)) $((y + (y2 - y) * i / steps))
      sleep 0.02
    done
    act mouseup 1
  elif [ "$r" -lt 47 ]; then
    # A drag with a key pressed half way (Ctrl+Z under a moving block).
    canvas_point; x=$PX; y=$PY
    canvas_point; x2=$PX; y2=$PY
    pick "${drag_keys[@]}"
    act mousemove "$x" "$y" mousedown 1
    xdotool mousemove $(((x + x2) / 2)) $(((y + y2) / 2))
    sleep 0.03
    act key "$K"
    sleep 0.03
    xdotool mousemove "$x2" "$y2"
    act mouseup 1
  elif [ "$r" -lt 57 ]; then
    # A context menu, then one of its items (or nothing).
    rnd 4
    if [ "$R" -gt 0 ]; then
      rnd 120; x2=$((x + 10 + R)); rnd 300; y2=$((y + 5 + R))
      act mousemove "$x" "$y" click 3
      sleep 0.25
      act mousemove "$x2" "$y2" click 1
    else
      act mousemove "$x" "$y" click 3
      sleep 0.25
      act key Escape
    fi
  elif [ "$r" -lt 62 ]; then
    rnd 2; x2=$R; rnd 2
    if [ "$x2" -eq 0 ]; then
      act mousemove "$x" "$y" click $((4 + R))
    else
      act mousemove "$x" "$y" keydown ctrl click $((4 + R)) keyup ctrl
    fi
  elif [ "$r" -lt 65 ]; then
    pick "${texts[@]}"
    act type --delay 15 -- "$K"
  elif [ "$r" -lt 70 ]; then
    # A field of the inspector: click, type, leave it with a key that
    # moves the focus (Tab, Up, Down) or applies (Return).
    rnd 260; x=$((920 + R)); rnd 660; y=$((100 + R))
    act mousemove "$x" "$y" click 1
    pick "${texts[@]}"
    act type --delay 15 -- "$K"
    pick "${leave_keys[@]}"
    act key "$K"
  else
    pick "${keys[@]}"
    act key "$K"
  fi
  rnd 6
  sleep 0.0$((3 + R))
}

run_seed ()
{
  local seed=$1 i rc
  RANDOM=$seed
  "$qdevs" "$model" >"$work/app.log" 2>&1 &
  app_pid=$!
  main=
  for i in $(seq 1 600); do
    main=$(xdotool search --onlyvisible --pid "$app_pid" 2>/dev/null | head -n 1)
    [ -n "$main" ] && break
    alive || break
    sleep 0.1
  done
  if [ -z "$main" ]; then
    echo "FAIL: seed $seed: the editor's window did not appear"
    sed 's/^/  app: /' "$work/app.log"
    return 1
  fi
  xdotool windowmove "$main" 0 0 windowsize "$main" "$win_w" "$win_h"
  sleep 1
  xdotool windowfocus --sync "$main" 2>/dev/null
  for i in $(seq 1 "$n_actions"); do
    action
    if ! alive; then
      wait "$app_pid"
      rc=$?
      app_pid=
      echo "FAIL: seed $seed: the editor ended (exit $rc) after action $i: xdotool $last"
      sed 's/^/  app: /' "$work/app.log"
      return 1
    fi
    close_choosers
    if [ -n "${QD_E2E_SCREENSHOTS:-}" ] && [ $((i % 25)) -eq 0 ]; then
      mkdir -p "$QD_E2E_SCREENSHOTS"
      import -window root "$QD_E2E_SCREENSHOTS/seed-$seed-$i.png" 2>/dev/null
    fi
    # Keys go to the editor even when a random click left the focus on
    # the root window.
    if [ $((i % 10)) -eq 0 ]; then
      xdotool search --onlyvisible --pid "$app_pid" 2>/dev/null | head -n 1 \
        | xargs -r -I{} xdotool windowfocus {} 2>/dev/null
    fi
  done
  # Still answering: a last Escape and a look at the process.
  xdotool key Escape 2>/dev/null
  sleep 0.5
  if ! alive; then
    wait "$app_pid"
    rc=$?
    app_pid=
    echo "FAIL: seed $seed: the editor ended (exit $rc) at the end"
    sed 's/^/  app: /' "$work/app.log"
    return 1
  fi
  kill "$app_pid" 2>/dev/null
  wait "$app_pid" 2>/dev/null
  app_pid=
  if grep -q "CRITICAL\|ERROR: AddressSanitizer\|runtime error:" "$work/app.log"; then
    echo "FAIL: seed $seed: the editor reported errors"
    sed 's/^/  app: /' "$work/app.log"
    return 1
  fi
  echo "ok - seed $seed: $n_actions actions on $example"
  return 0
}

for seed in "$@"; do
  run_seed "$seed" || exit 1
done
exit 0
