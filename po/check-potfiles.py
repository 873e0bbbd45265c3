#!/usr/bin/env python3
"""Checks that po/POTFILES lists exactly the sources with user-visible
strings, so that no message is left out of the translation template.

Usage: check-potfiles.py SOURCE_ROOT           check (a meson test)
       check-potfiles.py SOURCE_ROOT --update  rewrite po/POTFILES
"""
import os
import re
import sys

MARKERS = re.compile(r'(?<![A-Za-z0-9_])(?:N_|C_|NC_|_|g_dngettext|ngettext)\s*\(\s*"'
                     r'|translatable="yes"')
COMMENT = re.compile(r"/\*.*?\*/", re.S)
SCANNED = ("engine", "blocks", "app", "ui")
# Files that are not scanned but hold translatable text.
DATA = (
    "data/io.github.qdevs.Qdevs.desktop.in",
    "data/io.github.qdevs.Qdevs.gschema.xml",
    "data/io.github.qdevs.Qdevs.metainfo.xml.in",
)
EXTENSIONS = (".c", ".h", ".ui")


def sources_with_strings(root):
    found = []
    for top in SCANNED:
        for dirpath, _dirs, files in os.walk(os.path.join(root, top)):
            for name in files:
                if not name.endswith(EXTENSIONS):
                    continue
                full = os.path.join(dirpath, name)
                with open(full, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                # A marker inside a comment (an example in a doc comment)
                # is not a string to translate.
                if not name.endswith(".ui"):
                    text = COMMENT.sub("", text)
                if MARKERS.search(text):
                    found.append(os.path.relpath(full, root))
    return found


def main():
    root = sys.argv[1]
    if sys.argv[2:] == ["--update"]:
        files = sorted(sources_with_strings(root) + list(DATA))
        with open(os.path.join(root, "po", "POTFILES"), "w", encoding="utf-8") as f:
            f.write("# Sources with user-visible strings (po/check-potfiles.py --update)\n")
            f.write("".join(p + "\n" for p in files))
        return 0

    with open(os.path.join(root, "po", "POTFILES"), encoding="utf-8") as f:
        listed = [l.strip() for l in f if l.strip() and not l.startswith("#")]

    problems = []
    for path in listed:
        if not os.path.isfile(os.path.join(root, path)):
            problems.append(f"po/POTFILES: {path} does not exist; remove the line")

    for rel in sources_with_strings(root):
        if rel not in listed:
            problems.append(f"po/POTFILES: {rel} has translatable strings but "
                            "is not listed; add it (po/check-potfiles.py "
                            "SOURCE_ROOT --update)")

    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
