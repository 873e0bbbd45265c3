#!/usr/bin/env python3
"""check-man.py: the man pages against the programs' own help.

Every option that `qdevs-cli --help`, `qdevs-cli COMMAND --help` (for each
command the help lists) and `qdevs --help` print must appear in
qdevs-cli(1) or qdevs(1); the version in each page's .TH line must be the
program's; and groff must format each page without a warning.

Usage: check-man.py MAN_DIR QDEVS_CLI [QDEVS]
(QDEVS is left out when the editor is not built.)
"""
import os
import re
import shutil
import subprocess
import sys

OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)")
COMMAND = re.compile(r"^  ([a-z]+) ", re.MULTILINE)


def run(argv, env=None):
    """Standard output of @argv, which must exit with status 0."""
    done = subprocess.run(argv, capture_output=True, text=True, env=env,
                          check=False)
    if done.returncode != 0:
        sys.exit("%s: exit status %d\n%s" % (" ".join(argv), done.returncode,
                                            done.stderr))
    return done.stdout


def options(help_text):
    """The options a help text names: --long everywhere, -x in its
    option lines (indented, starting with the dash)."""
    found = set()
    for line in help_text.splitlines():
        stripped = line.lstrip()
        for match in OPTION.finditer(line):
            name = match.group(1)
            if name.startswith("--") or (stripped.startswith("-")
                                         and len(name) == 2):
                found.add(name)
    return found


def page_text(path):
    """The page with roff's escaped hyphens and font changes undone."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = text.replace("\\-", "-")
    return re.sub(r"\\f[BIRP]", "", text)


def check_page(path, wanted, version, program):
    problems = []
    text = page_text(path)
    for name in sorted(wanted):
        if not re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text):
            problems.append("%s: %s prints %s, which the page does not describe"
                            % (path, program, name))
    th = re.search(r'^\.TH .*"QDevs ([^"]+)"', text, re.MULTILINE)
    if th is None or th.group(1) != version:
        problems.append("%s: the .TH line does not name version %s"
                        % (path, version))
    groff = shutil.which("groff")
    if groff is None:
        print("# groff not found: %s not formatted" % path)
    else:
        done = subprocess.run([groff, "-ww", "-man", "-z", path],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0 or done.stderr:
            problems.append("%s: groff warns:\n%s" % (path, done.stderr))
    return problems


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    man_dir, cli = sys.argv[1], sys.argv[2]
    qdevs = sys.argv[3] if len(sys.argv) == 4 else None
    problems = []

    top = run([cli, "--help"])
    wanted = options(top)
    commands = COMMAND.findall(top.split("Commands:", 1)[1].split("\n\n", 1)[0])
    if "run" not in commands or "bench" not in commands:
        sys.exit("no commands found in qdevs-cli --help:\n" + top)
    for command in commands:
        if command != "help":
            wanted |= options(run([cli, command, "--help"]))
    version = run([cli, "--version"]).split()[-1]
    problems += check_page(os.path.join(man_dir, "qdevs-cli.1"), wanted,
                           version, "qdevs-cli")
    print("# qdevs-cli: %d options, commands %s" % (len(wanted), ", ".join(commands)))

    if qdevs is not None:
        # As on a machine without a display.
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        wanted = options(run([qdevs, "--help"], env))
        version = run([qdevs, "--version"], env).split()[-1]
        problems += check_page(os.path.join(man_dir, "qdevs.1"), wanted,
                               version, "qdevs")
        print("# qdevs: %d options" % len(wanted))

    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
