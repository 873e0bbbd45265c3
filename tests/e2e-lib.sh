# e2e-lib.sh: what the end-to-end scripts that run the editor share
#
# Sourced by e2e-run.sh and e2e-sweep.sh after they set SRC. e2e_init "$@"
# sets BUILD ($QD_BUILD_DIR, or SRC/build), the editor APP and qdevs-cli
# CLI built there, tries the script twice (synthetic input on a
# loaded machine can lose an event; a real defect fails both attempts),
# skips (77) without xdotool, xvfb-run or a screenshot tool, starts it
# again inside a display of its own, and makes the scratch folder WORK,
# removed on exit with the editor (APP_PID) ended. Then:
#
#   fail MESSAGE     prints it and the editor's log, keeps the screenshots
#                    in $QD_E2E_KEEP when set, and exits 1
#   shot NAME        a screenshot of the whole display into SHOT
#   rect WINDOW NAME the rectangle "X Y WIDTH HEIGHT" on the screen of the
#                    widget NAME of the editor's WINDOW-th window (with
#                    QD_TEST_GEOMETRY=1, ui/qd-test-geometry.c) from that
#                    window's last report in the log $E2E_LOG (default
#                    $WORK/app.log); WID_n, when set, is that window's X
#                    id (unset: the window is at the screen's corner)
#   centre WINDOW NAME  its centre "X Y", once it is there (up to 20 s)
#   save_as PATH     types PATH into the file chooser's name field (which
#                    has the focus), accepts it, and waits up to 5 s for
#                    the file to be written; fails (1) when it is not
#   drag X0 Y0 X1 Y1 a press at (X0, Y0), a move in small steps (as a
#                    hand moves) and a release at (X1, Y1)

# e2e_retry "$@": runs the script (with those arguments) once more when
# its first attempt fails, other than by skipping.
e2e_retry ()
{
  if [ -z "${QD_E2E_ATTEMPT:-}" ]; then
    QD_E2E_ATTEMPT=1 "$0" "$@" && exit 0
    rc=$?
    [ "$rc" -eq 77 ] && exit 77
    echo "# first attempt failed (exit $rc); trying once more"
    QD_E2E_ATTEMPT=2 exec "$0" "$@"
  fi
}

e2e_init ()
{
  BUILD=${QD_BUILD_DIR:-$SRC/build}
  APP=$BUILD/app/qdevs
  CLI=$BUILD/app/qdevs-cli
  e2e_retry "$@"
  if ! command -v xdotool >/dev/null 2>&1 || ! command -v xvfb-run >/dev/null 2>&1; then
    echo "skipped: xdotool and xvfb-run are needed"
    exit 77
  fi
  if ! command -v import >/dev/null 2>&1 && ! command -v xwd >/dev/null 2>&1; then
    echo "skipped: xwd (x11-apps) or import (imagemagick) is needed for the screenshots"
    exit 77
  fi
  if [ ! -x "$APP" ] || [ ! -x "$CLI" ]; then
    echo "skipped: $APP or $CLI is not built"
    exit 77
  fi
  # Once more inside a display of our own.
  if [ -z "${QD_E2E_INNER:-}" ]; then
    QD_E2E_INNER=1 exec xvfb-run -a -s "-screen 0 1280x900x24" "$0" "$@"
  fi
  WORK=$(mktemp -d)
  APP_PID=
  trap e2e_cleanup EXIT
}

e2e_cleanup ()
{
  if [ -n "$APP_PID" ]; then
    kill "$APP_PID" 2>/dev/null
    wait "$APP_PID" 2>/dev/null
  fi
  rm -rf "$WORK"
}

