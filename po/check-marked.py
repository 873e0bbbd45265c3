#!/usr/bin/env python3
"""Finds user-visible strings that are not marked for translation.

In C sources (engine/, blocks/, app/, ui/) it looks at the calls that put
text on screen or in an error message, and reports the ones whose text
argument is a bare string literal instead of _("...") / N_("..."):
labels, buttons, tooltips, window titles, menu items, GError messages,
the engine's problem and failure reports, the command line's usage
errors and messages. In GtkBuilder files it reports label, title,
tooltip-text, text and placeholder-text properties (and menu labels)
without translatable="yes". In the library (engine/, blocks/) it also
reports plural messages looked up with ngettext (), which misses the
catalog in a program that does not make "qdevs" its default domain.

A literal that must stay as it is (a file-format keyword, a number
format, a unit symbol) is allowed with the comment /* no-i18n */ on the
line of the literal or on the line before it.

Usage: check-marked.py SOURCE_ROOT
       check-marked.py --self-test   (the scan finds what it must)
Exit status 1, with one "FILE:LINE: ..." line per string, if any is found.
"""
import os
import re
import sys

SCANNED = ("engine", "blocks", "app", "ui")
EXCEPTION = "no-i18n"

# Function name -> 0-based index of the argument that holds the text.
CALLS = {
    # GTK widgets
    "gtk_label_new": 0,
    "gtk_label_new_with_mnemonic": 0,
    "gtk_label_set_text": 1,
    "gtk_label_set_label": 1,
    "gtk_label_set_markup": 1,
    "gtk_label_set_text_with_mnemonic": 1,
    "gtk_button_new_with_label": 0,
    "gtk_button_new_with_mnemonic": 0,
    "gtk_button_set_label": 1,
    "gtk_check_button_new_with_label": 0,
    "gtk_check_button_set_label": 1,
    "gtk_toggle_button_new_with_label": 0,
    "gtk_widget_set_tooltip_text": 1,
    "gtk_widget_set_tooltip_markup": 1,
    "gtk_window_set_title": 1,
    "gtk_frame_new": 0,
    "gtk_expander_new": 0,
    "gtk_column_view_column_new": 0,
    "gtk_entry_set_placeholder_text": 1,
    "gtk_editable_set_text": None,   # values, not prose: not checked
    "gtk_file_chooser_native_new": 0,
    "gtk_file_filter_set_name": 1,
    "gtk_message_dialog_new": 4,
    "gtk_message_dialog_format_secondary_text": 1,
    "gtk_stack_add_titled": 3,
    "g_menu_append": 1,
    "g_menu_item_new": 0,
    "g_menu_append_section": 1,
    "g_menu_append_submenu": 1,
    "g_application_set_option_context_summary": 1,
    "g_option_context_new": 0,
    "g_option_context_set_summary": 1,
    "g_option_context_set_description": 1,
    "g_set_application_name": 0,
    # GError and the project's own error and problem reports
    "g_set_error": 3,
    "g_set_error_literal": 3,
    "g_prefix_error": 1,
    "g_task_return_new_error": 3,
    "qd_problem_new": 3,
    "qd_file_fail": 3,    # engine/qd-file.c, engine/qd-file-load.c
    "qd_atomic_fail": 2,
    "qd_cli_usage_error": 1,
    "qd_canvas_controller_report": 1,  # ui/qd-canvas-controller-edit.c
    "qd_compile_add_problem": 3,  # engine/qd-compile.c, -params.c
    "add_problem": 2,     # engine/qd-compile-vector*.c (a macro)
    "qd_simulation_set_fail": 2,  # engine/qd-simulation.c, -run.c
    "fail": 3,            # engine/qd-expr-parse.c
    # Messages the command line prints for a person to read
    "g_print": 0,
    "g_printerr": 0,
}

UI_PROPERTIES = ("label", "title", "tooltip-text", "tooltip-markup", "text",
                 "placeholder-text", "subtitle", "description")

STRING = r'"(?:[^"\\\n]|\\.)*"'
# printf directives (with PRIu64-style macros) and escapes: what remains
# of a literal once they are taken out decides whether it is prose.
DIRECTIVE = re.compile(r"%[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
                       r"(?:hh|h|ll|l|L|z|j|t)?[diouxXeEfFgGaAcspn%]|\\.")
WORD = re.compile(r"[A-Za-z]{2,}")


