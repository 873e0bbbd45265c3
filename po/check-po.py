#!/usr/bin/env python3
"""Checks that a translation is complete and up to date with the sources.

1. `msgfmt --check --statistics` on the catalog: any error, fuzzy or
   untranslated message fails.
2. The sources listed in po/POTFILES are extracted afresh with xgettext
   (the same keywords as meson's i18n 'glib' preset, which builds
   qdevs.pot), and every message found there must be in the catalog:
   a string added or changed in the sources since the catalog was last
   merged fails, named with its place in the sources.

Usage: check-po.py SOURCE_ROOT LANG   (checks SOURCE_ROOT/po/LANG.po)
Fix: ninja -C build qdevs-pot qdevs-update-po, then translate what
msgmerge added (see po/update-po.sh).
"""
import os
import re
import subprocess
import sys
import tempfile

# meson's i18n.gettext(preset: 'glib'), as in po/meson.build.
XGETTEXT_ARGS = [
    "--from-code=UTF-8", "--add-comments", "-k_", "--keyword=_",
    "--keyword=N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
    "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3",
    "--keyword=g_dpgettext2:2c,3",
    "--flag=N_:1:pass-c-format", "--flag=C_:2:pass-c-format",
    "--flag=NC_:2:pass-c-format", "--flag=g_dngettext:2:pass-c-format",
    "--flag=g_strdup_printf:1:c-format", "--flag=g_string_printf:2:c-format",
    "--flag=g_string_append_printf:2:c-format", "--flag=g_error_new:3:c-format",
    "--flag=g_set_error:4:c-format", "--flag=g_markup_printf_escaped:1:c-format",
    "--flag=g_log:3:c-format", "--flag=g_print:1:c-format",
    "--flag=g_printerr:1:c-format", "--flag=g_printf:1:c-format",
    "--flag=g_fprintf:2:c-format", "--flag=g_sprintf:2:c-format",
    "--flag=g_snprintf:3:c-format",
]

STATISTICS = re.compile(r"(\d+) translated messages?"
                        r"(?:, (\d+) fuzzy translations?)?"
                        r"(?:, (\d+) untranslated messages?)?")


def read_messages(path):
    """{(msgctxt, msgid): first source reference} of a PO file's live
    (not obsolete) messages, the header left out."""
    text = subprocess.run(["msgcat", "--no-wrap", path], check=True,
                          capture_output=True, text=True).stdout
    messages = {}
    for block in text.split("\n\n"):
        ctxt, msgid, where, field = None, None, "", None
        for line in block.split("\n"):
            if line.startswith("#:") and not where:
                where = line[2:].split()[0]
            elif line.startswith("msgctxt "):
                field, ctxt = "ctxt", line[9:-1]
            elif line.startswith("msgid "):
                field, msgid = "id", line[7:-1]
            elif line.startswith('"') and field == "id":
                msgid += line[1:-1]
            elif line.startswith('"') and field == "ctxt":
                ctxt += line[1:-1]
            elif line.startswith(("msgid_plural", "msgstr")):
                field = None
        if not msgid:
            continue
        messages[(ctxt, f'"{msgid}"')] = where
    return messages


def check_statistics(po):
    run = subprocess.run(["msgfmt", "--check", "--statistics",
                          "-o", os.devnull, po],
                         capture_output=True, text=True)
    report = run.stderr.strip()
    print(report)
    if run.returncode != 0:
        print(f"{po}: msgfmt --check failed (see above)")
        return False
    m = STATISTICS.search(report)
    fuzzy = int(m.group(2) or 0) if m else 0
    untranslated = int(m.group(3) or 0) if m else 0
    if m is None or fuzzy or untranslated:
        print(f"{po}: {fuzzy} fuzzy and {untranslated} untranslated "
              "messages: translate them (and remove the fuzzy marks)")
        return False
    return True


def check_up_to_date(root, po):
    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, "fresh.pot")
        subprocess.run(["xgettext", "--package-name=qdevs", "-f",
                        os.path.join(root, "po", "POTFILES"), "-D", root,
                        "-o", pot] + XGETTEXT_ARGS,
                       check=True, capture_output=True)
        wanted = read_messages(pot)
    have = read_messages(po)
    missing = [(where, key) for key, where in wanted.items() if key not in have]
    for where, (ctxt, msgid) in sorted(missing):
        context = f" (context {ctxt})" if ctxt else ""
        print(f"{where}: msgid {msgid}{context} is not in {po}")
    if missing:
        print(f"{len(missing)} message(s) of the sources are not in "
              f"{os.path.basename(po)}: run po/update-po.sh and translate them")
        return False
    return True


def main():
    root, lang = sys.argv[1], sys.argv[2]
    po = os.path.join(root, "po", lang + ".po")
    ok = check_statistics(po)
    ok = check_up_to_date(root, po) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
