/* qd-cli-blocks.c: `qdevs-cli blocks`, the block reference
 *
 * As text for a terminal, as JSON for tools, and as Markdown for the
 * generated page docs/blocks.md (a test keeps that page equal to this
 * output).
 *
 * Everything comes from the registry's descriptors, the same source the
 * editor's palette and inspector use, so the reference cannot drift from
 * what the blocks really accept.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qd-cli-private.h"

static const char *
kind_name (QdParamKind kind)
{
  switch (kind)
    {
    case QD_PARAM_NUMBER:   return "number";
    case QD_PARAM_INTEGER:  return "integer";
    case QD_PARAM_BOOLEAN:  return "boolean";
    case QD_PARAM_CHOICE:   return "choice";
    case QD_PARAM_STRING:   return "string";
    case QD_PARAM_VECTOR:   return "vector";
    case QD_PARAM_FUNCTION: return "function";
    default:                return "unknown";
    }
}

static const char *
tr (const char *text)
{
  return text != NULL && text[0] != '\0' ? _(text) : "";
}

/* Prints @text wrapped at 79 columns, each line indented by @indent
 * spaces. Widths count characters, not bytes, so "·" and "−" are one. */
static void
print_wrapped (const char *text,
               int         indent)
{
  const int width = 79 - indent;
  const char *line = text;

  while (*line != '\0')
    {
      const char *p = line, *cut = NULL;
      int n = 0;

      while (*p != '\0' && n < width)
        {
          if (*p == ' ')
            cut = p;
          p = g_utf8_next_char (p);
          n++;
        }
      if (*p == '\0' || cut == NULL)
        cut = p;
      g_print ("%*s%.*s\n", indent, "", (int) (cut - line), line);
      line = cut;
      while (*line == ' ')
        line++;
    }
}

static char *
ports_text (const QdPortSpec *ports)
{
  if (ports->size_param != NULL)
    return g_strdup_printf (_("sized by %s"), ports->size_param);
  return g_strdup_printf ("%u", ports->count);
}

static char *
format_number (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.15g", value));
}

static void
print_param (const QdParamSpec *spec)
{
  GString *line = g_string_new (NULL);

  /* "x0: Initial state", then the schema, then the documentation. */
  if (spec->label != NULL)
    g_print ("    %s: %s\n", spec->name, tr (spec->label));
  else
    g_print ("    %s\n", spec->name);
  g_string_append (line, kind_name (spec->kind));
  if (spec->flags & QD_PARAM_PER_INPUT)
    g_string_append (line, _(", one value per input"));
  if (spec->flags & QD_PARAM_INHERIT)
    g_string_append (line, _(", default: the model's setting"));
  else if (spec->default_value != NULL && strchr (spec->default_value, '\n') != NULL)
    g_string_append (line, _(", default: a text of several lines"));
  else
    g_string_append_printf (line, _(", default \"%s\""),
                            spec->default_value ? spec->default_value : "");
  if (isfinite (spec->min) || isfinite (spec->max))
    {
      g_autofree char *lo = isfinite (spec->min) ? format_number (spec->min) : g_strdup ("-inf");
      g_autofree char *hi = isfinite (spec->max) ? format_number (spec->max) : g_strdup ("inf");

      g_string_append_printf (line, _(", range [%s, %s]"), lo, hi);
    }
  if (spec->unit != NULL && spec->unit[0] != '\0')
    g_string_append_printf (line, _(", unit %s"), spec->unit);
  if (spec->choices != NULL)
    {
      g_autofree char *choices = g_strjoinv (", ", (char **) spec->choices);

      g_string_append_printf (line, _(", one of %s"), choices);
    }
  print_wrapped (line->str, 6);
  if (spec->doc != NULL && spec->doc[0] != '\0')
    print_wrapped (tr (spec->doc), 6);
  g_string_free (line, TRUE);
}

