#!/usr/bin/env python3
"""qdevs-cli speaks the user's language, run straight from the build tree.

Builds the locale LL_CC.UTF-8 with localedef into a temporary LOCPATH,
runs the build tree's qdevs-cli in it, and compares what it prints (the
help, a usage error, a file error) with the build tree's compiled
catalog BUILD/po/LL/LC_MESSAGES/qdevs.mo: each message must come out
translated, not in English. Skipped (77) without localedef or the
locale's sources.

Usage: test-cli-translation.py QDEVS_CLI BUILD_PO_DIR LL_CC
"""
import gettext
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    cli, podir, locale = sys.argv[1:4]
    lang = locale.split("_")[0]
    if shutil.which("localedef") is None or \
            not os.path.exists(f"/usr/share/i18n/locales/{locale}"):
        print(f"1..0 # SKIP no localedef or no {locale} locale source")
        return 77
    catalog = gettext.translation("qdevs", localedir=podir, languages=[lang])

    def tr(msgid):
        text = catalog.gettext(msgid)
        assert text != msgid, f"{msgid!r} has no {lang} translation"
        return text

    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["localedef", "-i", locale, "-f", "UTF-8",
                        os.path.join(tmp, locale + ".UTF-8")],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        env = dict(os.environ, LOCPATH=tmp, LANG=locale + ".UTF-8")
        for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            env.pop(var, None)

        def run(*args):
            return subprocess.run([cli] + list(args), env=env,
                                  capture_output=True, text=True)

        cases = []
        help_run = run("help")
        cases.append(("help", help_run.stdout,
                      [tr("Commands:\n").strip(),
                       tr("simulate a diagram; export its traces and statistics"),
                       tr("Run 'qdevs-cli COMMAND --help' for the options of a command.\n")]))
        unknown = run("frobnicate")
        cases.append(("unknown command", unknown.stderr,
                      [tr("unknown command '%s'") % "frobnicate",
                       tr("Try 'qdevs-cli --help'\n")]))
        missing = os.path.join(tmp, "missing.qdevs")
        bad_file = run("check", missing)
        cases.append(("missing file", bad_file.stderr,
                      [tr("%s: cannot open: %s").split(":")[1].strip()]))
        for name, output, expected in cases:
            for text in expected:
                if text not in output:
                    failures.append(f"{name}: {text!r} not in the output:\n{output}")
        if unknown.returncode != 2 or bad_file.returncode != 1:
            failures.append(f"exit status {unknown.returncode} and "
                            f"{bad_file.returncode}, not 2 and 1")

    print("1..1")
    if failures:
        for f in failures:
            print("# " + f.replace("\n", "\n# "))
        print("not ok 1 qdevs-cli output is translated")
        return 1
    print("ok 1 qdevs-cli output is translated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
