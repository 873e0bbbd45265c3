#!/bin/sh
# e2e-mask.sh: a text note dragged and a subsystem's mask edited, in the
# real editor driven by xdotool
#
# The diagram: a masked subsystem PI (parameter Kp, icon text
# "PI\nKp={Kp}") whose Constant outputs Kp into an Outport, wired to a
# Scope, and a note. The test drags the note (found by its colour in a
# screenshot) by about 120 x 80 pixels, selects the subsystem (Ctrl+A:
# with the Scope; then a click on it), opens Edit Mask… from its context
# menu (Shift+F10, then the mnemonic M), adds a parameter Ti with default
# 0.5, applies, sets Kp to 3 in the inspector, and saves with Ctrl+S.
# The file must hold the note moved onto the grid, both parameters and
# Kp's value; qdevs-cli runs it with Kp = 3. Ctrl+Z three times then
# takes back the value, the mask edit and the move, which a second save
# shows. Screenshots are looked at by a person with QD_E2E_SCREENSHOTS=DIR.
#
# Usage: e2e-mask.sh [QDEVS [QDEVS-CLI]]; skips (77) without xdotool,
# ImageMagick, python3 or a display.
set -u

build_root=${MESON_BUILD_ROOT:-build}
qdevs=${1:-$build_root/app/qdevs}
cli=${2:-$(dirname "$qdevs")/qdevs-cli}

. "$(dirname "$0")/e2e-lib.sh"

e2e_need xdotool import python3
e2e_display "-screen 0 1280x900x24" "$@"
e2e_built "$qdevs"

e2e_scratch qd-e2e
shots=${QD_E2E_SCREENSHOTS:-$work/shots}
mkdir -p "$shots"

fail ()
{
  echo "FAIL: $1"
  [ -f "$work/log" ] && grep -v '^qd-geometry' "$work/log" | sed 's/^/  app: /'
  exit 1
}

shot ()
{
  import -window root "$shots/$1.png" || fail "no screenshot"
}

e2e_isolate "$qdevs"
export QD_TEST_GEOMETRY=1

file="$work/pi.qdevs"
cat >"$file" <<'EOF'
{
  "format": "qdevs",
  "version": 1,
  "title": "Mask test",
  "simulation": { "final": 1 },
  "blocks": [
    {
      "id": "b1", "type": "subsystem", "name": "PI",
      "position": [200, 200], "size": [120, 60],
      "mask": {
        "icon": "PI\nKp={Kp}",
        "params": [ { "name": "Kp", "default": "1", "description": "Proportional gain" } ]
      },
      "blocks": [
        { "id": "b2", "type": "constant", "name": "Gain 1", "position": [40, 40],
          "params": { "value": "Kp" } },
        { "id": "b3", "type": "outport", "name": "Out", "position": [160, 40] }
      ],
      "links": [
        { "id": "l1", "from": { "block": "b2", "port": 0 }, "to": [ { "block": "b3", "port": 0 } ] }
      ]
    },
    { "id": "b4", "type": "scope", "name": "Scope", "position": [420, 200] }
  ],
  "links": [
    { "id": "l2", "from": { "block": "b1", "port": 0 }, "to": [ { "block": "b4", "port": 0 } ] }
  ],
  "notes": [
    { "position": [200, 80], "text": "Drag me somewhere else" }
  ]
}
EOF

"$qdevs" "$file" >"$work/log" 2>&1 &
app_pid=$!
win=$(e2e_place_window "Mask test") || fail "the editor's window did not appear"
xdotool mousemove 640 20
sleep 0.5
shot loaded

# The centre "X Y" and pixel count of the colour R G B (within 6) in $1.
find_colour ()
{
  convert "$1" txt:- | awk -v R="$2" -v G="$3" -v B="$4" '
    NR > 1 {
      split ($1, xy, /[,:]/); c = $2; gsub (/[()]/, "", c); split (c, v, ",")
      if (v[1] - R <= 6 && R - v[1] <= 6 && v[2] - G <= 6 && G - v[2] <= 6 \
          && v[3] - B <= 6 && B - v[3] <= 6) { n++; sx += xy[1]; sy += xy[2] }
    }
    END { if (n > 0) printf "%d %d %d\n", sx / n, sy / n, n; else print "0 0 0" }'
}

# The note's pale card: rgba (1, 0.96, 0.70, 0.92) over the canvas.
set -- $(find_colour "$shots/loaded.png" 255 243 188)
[ "$3" -gt 500 ] || fail "no note found on the canvas ($3 pixels of its colour)"
nx=$1 ny=$2

drag "$nx" "$ny" $((nx + 120)) $((ny + 80))
xdotool mousemove 640 20
sleep 0.5
shot note-dragged
set -- $(find_colour "$shots/note-dragged.png" 255 243 188)
[ "$1" -gt $((nx + 60)) ] && [ "$2" -gt $((ny + 40)) ] ||
  fail "the note did not follow the pointer: at $1,$2, was at $nx,$ny"