static void
print_text (const QdBlockType *const *types,
            guint                     n)
{
  const char *category = NULL;

  for (guint i = 0; i < n; i++)
    {
      const QdBlockType *type = types[i];
      g_autofree char *inputs = ports_text (&type->inputs);
      g_autofree char *outputs = ports_text (&type->outputs);

      if (category == NULL || strcmp (category, type->category) != 0)
        {
          category = type->category;
          g_print ("%s%s\n", i > 0 ? "\n" : "", tr (category));
          g_print ("%s\n", "========================================");
        }
      g_print ("\n%s  (%s)\n", tr (type->name), type->id);
      if (type->doc != NULL && type->doc[0] != '\0')
        print_wrapped (tr (type->doc), 2);
      g_print (_("  Inputs: %s   Outputs: %s\n"), inputs, outputs);
      if (type->inputs.doc != NULL)
        {
          g_autofree char *text = g_strdup_printf (_("inputs: %s"), tr (type->inputs.doc));
          print_wrapped (text, 4);
        }
      if (type->outputs.doc != NULL)
        {
          g_autofree char *text = g_strdup_printf (_("outputs: %s"), tr (type->outputs.doc));
          print_wrapped (text, 4);
        }
      if (type->n_params > 0)
        {
          g_print (_("  Parameters:\n"));
          for (guint p = 0; p < type->n_params; p++)
            print_param (&type->params[p]);
        }
    }
}

static json_object *
ports_json (const QdPortSpec *ports)
{
  json_object *obj = json_object_new_object ();

  if (ports->size_param != NULL)
    json_object_object_add (obj, "sized_by", json_object_new_string (ports->size_param));
  else
    json_object_object_add (obj, "count", json_object_new_int ((int) ports->count));
  json_object_object_add (obj, "name_prefix",
                          json_object_new_string (ports->name_prefix ? ports->name_prefix : "u"));
  if (ports->doc != NULL)
    json_object_object_add (obj, "doc", json_object_new_string (ports->doc));
  return obj;
}

static json_object *
param_json (const QdParamSpec *spec)
{
  json_object *obj = json_object_new_object ();

  json_object_object_add (obj, "name", json_object_new_string (spec->name));
  json_object_object_add (obj, "label", json_object_new_string (spec->label ? spec->label : ""));
  json_object_object_add (obj, "kind", json_object_new_string (kind_name (spec->kind)));
  json_object_object_add (obj, "default",
                          json_object_new_string (spec->default_value ? spec->default_value : ""));
  json_object_object_add (obj, "inherit",
                          json_object_new_boolean ((spec->flags & QD_PARAM_INHERIT) != 0));
  json_object_object_add (obj, "per_input",
                          json_object_new_boolean ((spec->flags & QD_PARAM_PER_INPUT) != 0));
  /* JSON has no infinity: an open end of the range is null. */
  json_object_object_add (obj, "min", isfinite (spec->min) ? json_object_new_double (spec->min) : NULL);
  json_object_object_add (obj, "max", isfinite (spec->max) ? json_object_new_double (spec->max) : NULL);
  json_object_object_add (obj, "unit", spec->unit ? json_object_new_string (spec->unit) : NULL);
  if (spec->choices != NULL)
    {
      json_object *choices = json_object_new_array ();

      for (guint c = 0; spec->choices[c] != NULL; c++)
        json_object_array_add (choices, json_object_new_string (spec->choices[c]));
      json_object_object_add (obj, "choices", choices);
    }
  else
    json_object_object_add (obj, "choices", NULL);
  json_object_object_add (obj, "doc", json_object_new_string (spec->doc ? spec->doc : ""));
  return obj;
}

