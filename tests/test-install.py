#!/usr/bin/env python3
"""test-install.py: `meson install` puts every part of QDevs in place.

Installs the build tree into a temporary DESTDIR and checks, file by file,
what a user of the installed programs needs: both programs and the
library, the desktop file, the AppStream metainfo, the icons, the settings
schema, the file type, every example, a translation for every language in
po/LINGUAS, the user guide (Mallard for Yelp, and HTML) and the manual
pages. The list comes from the source tree (the examples, the languages,
the help pages, the man pages), not from what meson says it installs, so a
file left out of an install rule is caught. Then the installed qdevs-cli
runs an installed example, against the installed library. The library
exports its qd_ API only, and the public headers and qdevs-1.pc are
installed without the private ones. Last, a C plugin as a user makes
one: the project `qdevs-cli new-block` writes builds against the
installed QDevs (pkg-config qdevs-1, moved with the prefix), passes its
own test, installs, and the installed qdevs-cli runs its example with it.

  test-install.py MESON BUILDDIR SOURCEDIR PREFIX BINDIR LIBDIR DATADIR
                  MANDIR LOCALEDIR GUI(true|false) HTML(true|false)
                  INCLUDEDIR
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

APP_ID = "io.github.qdevs.Qdevs"


def lines_of(path):
    """The non-empty, non-comment lines of a LINGUAS-style file."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [w for line in f for w in line.split("#", 1)[0].split()]


def expected_files(src, gui, html, d):
    """Paths under the prefix, relative to it, that must be installed."""
    files = [
        os.path.join(d["bindir"], "qdevs-cli"),
        os.path.join(d["libdir"], "libqdevs.so"),
        os.path.join(d["libdir"], "pkgconfig", "qdevs-1.pc"),
    ]
    for header in ["qdevs.h", "qd-block-type.h", "qd-plugin.h", "qd-blocks.h"]:
        files.append(os.path.join(d["includedir"], "qdevs-1", header))
    for example in sorted(glob.glob(os.path.join(src, "data", "examples", "*.qdevs"))):
        files.append(os.path.join(d["datadir"], "qdevs", "examples",
                                  os.path.basename(example)))
    for template in sorted(glob.glob(os.path.join(src, "data", "lua-templates", "*.lua"))):
        files.append(os.path.join(d["datadir"], "qdevs", "lua-templates",
                                  os.path.basename(template)))
    for lang in lines_of(os.path.join(src, "po", "LINGUAS")):
        files.append(os.path.join(d["localedir"], lang, "LC_MESSAGES", "qdevs.mo"))
    for page in sorted(glob.glob(os.path.join(src, "docs", "man", "*.[1-9]"))):
        section = page.rsplit(".", 1)[1]
        files.append(os.path.join(d["mandir"], "man" + section, os.path.basename(page)))

    pages = sorted(os.path.basename(p)
                   for p in glob.glob(os.path.join(src, "help", "C", "*.page")))
    assert "index.page" in pages, "help/C has no index.page"
    for lang in ["C"] + lines_of(os.path.join(src, "help", "LINGUAS")):
        for page in pages:
            files.append(os.path.join(d["datadir"], "help", lang, "qdevs", page))
    if html:
        for page in pages:
            files.append(os.path.join(d["datadir"], "qdevs", "help", "html",
                                      page[:-len(".page")] + ".html"))
        for figure in glob.glob(os.path.join(src, "help", "C", "figures", "*.png")):
            files.append(os.path.join(d["datadir"], "qdevs", "help", "html",
                                      "figures", os.path.basename(figure)))

    if gui:
        files += [
            os.path.join(d["bindir"], "qdevs"),
            os.path.join(d["datadir"], "applications", APP_ID + ".desktop"),
            os.path.join(d["datadir"], "metainfo", APP_ID + ".metainfo.xml"),
            os.path.join(d["datadir"], "glib-2.0", "schemas", APP_ID + ".gschema.xml"),
            os.path.join(d["datadir"], "mime", "packages", APP_ID + ".mime.xml"),
            os.path.join(d["datadir"], "icons", "hicolor", "scalable", "apps",
                         APP_ID + ".svg"),
            os.path.join(d["datadir"], "icons", "hicolor", "symbolic", "apps",
                         APP_ID + "-symbolic.svg"),
        ]
    return files


