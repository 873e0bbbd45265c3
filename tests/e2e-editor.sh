#!/bin/sh
# e2e-editor.sh: the QDevs editor driven as a person drives it
#
# Starts the real application on the display it is given (xvfb-run in CI)
# and uses it with real input events through xdotool: searches the palette
# and drags an Integrator, a Gain and a Scope onto the canvas, wires
# Gain -> Integrator -> Gain with a branch to the Scope by dragging from
# port to port, sets the gain to -1 in the inspector, saves with Ctrl+S
# through the file chooser, checks the file with qdevs-cli and reads its
# structure back, reopens it with Ctrl+O, then undoes every edit and saves
# again to prove the diagram is empty once more.
#
# Usage: e2e-editor.sh [QDEVS [QDEVS-CLI]]   (defaults: $MESON_BUILD_ROOT/app/...)
# Exits 77 (skipped) without xdotool, python3 or a display. With
# QD_E2E_SCREENSHOTS=DIR and ImageMagick's import, it keeps a screenshot of
# each main state in DIR.
#
# Where things are: the editor runs with QD_TEST_GEOMETRY=1, which makes
# each window print, whenever its layout changes, the rectangles of its
# named widgets (ui/qd-test-geometry.c): the canvas, the palette's search
# entry and rows ("palette:gain"), the inspector's fields ("field:k").
# The script finds a widget by that name in the last report of the main
# window, so a theme, a font, a translation or a new widget that moves
# things does not break it. (X knows nothing of GTK's widgets and the
# tests run without an accessibility bus; matching pictures of the
# widgets would break with the fonts.) A new diagram shows the canvas at
# 100 % with the canvas origin 32 pixels inside the canvas's top-left
# corner, so a point of the diagram is found from the canvas's place.
# Each step checks its effect, so a step that missed fails there, not
# later.

set -u

# Synthetic input on a loaded machine can now and then lose an event (a
# drag that ends before the canvas saw it move). A real defect fails both
# attempts; a lost event does not fail twice.
. "$(dirname "$0")/e2e-lib.sh"
e2e_retry "$@"

build_root=${MESON_BUILD_ROOT:-build}
qdevs=${1:-$build_root/app/qdevs}
cli=${2:-$(dirname "$qdevs")/qdevs-cli}

e2e_need xdotool python3

# Once more inside a display of our own, so that no other test or program
# shares the screen, the pointer or the keyboard focus with this one.
e2e_display "-screen 0 1280x1024x24" "$@"
e2e_built "$qdevs" "$cli"

e2e_scratch qd-e2e
file="$work/loop.qdevs"
shots=${QD_E2E_SCREENSHOTS:-}

fail ()
{
  echo "FAIL: $1"
  e2e_screenshot "failure"
  [ -f "$work/app.log" ] && grep -v '^qd-geometry' "$work/app.log" | sed 's/^/  app: /'
  exit 1
}


# The editor, isolated: its settings in memory, its recent files and
# caches in the scratch folder, no session bus (no other instance to join).
e2e_isolate "$qdevs"
export QD_TEST_GEOMETRY=1

# Where the main window's widgets are: rect 1 NAME and centre 1 NAME of
# e2e-lib.sh, from the main window's (the first one opened, WID_1) last
# report; rect fails when that report does not have the widget.
E2E_LOG="$work/app.log"

# Canvas point (x, y) on the screen, for a new diagram at 100 %
# (canvas_x0 and canvas_y0 are set once the diagram is shown).
sx () { echo $((canvas_x0 + $1)); }
sy () { echo $((canvas_y0 + $1)); }