static void
print_json (const QdBlockType *const *types,
            guint                     n)
{
  json_object *array = json_object_new_array ();

  /* Untranslated text: the JSON is for tools (documentation generators,
   * editor integrations), which want stable strings. */
  for (guint i = 0; i < n; i++)
    {
      const QdBlockType *type = types[i];
      json_object *obj = json_object_new_object ();
      json_object *params = json_object_new_array ();
      json_object *flags = json_object_new_array ();

      json_object_object_add (obj, "id", json_object_new_string (type->id));
      json_object_object_add (obj, "name", json_object_new_string (type->name));
      json_object_object_add (obj, "category", json_object_new_string (type->category));
      json_object_object_add (obj, "glyph", json_object_new_string (type->glyph ? type->glyph : ""));
      json_object_object_add (obj, "doc", json_object_new_string (type->doc ? type->doc : ""));
      json_object_object_add (obj, "inputs", ports_json (&type->inputs));
      json_object_object_add (obj, "outputs", ports_json (&type->outputs));
      if (type->flags & QD_BLOCK_FEEDTHROUGH)
        json_object_array_add (flags, json_object_new_string ("feedthrough"));
      if (type->flags & QD_BLOCK_INTEGRATOR)
        json_object_array_add (flags, json_object_new_string ("integrator"));
      if (type->flags & QD_BLOCK_STRUCTURAL)
        json_object_array_add (flags, json_object_new_string ("structural"));
      if (type->flags & QD_BLOCK_PLACEHOLDER)
        json_object_array_add (flags, json_object_new_string ("placeholder"));
      if (type->flags & QD_BLOCK_OPTIONAL_INPUTS)
        json_object_array_add (flags, json_object_new_string ("optional-inputs"));
      if (type->flags & QD_BLOCK_TAG_SINK)
        json_object_array_add (flags, json_object_new_string ("tag-sink"));
      if (type->flags & QD_BLOCK_TAG_SOURCE)
        json_object_array_add (flags, json_object_new_string ("tag-source"));
      if (type->flags & QD_BLOCK_DISPLAY)
        json_object_array_add (flags, json_object_new_string ("display"));
      json_object_object_add (obj, "flags", flags);
      for (guint p = 0; p < type->n_params; p++)
        json_object_array_add (params, param_json (&type->params[p]));
      json_object_object_add (obj, "params", params);
      json_object_array_add (array, obj);
    }

  g_print ("%s\n", json_object_to_json_string_ext (array, JSON_C_TO_STRING_PRETTY
                                                          | JSON_C_TO_STRING_SPACED
                                                          | JSON_C_TO_STRING_NOSLASHESCAPE));
  json_object_put (array);
}

/* Markdown: the generated block reference, docs/blocks.md. */

/* Appends @text with the characters that Markdown would read as markup
 * escaped. "|" is escaped everywhere, so that the same text is safe in a
 * table cell; "_" is left alone, since GitHub's Markdown does not read an
 * underscore inside a word (mean_length) as emphasis. */
static void
md_append_escaped (GString    *out,
                   const char *text)
{
  for (const char *p = text; p != NULL && *p != '\0'; p++)
    {
      if (strchr ("\\`*|<>[]", *p) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
}

static void
md_append_code (GString    *out,
                const char *text)
{
  /* No descriptor text holds a backquote; a code span needs no escapes,
   * except "|", which a table would otherwise take as a cell border. */
  g_string_append_c (out, '`');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '|')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '`');
}

/* The lines of a multi-line default (a script), the last one counted
 * when it does not end in a newline. */
static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p != '\0'; p++)
    if (*p == '\n' || p[1] == '\0')
      n++;
  return n;
}

static void
md_append_ports (GString          *out,
                 const char       *title,
                 const QdPortSpec *ports)
{
  g_string_append_printf (out, "- **%s", title);
  if (ports->size_param != NULL)
    g_string_append_printf (out, " (as many as `%s`)", ports->size_param);
  else
    g_string_append_printf (out, " (%u)", ports->count);
  g_string_append (out, ":**");
  if (ports->doc != NULL && ports->doc[0] != '\0')
    {
      g_string_append_c (out, ' ');
      md_append_escaped (out, ports->doc);
    }
  else if (ports->size_param == NULL && ports->count == 0)
    g_string_append (out, " none.");
  g_string_append_c (out, '\n');
}

