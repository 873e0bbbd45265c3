# e2e-lib.sh: what the end-to-end scripts that run the editor share
#
# Sourced by e2e-run.sh and e2e-sweep.sh after they set SRC, BUILD, APP
# and CLI. e2e_init "$@" tries the script twice (synthetic input on a
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
#                    QD_TEST_GEOMETRY=1, ui/qd-test-geometry.c), WID_n
#                    being that window's X id
#   centre WINDOW NAME  its centre "X Y", once it is there (up to 20 s)

e2e_init ()
{
  if [ -z "${QD_E2E_ATTEMPT:-}" ]; then
    QD_E2E_ATTEMPT=1 "$0" "$@" && exit 0
    rc=$?
    [ "$rc" -eq 77 ] && exit 77
    echo "# first attempt failed (exit $rc); trying once more"
    QD_E2E_ATTEMPT=2 exec "$0" "$@"
  fi
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
  eval "$(xdotool getwindowgeometry --shell "$(eval echo "\$WID_$1")")"
  awk -v window="$1" -v name="$2" -v wx="$X" -v wy="$Y" '
    $1 == "qd-geometry-begin" && $2 == window { inside = 1; seen = ""; next }
    inside && $1 == "qd-geometry" && $2 == name { seen = ($3 + wx) " " ($4 + wy) " " $5 " " $6; next }
    $1 == "qd-geometry-end" && $2 == window { inside = 0; last = seen; next }
    END { if (last == "") exit 1; print last }' "$WORK/app.log"
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