def skip_quoted(text, i):
    """The offset just past the string or character literal at text[i]."""
    j = i + 1
    while j < len(text) and text[j] != text[i]:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def blank_comments(text):
    """Replaces comments by spaces, keeping newlines, strings and offsets."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = skip_quoted(text, i)
            out.append(text[i:j])
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_args(text, start):
    """The top-level arguments of the call whose '(' is at text[start],
    as (offset, source) pairs."""
    args, depth, i, begin = [], 0, start + 1, start + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            i = skip_quoted(text, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append((begin, text[begin:i]))
                return args
            depth -= 1
        elif c == "," and depth == 0:
            args.append((begin, text[begin:i]))
            begin = i + 1
        i += 1
    return args


def is_prose(literal_source):
    """True when the concatenated literals hold words, not just a format."""
    body = "".join(re.findall(STRING, literal_source))
    return WORD.search(DIRECTIVE.sub(" ", body)) is not None


# Initializers whose strings are shown: block descriptors and port specs
# (designated fields), parameter specs { name, label, kind, default, min,
# max, unit, doc, ... } and GOption entries { long, short, flags, arg,
# data, description, arg_description }.
FIELDS = re.compile(r"\.(doc|name|category|label|title|summary)\s*=\s*(?=\")")
INITIALIZER = re.compile(r"\{\s*\"")
INITIALIZER_TEXT = (("QD_PARAM_", 2, (1, 7), "parameter spec"),
                    ("G_OPTION_ARG_", 3, (5, 6), "option entry"))


def literal_problem(text, lines, offset, source, what):
    """A problem line if @source (an argument at @offset) is an unmarked
    literal with words in it, None otherwise."""
    stripped = source.strip()
    if not stripped.startswith('"') or not is_prose(stripped):
        return None
    first = offset + len(source) - len(source.lstrip())
    line = text.count("\n", 0, first) + 1
    if any(EXCEPTION in l for l in lines[max(0, line - 2):line]):
        return None
    literal = " ".join(re.findall(STRING, stripped))
    if len(literal) > 70:
        literal = literal[:67] + '..."'
    return (line, f"{what} shows {literal} unmarked: wrap it in _() (or "
            f"N_()), or add /* {EXCEPTION} */ if it must not be translated")


def check_initializers(text, lines, rel, problems):
    for m in FIELDS.finditer(text):
        value = re.match(r"(?:" + STRING + r"\s*)+", text[m.end():])
        p = literal_problem(text, lines, m.end(), value.group(0),
                            "field ." + m.group(1))
        if p:
            problems.append(f"{rel}:{p[0]}: {p[1]}")
    for m in INITIALIZER.finditer(text):
        args = split_args(text, m.start())
        for marker, at, shown, what in INITIALIZER_TEXT:
            if len(args) <= at or not args[at][1].strip().startswith(marker):
                continue
            for index in shown:
                if index >= len(args):
                    continue
                p = literal_problem(text, lines, args[index][0], args[index][1],
                                    what)
                if p:
                    problems.append(f"{rel}:{p[0]}: {p[1]}")


# The library (libqdevs) is used by programs that need not make "qdevs"
# their default text domain (qdevs-cli, plugins): its plural messages
# name the domain, as _() does through gi18n-lib.h.
LIBRARY = ("engine", "blocks")
BARE_NGETTEXT = re.compile(r"(?<![A-Za-z0-9_])ngettext\s*\(")
# xgettext knows the <inttypes.h> macros (PRIu64) but not GLib's
# G_GUINT64_FORMAT: it ends the msgid at the macro, so the message the
# program looks up at run time is never found in a translation.
GLIB_FORMAT_IN_MARKED = re.compile(
    r"(?<![A-Za-z0-9_])(?:N?_|g_dngettext|ngettext)\s*\("
    r"(?:\s|" + STRING + r"|\w+\b)*?G_G\w*_FORMAT")


def check_c(path, rel, problems):
    with open(path, encoding="utf-8", errors="replace") as f:
        original = f.read()
    lines = original.split("\n")
    text = blank_comments(original)
    names = "|".join(sorted((k for k, v in CALLS.items() if v is not None),
                            key=len, reverse=True))
    call = re.compile(r"(?<![A-Za-z0-9_.>])(" + names + r")\s*\(")
    for m in call.finditer(text):
        # A definition of one of the wrappers (GNU style puts the name at
        # the start of its line), not a call.
        if m.start() == 0 or text[m.start() - 1] == "\n":
            continue
        args = split_args(text, m.end() - 1)
        index = CALLS[m.group(1)]
        if index >= len(args):
            continue
        offset, arg = args[index]
        call_line = text.count("\n", 0, m.start()) + 1
        if any(EXCEPTION in l for l in lines[max(0, call_line - 2):call_line]):
            continue
        p = literal_problem(text, lines, offset, arg, m.group(1))
        if p:
            problems.append(f"{rel}:{p[0]}: {p[1]}")
    check_initializers(text, lines, rel, problems)
    for m in GLIB_FORMAT_IN_MARKED.finditer(text):
        line = text.count("\n", 0, m.end()) + 1
        problems.append(f"{rel}:{line}: a marked string uses a GLib format "
                        "macro, which xgettext cannot follow: write PRIu64 "
                        "(<inttypes.h>) instead")
    if rel.split(os.sep)[0] in LIBRARY:
        for m in BARE_NGETTEXT.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{rel}:{line}: ngettext uses the program's default "
                            "text domain: write g_dngettext (GETTEXT_PACKAGE, ...)")


def check_ui(path, rel, problems):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    prop = re.compile(r'<(property|attribute)\s+name="([a-z-]+)"([^>]*)>([^<]*)<')
    for m in prop.finditer(text):
        name, attrs, value = m.group(2), m.group(3), m.group(4)
        if name not in UI_PROPERTIES or not WORD.search(value):
            continue
        if 'translatable="yes"' in attrs:
            continue
        line = text.count("\n", 0, m.start()) + 1
        if EXCEPTION in "\n".join(text.split("\n")[max(0, line - 2):line]):
            continue
        problems.append(f'{rel}:{line}: {m.group(1)} "{name}" = "{value.strip()}" '
                        'has no translatable="yes"')


# --self-test: a source tree with known marked and unmarked strings; the
# scan must report exactly the unmarked ones (by file and line).
FIXTURE_C = """static const QdParamSpec p[] = {
  { "k", "Gain", QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL,
    "The factor.", NULL, 0 },
  { "j", N_("Gain"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, "s",
    N_("The factor."), NULL, 0 },
};
const QdBlockType t = { .name = "Gain", .doc = N_("Fine"), .glyph = "K",
  .category = "Math" "s" };
void f (void) {
  GOptionEntry e[] = { { "until", 0, 0, G_OPTION_ARG_DOUBLE, &u, "Final time", "T" } };
  gtk_label_new ("Hello there");
  gtk_label_new ("=");
  g_set_error (error, QD_ERROR, 1,
               "bad %s thing", x);
  g_set_error (error, QD_ERROR, 1, "%s: %s", a, b);
  /* no-i18n */
  g_print ("time,value\\n");
  qd_atomic_fail (self, QD_ERROR_EXPR, _("fine %s"), x);
  qd_atomic_fail (self, QD_ERROR_EXPR, "not fine %s", x); // "x"
  s = ngettext ("%u thing", "%u things", n);
  g_print (_("%s: %" G_GUINT64_FORMAT " steps\\n"), a, n);
  g_print ("%" G_GUINT64_FORMAT "\\n", n);
}
"""
FIXTURE_UI = """<interface><object class="GtkLabel">
<property name="label">Plain</property>
<property name="label" translatable="yes">Fine</property>
<property name="icon-name">x-y</property></object>
<item><attribute name="label">Menu</attribute></item></interface>
"""
FIXTURE_EXPECTED = {("blocks/x.c", n) for n in (2, 3, 7, 8, 10, 11, 14, 19, 20, 21)} \
    | {("ui/x.ui", 2), ("ui/x.ui", 5)}


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        for rel, text in (("blocks/x.c", FIXTURE_C), ("ui/x.ui", FIXTURE_UI)):
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        problems = scan(root)
    found = {(p.split(":")[0], int(p.split(":")[1])) for p in problems}
    if found != FIXTURE_EXPECTED:
        print("self-test: reported", sorted(found), "expected",
              sorted(FIXTURE_EXPECTED))
        return 1
    return 0


def scan(root):
    problems = []
    for top in SCANNED:
        for dirpath, _dirs, files in sorted(os.walk(os.path.join(root, top))):
            for name in sorted(files):
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root)
                if name.endswith(".c"):
                    check_c(full, rel, problems)
                elif name.endswith(".ui"):
                    check_ui(full, rel, problems)
    return problems


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    problems = scan(sys.argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} string(s) that translation would miss")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