static void
md_append_param (GString           *out,
                 const QdParamSpec *spec)
{
  /* | name | label | kind | default | range | unit | choices | doc | */
  g_string_append (out, "| ");
  md_append_code (out, spec->name);
  g_string_append (out, " | ");
  md_append_escaped (out, spec->label);
  g_string_append_printf (out, " | %s", kind_name (spec->kind));
  if (spec->flags & QD_PARAM_PER_INPUT)
    g_string_append (out, ", one per input");
  g_string_append (out, " | ");
  if (spec->flags & QD_PARAM_INHERIT)
    g_string_append (out, "*model's setting*");
  else if (spec->default_value == NULL || spec->default_value[0] == '\0')
    g_string_append (out, "*empty*");
  else if (strchr (spec->default_value, '\n') != NULL)
    /* A script: lines do not fit a table cell. */
    g_string_append_printf (out, "*%u lines of text*",
                            count_lines (spec->default_value));
  else
    md_append_code (out, spec->default_value);
  g_string_append (out, " | ");
  /* A boolean's [0, 1] says nothing that "boolean" does not. */
  if (spec->kind != QD_PARAM_BOOLEAN && (isfinite (spec->min) || isfinite (spec->max)))
    {
      g_autofree char *lo = isfinite (spec->min) ? format_number (spec->min) : g_strdup ("−∞");
      g_autofree char *hi = isfinite (spec->max) ? format_number (spec->max) : g_strdup ("∞");

      g_string_append_printf (out, "[%s, %s]", lo, hi);
    }
  g_string_append (out, " | ");
  if (spec->unit != NULL)
    md_append_escaped (out, spec->unit);
  g_string_append (out, " | ");
  for (guint c = 0; spec->choices != NULL && spec->choices[c] != NULL; c++)
    {
      if (c > 0)
        g_string_append (out, ", ");
      md_append_code (out, spec->choices[c]);
    }
  g_string_append (out, " | ");
  md_append_escaped (out, spec->doc);
  g_string_append (out, " |\n");
}

static void
md_append_block (GString           *out,
                 const QdBlockType *type)
{
  /* An explicit anchor: the id is stable where a heading's slug is not. */
  g_string_append_printf (out, "<a id=\"%s\"></a>\n\n### ", type->id);
  md_append_escaped (out, type->name);
  g_string_append (out, "\n\nType id ");
  md_append_code (out, type->id);
  if (type->glyph != NULL && type->glyph[0] != '\0')
    {
      g_string_append (out, ", glyph ");
      md_append_code (out, type->glyph);
    }
  if (type->flags & QD_BLOCK_INTEGRATOR)
    g_string_append (out, "; a quantized integrator (its internal transitions are the integrator steps)");
  if (type->flags & QD_BLOCK_FEEDTHROUGH)
    g_string_append (out, "; direct feedthrough (a loop of such blocks is an algebraic loop)");
  if (type->flags & QD_BLOCK_OPTIONAL_INPUTS)
    g_string_append (out, "; inputs may be left unconnected (they read 0)");
  if (type->flags & QD_BLOCK_STRUCTURAL)
    g_string_append (out, "; structural (it disappears when the hierarchy is flattened)");
  if (type->flags & (QD_BLOCK_TAG_SINK | QD_BLOCK_TAG_SOURCE))
    g_string_append (out, "; joined by its tag to the Goto or From blocks of its system");
  if (type->flags & QD_BLOCK_DISPLAY)
    g_string_append (out, "; shows its input's value on the diagram during a run");
  if (type->flags & QD_BLOCK_PLACEHOLDER)
    g_string_append (out, "; a placeholder from an imported model (Check and Run refuse it)");
  g_string_append (out, ".\n\n");
  if (type->doc != NULL && type->doc[0] != '\0')
    {
      md_append_escaped (out, type->doc);
      g_string_append (out, "\n\n");
    }
  md_append_ports (out, "Inputs", &type->inputs);
  md_append_ports (out, "Outputs", &type->outputs);
  g_string_append_c (out, '\n');
  if (type->n_params == 0)
    {
      g_string_append (out, "No parameters.\n\n");
      return;
    }
  g_string_append (out, "| Parameter | Label | Kind | Default | Range | Unit | Choices | Description |\n"
                        "|---|---|---|---|---|---|---|---|\n");
  for (guint p = 0; p < type->n_params; p++)
    md_append_param (out, &type->params[p]);
  g_string_append_c (out, '\n');
}