fail ()
{
  echo "FAIL: $*"
  [ -f "$WORK/app.log" ] && grep -v '^qd-geometry' "$WORK/app.log" | sed 's/^/app: /'
  if [ -n "${QD_E2E_KEEP:-}" ]; then
    mkdir -p "$QD_E2E_KEEP"
    cp "$WORK"/*.png "$WORK"/*.xwd "$QD_E2E_KEEP"/ 2>/dev/null
  fi
  exit 1
}

# Not meant for $(...): a failure inside a command substitution would end
# only the subshell, and two missing screenshots would compare as
# "different".
shot ()
{
  if command -v import >/dev/null 2>&1; then
    SHOT=$WORK/$1.png
    import -window root "$SHOT" || fail "screenshot $1: import failed"
  else
    SHOT=$WORK/$1.xwd
    xwd -root -silent -out "$SHOT" || fail "screenshot $1: xwd failed"
  fi
  [ -s "$SHOT" ] || fail "screenshot $1: $SHOT is empty"
}

rect ()
{
  X=0
  Y=0
  e2e_wid=$(eval echo "\${WID_$1:-}")
  [ -z "$e2e_wid" ] || eval "$(xdotool getwindowgeometry --shell "$e2e_wid")"
  awk -v window="$1" -v name="$2" -v wx="$X" -v wy="$Y" '
    $1 == "qd-geometry-begin" && $2 == window { inside = 1; seen = ""; next }
    inside && $1 == "qd-geometry" && $2 == name { seen = ($3 + wx) " " ($4 + wy) " " $5 " " $6; next }
    $1 == "qd-geometry-end" && $2 == window { inside = 0; last = seen; next }
    END { if (last == "") exit 1; print last }' "${E2E_LOG:-$WORK/app.log}"
}

centre ()
{
  i=0
  while [ $i -lt 200 ]; do
    if r=$(rect "$1" "$2"); then
      set -- $r
      echo "$(($1 + $3 / 2)) $(($2 + $4 / 2))"
      return 0
    fi
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

save_as ()
{
  xdotool key ctrl+a
  xdotool type --delay 10 "$1"
  xdotool key Return
  for e2e_try in 1 2 3 4 5 6 7 8 9 10; do
    [ -s "$1" ] && return 0
    sleep 0.5
  done
  [ -s "$1" ]
}

drag ()
{
  xdotool mousemove "$1" "$2"
  sleep 0.4
  xdotool mousedown 1
  sleep 0.3
  for e2e_step in 1 2 3 4 5 6 7 8 9 10 11 12; do
    xdotool mousemove $(($1 + ($3 - $1) * e2e_step / 12)) $(($2 + ($4 - $2) * e2e_step / 12))
    sleep 0.06
  done
  sleep 0.4
  xdotool mouseup 1
  sleep 0.8
}

# The scripts that take the editor as their first argument (e2e-editor.sh,
# e2e-mask.sh, e2e-debugger.sh, e2e-recovery.sh, e2e-monkey.sh) source this
# file for the pieces below and keep their own fail; their scratch folder
# is $work and the editor's process id $app_pid.
#
#   e2e_skip MESSAGE          prints it and exits 77 (skipped)
#   e2e_need COMMAND...       skips unless each command is installed
#   e2e_display SCREEN ARGS   runs the script again (with ARGS) inside an
#                             Xvfb of its own started with the options
#                             SCREEN, once more when that fails
#                             (e2e_retry); inside, skips without a
#                             display that answers
#   e2e_built PROGRAM...      fails unless each program is built
#   e2e_scratch PREFIX [SIG]  makes $work, removed on exit after the
#                             editor is ended with the signal SIG (TERM)
#   e2e_isolate QDEVS         the editor's settings in memory, its data,
#                             configuration and caches in $work, no
#                             session bus (no other instance to join) and
#                             the schemas built next to QDEVS
#   e2e_find_window PATTERN   the id of a visible window whose title
#                             matches PATTERN
#   e2e_place_window PATTERN  waits (up to 60 s) for that window, moves
#                             it to the top-left corner at 1280 x 860,
#                             gives it the focus and prints its id
#   ok MESSAGE                "ok N - MESSAGE", N counting the steps in
#                             $step from 1
#   e2e_screenshot NAME       with $shots set (QD_E2E_SCREENSHOTS) and
#                             ImageMagick, the display into $shots/NAME.png

e2e_skip ()
{
  echo "SKIP: $1"
  exit 77
}

e2e_need ()
{
  for e2e_command in "$@"; do
    command -v "$e2e_command" >/dev/null 2>&1 ||
      e2e_skip "$e2e_command is not installed"
  done
}

e2e_display ()
{
  e2e_screen=$1
  shift
  # A display taken by another Xvfb started at the same moment (xvfb-run
  # -a picks the first free number) is the usual first failure.
  e2e_retry "$@"
  if [ -z "${QD_E2E_INNER:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
    QD_E2E_INNER=1 exec xvfb-run -a -s "$e2e_screen" "$0" "$@"
  fi
  [ -n "${DISPLAY:-}" ] || e2e_skip "no display (run under xvfb-run -a)"
  xdotool getdisplaygeometry >/dev/null 2>&1 ||
    e2e_skip "the display $DISPLAY does not answer"
}

e2e_built ()
{
  for e2e_program in "$@"; do
    [ -x "$e2e_program" ] || { echo "FAIL: $e2e_program is not built"; exit 1; }
  done
}

e2e_scratch ()
{
  work=$(mktemp -d "${TMPDIR:-/tmp}/$1-XXXXXX")
  e2e_signal=${2:-TERM}
  app_pid=
  trap e2e_scratch_cleanup EXIT INT TERM
}

e2e_scratch_cleanup ()
{
  if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then
    kill -s "$e2e_signal" "$app_pid" 2>/dev/null
    wait "$app_pid" 2>/dev/null
  fi
  rm -rf "$work"
}

e2e_isolate ()
{
  export GSETTINGS_BACKEND=memory
  export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
  export DBUS_SESSION_BUS_ADDRESS=disabled:
  export GTK_A11Y=none NO_AT_BRIDGE=1
  if [ -z "${GSETTINGS_SCHEMA_DIR:-}" ] && [ -d "$(dirname "$1")/../data" ]; then
    GSETTINGS_SCHEMA_DIR="$(dirname "$1")/../data"
    export GSETTINGS_SCHEMA_DIR
  fi
}

e2e_find_window ()
{
  xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n 1
}

e2e_screenshot ()
{
  if [ -n "${shots:-}" ] && command -v import >/dev/null 2>&1; then
    mkdir -p "$shots"
    import -window root "$shots/$1.png" 2>/dev/null || true
  fi
}

e2e_place_window ()
{
  e2e_i=0
  e2e_win=
  while [ $e2e_i -lt 600 ] && [ -z "$e2e_win" ]; do
    e2e_win=$(e2e_find_window "$1")
    sleep 0.1
    e2e_i=$((e2e_i + 1))
  done
  [ -n "$e2e_win" ] || return 1
  xdotool windowmove "$e2e_win" 0 0 windowsize "$e2e_win" 1280 860
  xdotool windowactivate --sync "$e2e_win" 2>/dev/null || true
  sleep 1.5
  echo "$e2e_win"
}

step=0
ok ()
{
  step=$((step + 1))
  echo "ok $step - $1"
}
