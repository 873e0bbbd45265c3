#!/bin/sh
# e2e-recovery.sh: unsaved changes survive a kill -9 of the editor
#
# Opens a copy of exp-decay.qdevs in the real editor, deletes every block
# with Ctrl+A and Delete (real key events through xdotool), waits for the
# recovery copy to appear in $XDG_CACHE_HOME/qdevs/recovery, and kills the
# editor with SIGKILL. Started again, the editor offers the diagram for
# recovery; Enter (Recover) opens it, marked modified, with its file;
# Ctrl+S then writes the recovered diagram to that file, which must be
# byte for byte the edited diagram the copy held. After the save and a
# clean quit no recovery copy is left.
#
# Usage: e2e-recovery.sh [QDEVS]   (default: $MESON_BUILD_ROOT/app/qdevs)
# Exits 77 (skipped) without xdotool, python3 or a display. With
# QD_E2E_SCREENSHOTS=DIR and ImageMagick's import, it keeps a screenshot
# of each main state in DIR.

set -u

build_root=${MESON_BUILD_ROOT:-build}
qdevs=${1:-$build_root/app/qdevs}
source_dir=${QD_SOURCE_DIR:-$(dirname "$0")/..}

. "$(dirname "$0")/e2e-lib.sh"

e2e_need xdotool python3

# A display of our own, so that nothing else takes the keyboard focus;
# -noreset: the editor is killed and started again, and a server that
# resets when its last client goes refuses the next one for a moment.
e2e_display "-screen 0 1280x900x24 -noreset" "$@"
e2e_built "$qdevs"

e2e_scratch qd-e2e-recovery KILL
model="$work/model.qdevs"
recovery="$work/cache/qdevs/recovery"
shots=${QD_E2E_SCREENSHOTS:-}

fail ()
{
  echo "FAIL: $1"
  e2e_screenshot "recovery-failure"
  [ -f "$work/app.log" ] && sed 's/^/  app: /' "$work/app.log"
  ls -l "$recovery" 2>/dev/null | sed 's/^/  recovery: /'
  exit 1
}

# Waits (up to 30 s: a loaded machine is slow) until the command $1
# succeeds.
wait_for ()
{
  i=0
  while [ $i -lt 300 ]; do
    if eval "$1"; then
      return 0
    fi
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

n_copies ()
{
  ls "$recovery"/*.json 2>/dev/null | wc -l
}

# The editor, isolated: settings in memory, its caches (and so its
# recovery copies) in the scratch folder, no session bus.
e2e_isolate "$qdevs"
export GSK_RENDERER=${GSK_RENDERER:-cairo}

cp "$source_dir/data/examples/exp-decay.qdevs" "$model" || fail "no example to copy"
chmod u+w "$model"
original_sum=$(cksum <"$model")

# 1. Edit, let the copy be written, kill -9.
"$qdevs" "$model" >"$work/app.log" 2>&1 &
app_pid=$!
wait_for '[ -n "$(e2e_find_window "model.qdevs")" ]' || fail "the editor's window did not appear"
main=$(e2e_find_window "model.qdevs")
xdotool windowmove "$main" 0 0 windowsize "$main" 1200 900
sleep 1
# A click on the canvas gives it the keyboard (the middle of the window
# is canvas in every layout); then select all and delete.
xdotool mousemove 600 420 click 1
sleep 0.5
xdotool key ctrl+a
sleep 0.3
xdotool key Delete
wait_for 'xdotool getwindowname "$main" | grep -q "^\*"' \
  || fail "Ctrl+A, Delete did not change the diagram"
ok "the blocks are deleted; the title says the diagram is modified"
wait_for '[ "$(n_copies)" -eq 1 ]' || fail "no recovery copy was written"
copy=$(ls "$recovery"/*.qdevs)
cp "$copy" "$work/edited.qdevs"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if not d.get("blocks") else 1)' \
  "$work/edited.qdevs" 2>/dev/null || fail "the recovery copy still has blocks"
ok "the recovery copy holds the edited diagram"
e2e_screenshot "recovery-1-edited"
kill -9 "$app_pid"
wait "$app_pid" 2>/dev/null
app_pid=
[ "$(n_copies)" -eq 1 ] || fail "the copy did not survive the kill"
[ "$(cksum <"$model")" = "$original_sum" ] || fail "the file changed without a save"
ok "killed with SIGKILL: the copy is still there and the file unchanged"

# 2. Start again: the diagram is offered; Enter recovers it.
"$qdevs" >"$work/app.log" 2>&1 &
app_pid=$!
wait_for '[ -n "$(e2e_find_window "Recover Unsaved Changes")" ]' \
  || fail "the editor did not offer the diagram for recovery"
dialog=$(e2e_find_window "Recover Unsaved Changes")
sleep 1
e2e_screenshot "recovery-2-offered"
ok "started again, the editor offers to recover the diagram"
xdotool windowfocus "$dialog" 2>/dev/null
sleep 0.3
xdotool key Return
wait_for '[ -n "$(e2e_find_window "^\*.*model.qdevs")" ]' \
  || fail "Recover did not open the diagram, modified, with its file"
main=$(e2e_find_window "^\*.*model.qdevs")
xdotool windowmove "$main" 0 0 windowsize "$main" 1200 900
sleep 1
e2e_screenshot "recovery-3-recovered"
ok "Recover opens the diagram with its file, marked modified"
# The window keeps a copy of its own at once; the old one is gone.
wait_for '[ "$(n_copies)" -eq 1 ] && [ ! -e "$copy" ]' \
  || fail "the recovered diagram has no copy of its own, or the old one stayed"
ok "the recovered diagram is kept for recovery again, in a copy of its own"

# 3. Save: the file is now the edited diagram, byte for byte.
# Saved: the window's title names the file without the modified mark
# (a title that cannot be read is not taken for saved; the window is
# looked up again each time, as it may have been remapped). The key is sent
# again once if the first went nowhere: under a sanitizer the window can
# take the focus after the key was sent.
saved ()
{
  main=$(e2e_find_window "model.qdevs")
  [ -n "$main" ] || return 1
  title=$(xdotool getwindowname "$main" 2>/dev/null) || return 1
  case "$title" in
    \**) return 1 ;;
    *model.qdevs*) return 0 ;;
    *) return 1 ;;
  esac
}
for attempt in 1 2; do
  main=$(e2e_find_window "model.qdevs")
  xdotool windowfocus --sync "$main" 2>/dev/null || xdotool windowfocus "$main" 2>/dev/null
  sleep 0.3
  xdotool key ctrl+s
  if wait_for saved; then
    break
  fi
  [ "$attempt" -eq 2 ] && fail "Ctrl+S did not save"
done
cmp -s "$model" "$work/edited.qdevs" || fail "the saved diagram is not the edited one"
ok "saved to its file: the recovered diagram equals the edited one"
wait_for '[ "$(n_copies)" -eq 0 ]' || fail "the save left the recovery copy"
ok "the save removes the recovery copy"

# 4. A clean quit leaves nothing to recover.
xdotool key ctrl+q
wait_for '! kill -0 "$app_pid" 2>/dev/null' || fail "Ctrl+Q did not quit"
app_pid=
[ "$(n_copies)" -eq 0 ] || fail "a clean quit left a recovery copy"
[ -z "$(ls "$recovery" 2>/dev/null)" ] || fail "files left in $recovery: $(ls "$recovery")"
ok "a clean quit leaves no copy"
echo "1..$step"
