#!/usr/bin/env python3
"""QDevs speaks the user's language, run straight from the build tree.

1. Builds the locale LL_CC.UTF-8 with localedef into a temporary
   LOCPATH, runs the build tree's qdevs-cli in it, and compares what it
   prints (the help, a usage error, a file error) with the build tree's
   compiled catalog BUILD/po/LL/LC_MESSAGES/qdevs.mo: each message must
   come out translated, not in English. Skipped without localedef or
   the locale's sources.
2. The merged desktop file and AppStream metainfo carry the catalog's
   translations of their name, generic name, comment and summary.
   Skipped in a build without the GUI (no such files).

Usage: test-translation.py QDEVS_CLI BUILD_PO_DIR LL_CC [DESKTOP METAINFO]
"""
import gettext
import os
import re
import shutil
import subprocess
import sys
import tempfile


def translator(podir, lang):
    catalog = gettext.translation("qdevs", localedir=podir, languages=[lang])

    def tr(msgid, plural=None, n=1):
        text = catalog.ngettext(msgid, plural, n) if plural \
            else catalog.gettext(msgid)
        assert text not in (msgid, plural), f"{msgid!r} has no {lang} translation"
        return text
    return tr


def check_cli(cli, podir, locale):
    """Failures of qdevs-cli's output in @locale, or None to skip."""
    lang = locale.split("_")[0]
    if shutil.which("localedef") is None or \
            not os.path.exists(f"/usr/share/i18n/locales/{locale}"):
        return None
    tr = translator(podir, lang)
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
        # An error in an element of a vector names its column counted
        # from the start of the whole value, in every language.
        source = os.environ.get("QD_SOURCE_DIR", ".")
        with open(os.path.join(source, "data", "examples",
                               "lotka-volterra.qdevs"), encoding="utf-8") as f:
            diagram = f.read().replace('"-m, beta"', '"-m, beta + foo"')
        vector = os.path.join(tmp, "vector.qdevs")
        with open(vector, "w", encoding="utf-8") as f:
            f.write(diagram)
        # A plural message of the library, looked up in its own domain.
        plural = os.path.join(tmp, "plural.qdevs")
        with open(plural, "w", encoding="utf-8") as f:
            f.write(diagram.replace('"-m, beta + foo"', '"-m, sin(beta, 2)"'))
        cases.append(("plural message", run("check", plural).stderr,
                      [tr("%s takes %d argument, not %d",
                          "%s takes %d arguments, not %d", 1) % ("sin", 1, 2)]))
        english = subprocess.run([cli, "check", vector], capture_output=True,
                                 text=True, env=dict(env, LANG="C")).stderr
        spanish = run("check", vector).stderr
        if "foo" not in english or \
                re.findall(r"\d+", english) != re.findall(r"\d+", spanish):
            failures.append("the vector's error names another column in "
                            f"{locale}:\n{english}{spanish}")
        # The table of 'compare' keeps its translated headings over their
        # columns: widths count characters, not the bytes of "Método".
        compare = run("compare", os.path.join(source, "data", "examples",
                                               "exp-decay.qdevs"),
                      "--methods", "QSS2", "--until", "1").stdout.splitlines()
        heading = next((i for i, l in enumerate(compare)
                        if l.startswith(tr("Method"))), None)
        if heading is None or heading + 1 >= len(compare):
            failures.append(f"compare: no table in the output:\n{compare}")
        else:
            steps_end = compare[heading].index(tr("Steps")) + len(tr("Steps"))
            number = re.search(r"\S+\s+(\d+)", compare[heading + 1])
            if number is None or number.end(1) != steps_end:
                failures.append("compare: the steps are not under their "
                                f"heading:\n{compare[heading]}\n"
                                f"{compare[heading + 1]}")
        for name, output, expected in cases:
            for text in expected:
                if text not in output:
                    failures.append(f"{name}: {text!r} not in the output:\n{output}")
        if unknown.returncode != 2 or bad_file.returncode != 1:
            failures.append(f"exit status {unknown.returncode} and "
                            f"{bad_file.returncode}, not 2 and 1")
    return failures


def check_data(desktop, metainfo, podir, lang):
    """Failures of the merged desktop file and metainfo."""
    tr = translator(podir, lang)
    failures = []
    with open(desktop, encoding="utf-8") as f:
        entries = dict(l.rstrip("\n").split("=", 1) for l in f if "=" in l)
    for key in ("GenericName", "Comment"):
        want = tr(entries[key])
        if entries.get(f"{key}[{lang}]") != want:
            failures.append(f"{desktop}: {key}[{lang}] is "
                            f"{entries.get(key + '[' + lang + ']')!r}, not {want!r}")
    with open(metainfo, encoding="utf-8") as f:
        text = f.read()
    summary = re.search(r"<summary>([^<]*)</summary>", text).group(1)
    want = f'<summary xml:lang="{lang}">{tr(summary)}</summary>'
    if want not in text:
        failures.append(f"{metainfo}: no {want}")
    return failures


def report(number, name, failures):
    if failures is None:
        print(f"ok {number} {name} # SKIP not available here")
        return True
    for f in failures:
        print("# " + f.replace("\n", "\n# "))
    print(f"{'not ok' if failures else 'ok'} {number} {name}")
    return not failures


def main():
    cli, podir, locale = sys.argv[1:4]
    data = sys.argv[4:6] if len(sys.argv) > 5 and sys.argv[4] else None
    print("1..2")
    ok = report(1, "qdevs-cli output is translated",
                check_cli(cli, podir, locale))
    ok = report(2, "desktop file and metainfo are translated",
                check_data(*data, podir, locale.split("_")[0]) if data else None) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