# Waits (up to 30 s: a loaded machine is slow) for a window whose title
# matches $1; prints its id.
wait_window ()
{
  i=0
  while [ $i -lt 300 ]; do
    id=$(e2e_find_window "$1")
    if [ -n "$id" ]; then
      echo "$id"
      return 0
    fi
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

title ()
{
  xdotool getwindowname "$main" 2>/dev/null
}

# Waits (up to 20 s) for the main window's title to match the pattern $1.
wait_title ()
{
  i=0
  while [ $i -lt 200 ]; do
    case "$(title)" in
      $1) return 0 ;;
    esac
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

# Types $1 into the palette search and drags the row of block type $2 to
# the canvas point ($3, $4), where the block is centred.
add_block ()
{
  at=$(centre 1 palette-search) || fail "no palette search entry in the window"
  xdotool mousemove $at click 1
  sleep 0.2
  xdotool key ctrl+a
  xdotool type --delay 20 "$1"
  # The search waits for a pause in typing before it filters.
  sleep 1.5
  at=$(centre 1 "palette:$2") || fail "the palette does not show the $1 block"
  drag $at "$(sx "$3")" "$(sy "$4")"
  # The drop ends the drag-and-drop session: let it finish.
  sleep 1
}

# Checks the saved diagram with python3: $1 is a Python expression over
# `doc` (the parsed file), `blocks` (type -> block) and `targets` (the list
# of (source type, source port, target type, target port)).
check_file ()
{
  python3 - "$file" "$1" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
root = doc
blocks = {b["type"]: b for b in root.get("blocks", [])}
by_id = {b["id"]: b for b in root.get("blocks", [])}
targets = []
for link in root.get("links", []):
    src = link["from"]
    for dst in link["to"]:
        targets.append((by_id[src["block"]]["type"], src.get("port", 0),
                        by_id[dst["block"]]["type"], dst.get("port", 0)))
ok = eval(sys.argv[2])
if not ok:
    print("  blocks:", sorted(blocks), "targets:", targets)
sys.exit(0 if ok else 1)
EOF
}

# Start: the window shows no diagram; Ctrl+N starts one in it.
"$qdevs" >"$work/app.log" 2>&1 &
app_pid=$!
main=$(wait_window "^QDevs$") || fail "the editor's window did not appear"
WID_1=$main
xdotool windowmove "$main" 0 0 windowsize "$main" 1200 900
sleep 0.8
ok "the editor starts with an empty window"

# Real key events go to the window with the input focus.
press ()
{
  xdotool windowfocus --sync "$main" 2>/dev/null
  xdotool key "$1"
}

press ctrl+n
wait_title "Untitled Diagram" || fail "Ctrl+N did not start a new diagram in the window (title: $(title))"
sleep 0.5
e2e_screenshot "01-new-diagram"
ok "Ctrl+N starts a new diagram"

r=$(rect 1 canvas) || fail "no canvas in the window"
set -- $r
canvas_x0=$(($1 + 32))
canvas_y0=$(($2 + 32))

# Blocks: Gain at (100, 100), Integrator at (300, 100), Scope at (500, 200);
# each is 60x40 with its input port at the left middle and its output
# port at the right middle.
add_block "Gain" gain 130 120
add_block "Integrator" integrator 330 120
add_block "Scope" scope 530 220
wait_title "\**" || fail "the title does not mark the diagram as modified after adding blocks (title: $(title))"
e2e_screenshot "02-blocks"
ok "three blocks dragged from the palette"

# Links, from port to port: Gain -> Integrator, Integrator -> Gain (the
# loop), and a branch from the Integrator's output to the Scope.
drag "$(sx 160)" "$(sy 120)" "$(sx 300)" "$(sy 120)"
drag "$(sx 360)" "$(sy 120)" "$(sx 100)" "$(sy 120)"
drag "$(sx 360)" "$(sy 120)" "$(sx 500)" "$(sy 220)"
e2e_screenshot "03-wired"
ok "three connections drawn by dragging between ports"

# The gain: select the block, then type into the inspector's field.
xdotool mousemove "$(sx 115)" "$(sy 105)" click 1
sleep 0.5
at=$(centre 1 field:k) || fail "selecting the Gain does not show its gain in the inspector"
xdotool mousemove $at click 1
sleep 0.2
xdotool key ctrl+a
xdotool type --delay 30 -- "-1"
xdotool key Return
sleep 0.5
e2e_screenshot "04-gain-set"
ok "gain set to -1 in the inspector"

# Save: the chooser takes a typed path.
press ctrl+s
chooser=$(wait_window "Save Diagram") || fail "Ctrl+S did not show the file chooser"
sleep 0.8
e2e_screenshot "05-save-chooser"
xdotool key ctrl+a
xdotool type --delay 10 "$file"
xdotool key Return
i=0
while [ ! -s "$file" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$file" ] || fail "no file at $file after the chooser's Save"
wait_title "loop.qdevs*" || fail "the title does not name the saved file (title: $(title))"
ok "Ctrl+S saved $(basename "$file") through the file chooser"

"$cli" check "$file" >"$work/check.log" 2>&1 || { cat "$work/check.log"; fail "qdevs-cli check refuses the saved diagram"; }
ok "qdevs-cli check accepts the saved diagram"

check_file 'len(root["blocks"]) == 3 and set(blocks) == {"gain", "integrator", "scope"}' \
  || fail "the saved diagram does not hold exactly a Gain, an Integrator and a Scope"
check_file 'sorted(targets) == sorted([("gain", 0, "integrator", 0), ("integrator", 0, "gain", 0), ("integrator", 0, "scope", 0)])' \
  || fail "the saved links are not Gain -> Integrator, Integrator -> Gain and Integrator -> Scope"
check_file 'len(root["links"]) == 2' \
  || fail "the Integrator's two targets are not one link with a branch"
check_file 'float(blocks["gain"].get("params", {}).get("k", "nan")) == -1' \
  || fail "the saved gain is not k = -1"
ok "the saved structure: 3 blocks, 3 link targets, gain k = -1"

# Reopen: Ctrl+O and the typed path open it in a second window.
press ctrl+o
wait_window "Open Diagram" >/dev/null || fail "Ctrl+O did not show the file chooser"
sleep 0.8
xdotool type --delay 10 "$file"
sleep 0.3
xdotool key Return
sleep 1.5
n=$(xdotool search --onlyvisible --name "loop.qdevs" 2>/dev/null | wc -l)
[ "$n" -ge 2 ] || fail "the saved diagram did not open in a second window"
second=$(xdotool search --onlyvisible --name "loop.qdevs" | grep -v "^$main\$" | head -n 1)
e2e_screenshot "06-reopened"
xdotool windowfocus --sync "$second" 2>/dev/null
xdotool key ctrl+w
sleep 0.8
ok "Ctrl+O reopens the saved diagram"

# Undo everything: the canvas takes the focus (an entry would undo its
# own text), then Ctrl+Z until nothing is left to undo.
xdotool windowactivate "$main" 2>/dev/null || xdotool windowfocus "$main"
xdotool mousemove "$(sx 300)" "$(sy 400)" click 1
sleep 0.3
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  press ctrl+z
  sleep 0.15
done
sleep 0.5
e2e_screenshot "07-undone"
wait_title "\**" || fail "after undoing everything the title does not mark the diagram as changed since the save (title: $(title))"
press ctrl+s
sleep 1
check_file 'len(root.get("blocks", [])) == 0 and len(root.get("links", [])) == 0' \
  || fail "after undoing every edit the diagram is not empty"
wait_title "loop.qdevs*" || fail "saving did not clear the modified mark (title: $(title))"
ok "Ctrl+Z undoes every edit back to an empty diagram"

echo "PASS: $step steps"
exit 0