static void
print_markdown (const QdBlockType *const *types,
                guint                     n)
{
  GString *out = g_string_new (NULL);
  const char *category = NULL;

  /* Untranslated, like the JSON: the page is a file in the source tree,
   * and a test compares it with this output whatever the locale. */
  g_string_append (out,
    "# Block reference\n"
    "\n"
    "<!-- Generated by `qdevs-cli blocks --markdown`: do not edit. -->\n"
    "\n"
    "Every block type of QDevs, grouped by category as in the editor's\n"
    "palette. This page is generated from the block descriptors, the same\n"
    "source the palette, the inspector and `qdevs-cli blocks` read, so it\n"
    "says exactly what the blocks accept. After changing a block, regenerate\n"
    "it from the source root with\n"
    "\n"
    "```sh\n"
    "./build/app/qdevs-cli blocks --markdown > docs/blocks.md\n"
    "```\n"
    "\n"
    "Parameters are text, as typed in the inspector or stored in the file.\n"
    "A *number*, *integer* or *vector* is an expression over the model\n"
    "variables (`2*k`, `1/(R*C)`); a *function* is an expression over the\n"
    "inputs `u0`, `u1`..., the time `t` and the model variables, evaluated\n"
    "during the run. A parameter whose default is *model's setting* takes\n"
    "the simulation setting of the same name when it is left empty. Ports\n"
    "are numbered from 1, inputs and outputs separately, from the top of\n"
    "the block, as messages and the event log number them (in the file a\n"
    "link's `\"port\"` is an index from 0, and in a function the first input\n"
    "is `u0`).\n"
    "\n");

  /* The contents: one line per category. */
  for (guint i = 0; i < n; i++)
    {
      const QdBlockType *type = types[i];

      if (category == NULL || strcmp (category, type->category) != 0)
        {
          category = type->category;
          g_string_append_printf (out, "%s- **%s:** ", i > 0 ? "\n" : "", category);
        }
      else
        g_string_append (out, ", ");
      g_string_append_c (out, '[');
      md_append_escaped (out, type->name);
      g_string_append_printf (out, "](#%s)", type->id);
    }
  g_string_append (out, "\n\n");

  category = NULL;
  for (guint i = 0; i < n; i++)
    {
      const QdBlockType *type = types[i];

      if (category == NULL || strcmp (category, type->category) != 0)
        {
          category = type->category;
          g_string_append (out, "## ");
          md_append_escaped (out, category);
          g_string_append (out, "\n\n");
        }
      md_append_block (out, type);
    }

  /* One newline at the end, not two. */
  if (out->len > 1 && out->str[out->len - 2] == '\n')
    g_string_truncate (out, out->len - 1);
  /* The bytes as they are: g_print would convert the UTF-8 to the
   * locale's character set, and the page is UTF-8 in every locale. */
  fwrite (out->str, 1, out->len, stdout);
  fflush (stdout);
  g_string_free (out, TRUE);
}

int
qd_cli_blocks (int    argc,
               char **argv)
{
  gboolean as_json = FALSE;
  gboolean as_markdown = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json,
      N_("Print an array of JSON objects instead of text"), NULL },
    { "markdown", 0, 0, G_OPTION_ARG_NONE, &as_markdown,
      N_("Print the reference as Markdown (docs/blocks.md)"), NULL },
    { NULL }
  };
  const QdBlockType *const *types;
  guint n = 0;

  if (!qd_cli_parse_options ("blocks", NULL,
                             _("Describe every block type: ports, parameters with kind, default, range, unit and choices."),
                             NULL, entries, &argc, &argv))
    return QD_CLI_EXIT_USAGE;
  if (argc > 1)
    return qd_cli_usage_error ("blocks", _("unexpected argument '%s'"), argv[1]);
  if (as_json && as_markdown)
    return qd_cli_usage_error ("blocks", _("--json and --markdown cannot be used together; choose one"));

  types = qd_registry_list (&n);
  if (as_json)
    print_json (types, n);
  else if (as_markdown)
    print_markdown (types, n);
  else
    print_text (types, n);

  return QD_CLI_EXIT_OK;
}