def check_api(root, libdir, includedir):
    """What is wrong with the installed API ("" when nothing): every
    symbol libqdevs exports is a qd_ one of version QDEVS_1, and no
    private header is installed."""
    lib = os.path.join(root, libdir, "libqdevs.so")
    syms = subprocess.run(["readelf", "--dyn-syms", "-W", lib],
                          stdout=subprocess.PIPE, text=True).stdout
    wrong = []
    for line in syms.splitlines():
        fields = line.split()
        # Defined symbols only: "Num: Value Size Type Bind Vis Ndx Name".
        if len(fields) < 8 or fields[6] in ("UND", "Ndx") or fields[3] == "SECTION":
            continue
        name = fields[7]
        if name == "QDEVS_1" or name == "QDEVS_1@@QDEVS_1":
            continue
        if not (name.startswith("qd_") and name.endswith("@@QDEVS_1")):
            wrong.append(name)
    private = glob.glob(os.path.join(root, includedir, "qdevs-1", "*private*"))
    problems = []
    if wrong:
        problems.append("exported: " + ", ".join(wrong[:10]))
    if private:
        problems.append("installed: " + ", ".join(private))
    return "; ".join(problems)


def check_new_block(meson, root, bindir, libdir, destdir):
    """What went wrong ("" when nothing) building the project of
    `qdevs-cli new-block` against the QDevs installed under @root."""
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(root, libdir),
               LC_ALL="C", LANGUAGE="C")
    env.pop("QDEVS_PLUGIN_PATH", None)
    # The installed qdevs-1.pc, its prefix moved to where it was installed.
    pcdir = os.path.join(destdir, "pc")
    os.makedirs(pcdir)
    with open(os.path.join(root, libdir, "pkgconfig", "qdevs-1.pc")) as f:
        pc = f.read()
    prefix = [line for line in pc.splitlines() if line.startswith("prefix=")][0]
    with open(os.path.join(pcdir, "qdevs-1.pc"), "w") as f:
        f.write(pc.replace(prefix, "prefix=" + root, 1))
    env["PKG_CONFIG_PATH"] = pcdir
    cli = os.path.join(root, bindir, "qdevs-cli")
    project = os.path.join(destdir, "project")
    plugins = os.path.join(destdir, "plugins")
    example = os.path.join(project, "example.qdevs")
    steps = [
        [cli, "new-block", "mygain", "--dir", project],
        [meson, "setup", "--werror", "-Dplugindir=" + plugins,
         os.path.join(project, "build"), project],
        [meson, "compile", "-C", os.path.join(project, "build")],
        [meson, "test", "-C", os.path.join(project, "build"), "--print-errorlogs"],
        [meson, "install", "-C", os.path.join(project, "build"), "--quiet"],
    ]
    for step in steps:
        r = subprocess.run(step, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            return "%s: %s" % (" ".join(step[:2]), r.stdout.strip()[-2000:])
    if not os.path.isfile(os.path.join(plugins, "mygain.so")):
        return "the plugin was not installed into " + plugins
    # Without the plugin the example names what is missing; with it, it runs.
    r = subprocess.run([cli, "run", example], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode == 0 or "block type 'mygain:mygain' is missing" not in r.stderr:
        return "without the plugin: %d %s" % (r.returncode, r.stderr.strip())
    env["QDEVS_PLUGIN_PATH"] = plugins
    r = subprocess.run([cli, "run", example], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or "reached t = 5" not in r.stdout:
        return "with the plugin: %d %s %s" % (r.returncode, r.stdout, r.stderr)
    r = subprocess.run([cli, "blocks", "--json"], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if '"id": "mygain:mygain"' not in r.stdout:
        return "qdevs-cli blocks does not list mygain:mygain"
    return ""


def main():
    (meson, build, src, prefix, bindir, libdir, datadir, mandir, localedir,
     gui, html, includedir) = sys.argv[1:13]
    dirs = {"bindir": bindir, "libdir": libdir, "datadir": datadir,
            "mandir": mandir, "localedir": localedir, "includedir": includedir}
    destdir = tempfile.mkdtemp(prefix="qdevs-install-")
    try:
        result = subprocess.run(
            [meson, "install", "-C", build, "--no-rebuild", "--quiet",
             "--destdir", destdir],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if result.returncode != 0:
            print(result.stdout)
            print("not ok 1 - meson install failed")
            print("1..1")
            return 1
        root = destdir + prefix
        missing = [f for f in expected_files(src, gui == "true", html == "true", dirs)
                   if not os.path.isfile(os.path.join(root, f))]
        n = 1
        if missing:
            print("not ok %d - installed files # missing: %s" % (n, ", ".join(missing)))
        else:
            print("ok %d - every expected file is installed" % n)

        # The installed program runs an installed example with the
        # installed library (not the build tree's).
        n += 1
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(root, libdir),
                   LC_ALL="C", LANGUAGE="C")
        example = os.path.join(root, datadir, "qdevs", "examples", "exp-decay.qdevs")
        run = subprocess.run(
            [os.path.join(root, bindir, "qdevs-cli"), "check", example],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        ldd = subprocess.run(["ldd", os.path.join(root, bindir, "qdevs-cli")],
                             env=env, stdout=subprocess.PIPE, text=True).stdout
        ran = run.returncode == 0 and ": OK (" in run.stdout and root in ldd
        if ran:
            print("ok %d - the installed qdevs-cli checks an installed example" % n)
        else:
            print("not ok %d - the installed qdevs-cli # %s %s"
                  % (n, run.stdout.strip(), ldd.strip().replace("\n", "; ")))

        # Outside /usr, the installed programs carry the installed
        # library's folder, so that they run without an ldconfig.
        n += 1
        wanted = os.path.join(prefix, libdir)
        found = True
        for program in ["qdevs-cli"] + (["qdevs"] if gui == "true" else []):
            dynamic = subprocess.run(["readelf", "-d", os.path.join(root, bindir, program)],
                                     stdout=subprocess.PIPE, text=True).stdout
            paths = [line.split("[", 1)[1].rstrip("]").split(":")
                     for line in dynamic.splitlines() if "RUNPATH" in line or "RPATH" in line]
            has = any(wanted in p for p in paths)
            if has != (prefix != "/usr"):
                found = False
                print("# %s: run path %s, prefix %s" % (program, paths, prefix))
        print("%s %d - the installed programs find the installed library"
              % ("ok" if found else "not ok", n))

        n += 1
        api = check_api(root, libdir, includedir)
        print("%s %d - the library exports its qd_ API only, the private "
              "headers stay out%s" % ("ok" if not api else "not ok", n,
                                      "" if not api else " # " + api))
        n += 1
        if os.environ.get("QD_TEST_SANITIZED"):
            # A library built with a sanitizer needs its runtime first in
            # every program that loads it; the plugin's own test program
            # is built without one.
            plugin = ""
            print("ok %d # SKIP the plugin project cannot load a library "
                  "built with sanitizers" % n)
        else:
            plugin = check_new_block(meson, root, bindir, libdir, destdir)
            print("%s %d - a plugin from new-block builds, tests, installs and runs "
                  "against the installed QDevs%s"
                  % ("ok" if not plugin else "not ok", n,
                     "" if not plugin else " # " + plugin.replace("\n", "\n# ")))
        print("1..%d" % n)
        return 1 if missing or not ran or not found or api or plugin else 0
    finally:
        shutil.rmtree(destdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