echo "ok: the note moved from $nx,$ny to $1,$2 on the screen"

# The geometry the windows report (qd-test-geometry.h), rect and centre
# of e2e-lib.sh: window 1 is the editor, 2 the next one; both stand at
# the screen's corner.
E2E_LOG="$work/log"

# The subsystem: left of the Scope, the only other block; its icon text
# is dark on white. Click in the middle of the blocks' bounding box's
# left half, found from the canvas's selection after Ctrl+A.
xdotool key ctrl+a
sleep 0.8
shot all-selected
# The selection outline is the accent colour (GTK's blue).
set -- $(convert "$shots/all-selected.png" -crop 1000x600+226+100 +repage txt:- | awk '
  NR > 1 {
    split ($1, xy, /[,:]/); c = $2; gsub (/[()]/, "", c); split (c, v, ",")
    if (v[3] > 200 && v[1] < 80 && v[2] > 100 && v[2] < 150) { n++; px[n] = xy[1]; py[n] = xy[2] }
  }
  END {
    if (n == 0) { print "0 0 0"; exit }
    minx = px[1]; for (i = 2; i <= n; i++) if (px[i] < minx) minx = px[i]
    for (i = 1; i <= n; i++) if (px[i] < minx + 30) { m++; sy += py[i] }
    printf "%d %d %d\n", minx + 40 + 226, sy / m + 100, n
  }')
[ "$3" -gt 50 ] || fail "no selected block found on the canvas ($3 pixels)"
sub_x=$1 sub_y=$2
xdotool key Escape
xdotool mousemove "$sub_x" "$sub_y" click 1
sleep 0.8
at=$(centre 1 "field:mask:Kp") || fail "the inspector shows no field for the mask parameter Kp"
echo "ok: the subsystem is selected and the inspector shows its mask parameter"

xdotool key shift+F10
sleep 0.8
shot context-menu
xdotool key m
sleep 1.2
add=$(centre 2 mask-add) || fail "Edit Mask… opened no window"
shot mask-dialog
xdotool mousemove $add click 1
sleep 0.6
at=$(centre 2 "mask-name:2") || fail "Add Parameter added no row"
xdotool mousemove $at click 1
xdotool type --delay 30 "Ti"
at=$(centre 2 "mask-default:2")
xdotool mousemove $at click 1
xdotool key ctrl+a
xdotool type --delay 30 "0.5"
sleep 0.3
shot mask-filled
at=$(centre 2 mask-apply) || fail "no Apply button"
xdotool mousemove $at click 1
sleep 1
at=$(centre 1 "field:mask:Ti") || fail "the inspector shows no field for the new parameter Ti"
echo "ok: Edit Mask… added the parameter Ti"

at=$(centre 1 "field:mask:Kp")
xdotool mousemove $at click 1
xdotool key ctrl+a
xdotool type --delay 30 "3"
xdotool key Return
sleep 0.8
xdotool mousemove 640 20
sleep 0.5
shot kp-set
xdotool key ctrl+s
sleep 1.5

python3 - "$file" <<'PY' || fail "the saved file does not hold the edits"
import json, sys
doc = json.load(open(sys.argv[1]))
note = doc["notes"][0]["position"]
mask = doc["blocks"][0]["mask"]
params = {p["name"]: p for p in mask["params"]}
ok = (note != [200, 80] and note[0] % 10 == 0 and note[1] % 10 == 0
      and note[0] > 200 and note[1] > 80
      and params["Kp"].get("value") == "3"
      and params["Ti"]["default"] == "0.5" and "value" not in params["Ti"]
      and mask["icon"] == "PI\nKp={Kp}")
if not ok:
    print("  note", note, "mask", mask)
sys.exit(0 if ok else 1)
PY
echo "ok: the file holds the note moved onto the grid and the mask edited"

out=$("$cli" run "$file" --csv - 2>/dev/null | tail -n 1)
case "$out" in
  *,3) echo "ok: qdevs-cli runs it with Kp = 3 ($out)" ;;
  *) fail "qdevs-cli run gave '$out', not Kp = 3" ;;
esac

# The keyboard back to the canvas (in the entry, Ctrl+Z is the entry's).
xdotool mousemove 900 640 click 1
sleep 0.5
xdotool key ctrl+z
sleep 0.4
xdotool key ctrl+z
sleep 0.4
xdotool key ctrl+z
sleep 0.8
xdotool key ctrl+s
sleep 1.5
python3 - "$file" <<'PY' || fail "three undos did not take the edits back"
import json, sys
doc = json.load(open(sys.argv[1]))
mask = doc["blocks"][0]["mask"]
ok = (doc["notes"][0]["position"] == [200, 80] and len(mask["params"]) == 1
      and "value" not in mask["params"][0])
if not ok:
    print("  ", doc["notes"], mask)
sys.exit(0 if ok else 1)
PY
echo "ok: Undo takes back the value, the mask and the move"
grep -i "critical" "$work/log" && fail "GTK reported a critical"
exit 0
