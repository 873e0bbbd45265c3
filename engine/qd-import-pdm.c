/* qd-import-pdm.c: reading PowerDEVS's .pdm files into a QdDocument
 *
 * The file is read in two passes. The first (qd-import-pdm-parse.c) turns
 * the lines into a tree of sections (Coupled, Atomic, Point, Line...)
 * holding "Key = value" fields, with file:line:column errors; nothing
 * about PowerDEVS's blocks is known there. The second, here, walks the
 * tree: the Scilab Command blocks'
 * assignments and the subsystems' parameters become model variables,
 * each Atomic becomes the block its table entry names
 * (qd-import-pdm-table.c), each subsystem a Subsystem, and each net of
 * lines joined at Points one link with a target per receiver.
 *
 * The children of a System keep their file order: it is PowerDEVS's
 * priority order and QDevs's too (the order of a system's blocks, a
 * subsystem's contents taking its place in the flattened model).
 */
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qd-error.h"
#include "qd-registry.h"
#include "qd-import-pdm.h"
#include "qd-import-pdm-private.h"

/* PowerDEVS's blocks are about 675 units wide; QDevs's 60. */
#define SCALE  (60.0 / 675.0)
#define GRID   10.0
#define MARGIN 40.0
/* Well inside the coordinates a .qdevs file may hold (qd-file.c). */
#define MAX_COORD 1e6

/* -------------------------------------------------------------------- */
/* Building the document */

void
qd_pdm_report (Importer   *imp,
               const char *path,
               const char *block_id,
               const char *format,
               ...)
{
  va_list args;
  g_autofree char *message = NULL;

  if (imp->report == NULL)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (imp->report,
                   qd_problem_new (QD_ERROR_FAILED, path, block_id, "%s", message));
}

static void
pdm_param_parse (const Field *field,
                 PdmParam    *param)
{
  g_auto(GStrv) parts = qd_pdm_split (field->value);
  guint n = g_strv_length (parts);

  param->name = field->key;
  param->type = g_strdup (n > 0 ? parts[0] : "");
  if (n >= 3)
    {
      g_free (parts[n - 1]);
      parts[n - 1] = NULL;
      param->value = g_strjoinv (";", parts + 1);
    }
  else
    param->value = g_strdup (n == 2 ? parts[1] : "");
  if (strcmp (param->type, "Lst") == 0)
    {
      /* "<selected>%item1%item2%" */
      g_auto(GStrv) items = g_strsplit (param->value, "%", -1);
      gint64 selected;

      /* g_strsplit() of "" gives no item at all. */
      if (items[0] != NULL && qd_pdm_parse_int (g_strstrip (items[0]), &selected)
          && selected >= 1
          && selected < g_strv_length (items))
        {
          g_free (param->value);
          param->value = g_strstrip (g_strdup (items[selected]));
        }
    }
}

static void
pdm_param_clear (PdmParam *param)
{
  g_free (param->type);
  g_free (param->value);
}

/* The "Parameters" of @section, parsed. */
static GArray *
section_params (const Section *section)
{
  const Section *params = qd_pdm_get_child (section, "Parameters");
  GArray *array = g_array_new (FALSE, TRUE, sizeof (PdmParam));

  g_array_set_clear_func (array, (GDestroyNotify) pdm_param_clear);
  for (guint i = 0; params != NULL && i < params->fields->len; i++)
    {
      PdmParam param;

      pdm_param_parse (g_ptr_array_index (params->fields, i), &param);
      g_array_append_val (array, param);
    }
  return array;
}

static const char *
find_variable (Importer   *imp,
               const char *name)
{
  for (guint i = 0; i < imp->var_names->len; i++)
    if (strcmp (g_ptr_array_index (imp->var_names, i), name) == 0)
      return g_ptr_array_index (imp->var_names, i);
  return NULL;
}

const char *
qd_pdm_resolve_name (const char *name,
                     gboolean    percent,
                     gpointer    user_data)
{
  Importer *imp = user_data;

  if (!percent)
    return find_variable (imp, name);
  /* %name: the nearest enclosing Coupled that has the parameter. */
  for (guint s = imp->scopes->len; s > 0; s--)
    {
      const Section *coupled = g_ptr_array_index (imp->scopes, s - 1);

      for (guint i = 0; i < imp->scope_vars->len; i++)
        {
          ScopeVar *var = &g_array_index (imp->scope_vars, ScopeVar, i);

          if (var->coupled == coupled && strcmp (var->name, name) == 0)
            return var->variable;
        }
    }
  return NULL;
}

/* A fresh variable name from @base, made an identifier. */
static char *
variable_name (Importer   *imp,
               const char *prefix,
               const char *base)
{
  GString *name = g_string_new (NULL);
  g_autofree char *stem = NULL;

  if (prefix != NULL)
    g_string_append_printf (name, "%s_", prefix);
  g_string_append (name, base);
  for (gsize i = 0; i < name->len; i++)
    if (!g_ascii_isalnum (name->str[i]) && name->str[i] != '_')
      name->str[i] = '_';
  if (name->len == 0 || g_ascii_isdigit (name->str[0]))
    g_string_prepend_c (name, 'v');
  stem = g_strdup (name->str);
  for (guint k = 2; find_variable (imp, name->str) != NULL
                    || strcmp (name->str, "pi") == 0
                    || strcmp (name->str, "e") == 0
                    || strcmp (name->str, "t") == 0; k++)
    g_string_printf (name, "%s_%u", stem, k);
  return g_string_free (name, FALSE);
}

static void
add_variable (Importer *imp,
              char     *name,
              char     *value)
{
  g_ptr_array_add (imp->var_names, name);
  g_ptr_array_add (imp->var_values, value);
}

char *
qd_pdm_translate (Importer    *imp,
                  const char  *path,
                  const char  *block_id,
                  const char  *param,
                  const char  *text,
                  QdPdmSyntax  syntax)
{
  g_autofree char *unknown = NULL;
  g_autofree char *why = NULL;
  char *result;

  if (syntax == QD_PDM_AS_LIST || syntax == QD_PDM_AS_MATRIX)
    result = qd_pdm_translate_array (text, syntax == QD_PDM_AS_MATRIX,
                                     qd_pdm_resolve_name, imp, &unknown, &why);
  else
    result = qd_pdm_translate_expr (text, syntax == QD_PDM_AS_FUNCTION,
                                    qd_pdm_resolve_name, imp, &unknown, &why);
  if (result == NULL)
    qd_pdm_report (imp, path, block_id,
            _("%s = '%s' is not translated (%s); the text is kept: write it "
              "as a QDevs expression in the inspector"), param, text, why);
  else if (unknown != NULL)
    qd_pdm_report (imp, path, block_id,
            _("%s = '%s' uses '%s', which PowerDEVS takes from Scilab's "
              "workspace: define it as a model variable"), param, text,
            unknown);
  return result;
}

/* Turns the subsystem parameters of @coupled into model variables. */
static void
scope_enter (Importer      *imp,
             const Section *coupled,
             const char    *path)
{
  g_autoptr(GArray) params = section_params (coupled);
  const char *name = qd_pdm_get_field (coupled, "Name");

  for (guint i = 0; i < params->len; i++)
    {
      PdmParam *param = &g_array_index (params, PdmParam, i);
      ScopeVar var = { coupled, NULL, NULL };
      char *value;

      value = qd_pdm_translate (imp, path, NULL, param->name,
                                param->value, QD_PDM_AS_EXPR);
      var.name = g_intern_string (param->name);
      var.variable = variable_name (imp, find_variable (imp, param->name) != NULL
                                         ? name : NULL, param->name);
      add_variable (imp, g_strdup (var.variable),
                    value != NULL ? value : g_strdup ("0"));
      if (value == NULL)
        qd_pdm_report (imp, path, NULL,
                _("the model variable %s is 0 until you give it a value"),
                var.variable);
      g_array_append_val (imp->scope_vars, var);
    }
  g_ptr_array_add (imp->scopes, (gpointer) coupled);
}

/* The assignments of a Scilab Command block's "Run at Init" become model
 * variables. Returns FALSE when some statement was not translated. */
static gboolean
scilab_command (Importer   *imp,
                const char *path,
                GArray     *params)
{
  gboolean all = TRUE;

  for (guint i = 0; i < params->len; i++)
    {
      PdmParam *param = &g_array_index (params, PdmParam, i);
      g_auto(GStrv) statements = g_strsplit_set (param->value, ";,\n", -1);

      for (guint s = 0; statements[s] != NULL; s++)
        {
          char *statement = g_strstrip (statements[s]);
          char *eq = strchr (statement, '=');
          g_autofree char *name = NULL;
          char *value = NULL;

          if (*statement == '\0')
            continue;
          if (i == 0 && eq != NULL && eq[1] != '=' && eq > statement)
            {
              name = g_strchomp (g_strndup (statement, eq - statement));
              if (!g_regex_match_simple ("^[A-Za-z_][A-Za-z0-9_]*$", name, 0, 0))
                g_clear_pointer (&name, g_free);
            }
          if (name != NULL)
            value = qd_pdm_translate (imp, path, NULL, name, eq + 1,
                                      QD_PDM_AS_EXPR);
          if (value == NULL)
            {
              if (name == NULL)
                qd_pdm_report (imp, path, NULL,
                        _("the Scilab statement '%s' (%s) is not a plain "
                          "assignment run at init; it is not translated"),
                        statement, param->name);
              all = FALSE;
              continue;
            }
          if (find_variable (imp, name) != NULL)
            {
              qd_pdm_report (imp, path, NULL,
                      _("'%s' is assigned again; the model variable keeps the "
                        "first value"), statement);
              g_free (value);
              continue;
            }
          add_variable (imp, g_steal_pointer (&name), value);
        }
    }
  return all;
}

/* Pre-pass: every Scilab Command block of the tree, in file order. */
static void
collect_scilab (Importer      *imp,
                const Section *coupled,
                const char    *path)
{
  const Section *system = qd_pdm_get_child (coupled, "System");

  for (guint i = 0; system != NULL && i < system->children->len; i++)
    {
      const Section *child = g_ptr_array_index (system->children, i);
      const char *name = qd_pdm_get_field (child, "Name");
      g_autofree char *child_path = g_strdup_printf ("%s/%s", path,
                                                     name != NULL ? name : "?");

      if (strcmp (child->kind, "Coupled") == 0)
        collect_scilab (imp, child, child_path);
      else if (strcmp (child->kind, "Atomic") == 0)
        {
          g_autofree char *block_path = g_strdelimit (g_strdup (qd_pdm_get_field (child, "Path")
                                                              ? qd_pdm_get_field (child, "Path")
                                                              : ""), "\\", '/');

          if (g_str_has_suffix (block_path, "hybrid/runscilabjob.h"))
            {
              g_autoptr(GArray) params = section_params (child);

              if (!scilab_command (imp, child_path, params))
                g_hash_table_add (imp->scilab_partial, (gpointer) child);
            }
        }
    }
}

/* The ports of a System's children and port blocks, as line ends name
 * them. */
typedef struct
{
  QdSystem   *system;
  const char *path;       /* the system's path, "" for the root */
  GPtrArray  *children;   /* QdBlock* or NULL, by Cmp index - 1 */
  GPtrArray  *ports;      /* QdBlock*, by Prt index - 1 */
  GPtrArray  *child_maps; /* const QdPdmBlockMap* or NULL, as children */
  GHashTable *names;      /* the names taken */
  double      ox, oy;     /* the logical origin */
} Level;

static char *
unique_name (Level      *level,
             const char *wanted)
{
  g_autofree char *base = g_strdelimit (g_strstrip (g_strdup (wanted != NULL
                                                               ? wanted : "")),
                                        "/", '-');
  char *name;

  if (base[0] == '\0')
    {
      g_free (base);
      base = g_strdup (_("Block"));
    }
  name = g_strdup (base);
  for (guint k = 2; g_hash_table_contains (level->names, name); k++)
    {
      g_free (name);
      name = g_strdup_printf ("%s %u", base, k);
    }
  g_hash_table_add (level->names, g_strdup (name));
  return name;
}

/* On the grid, and inside the range a .qdevs file can hold. */
static double
snap (double v)
{
  return CLAMP (round (v / GRID) * GRID, -MAX_COORD, MAX_COORD);
}

static void
place_block (QdBlock       *block,
             const Section *section,
             const Level   *level)
{
  const Section *graphic = qd_pdm_get_child (section, "Graphic");
  const char *direction;
  double x, y, w, h;

  if (graphic == NULL)
    return;
  if (qd_pdm_parse_pair (qd_pdm_get_field (graphic, "Position"), &x, &y))
    {
      block->x = snap ((x - level->ox) * SCALE + MARGIN);
      block->y = snap ((y - level->oy) * SCALE + MARGIN);
    }
  if (qd_pdm_parse_pair (qd_pdm_get_field (graphic, "Dimension"), &w, &h) && w > 0 && h > 0)
    {
      block->width = MAX (GRID * 2, snap (w * SCALE));
      block->height = MAX (GRID * 2, snap (h * SCALE));
    }
  direction = qd_pdm_get_field (graphic, "Direction");
  if (direction == NULL)
    return;
  if (g_ascii_strcasecmp (direction, "Left") == 0)
    block->flip = TRUE;
  else if (g_ascii_strcasecmp (direction, "Down") == 0)
    block->rotation = 90;
  else if (g_ascii_strcasecmp (direction, "Up") == 0)
    block->rotation = 270;
}

static guint
port_count (const char *ports,
            guint       side)
{
  double a = 0, b = 0;

  if (!qd_pdm_parse_pair (ports, &a, &b))
    return 0;
  a = side == 0 ? a : b;
  return a >= 0 && a <= 64 ? (guint) a : 0;
}

static char *
block_path (const Level *level,
            const char  *name)
{
  return g_strdup_printf ("%s/%s", level->path, name);
}

static QdBlock *
new_block (Importer   *imp,
           Level      *level,
           const char *type,
           const char *wanted)
{
  g_autofree char *id = g_strdup_printf ("b%u", ++imp->next_block);
  g_autofree char *name = unique_name (level, wanted);
  QdBlock *block = qd_block_new (id, type, name);

  qd_system_append_block (level->system, block);
  return block;
}

/* A placeholder keeping the type, the ports and the parameters. */
static QdBlock *
build_placeholder (Importer      *imp,
                   Level         *level,
                   const Section *atomic,
                   GArray        *params,
                   const char    *why)
{
  const char *pd_path = qd_pdm_get_field (atomic, "Path");
  QdBlock *block = new_block (imp, level, QD_TYPE_PLACEHOLDER,
                              qd_pdm_get_field (atomic, "Name"));
  g_autofree char *path = block_path (level, block->name);
  g_autoptr(GString) text = g_string_new (NULL);
  char count[16];

  const Section *section = qd_pdm_get_child (atomic, "Parameters");

  /* As written, type and description included: nothing is lost. */
  for (guint i = 0; section != NULL && i < section->fields->len; i++)
    {
      const Field *field = g_ptr_array_index (section->fields, i);

      g_string_append_printf (text, "%s%s = %s", i > 0 ? "\n" : "",
                              field->key, field->value);
    }
  qd_block_set_param_raw (block, "original", pd_path != NULL ? pd_path : "");
  g_snprintf (count, sizeof count, "%u", port_count (qd_pdm_get_field (atomic, "Ports"), 0));
  qd_block_set_param_raw (block, "inputs", count);
  g_snprintf (count, sizeof count, "%u", port_count (qd_pdm_get_field (atomic, "Ports"), 1));
  qd_block_set_param_raw (block, "outputs", count);
  if (text->len > 0)
    qd_block_set_param_raw (block, "parameters", text->str);
  place_block (block, atomic, level);
  qd_pdm_report (imp, path, block->id,
          _("PowerDEVS's %s is a placeholder: %s"),
          pd_path != NULL ? pd_path : "?", why);
  return block;
}

/* The block for an Atomic, or NULL for a Scilab Command whose statements
 * all became model variables. */
static QdBlock *
build_atomic (Importer      *imp,
              Level         *level,
              const Section *atomic,
              const QdPdmBlockMap **chosen)
{
  g_autoptr(GArray) params = section_params (atomic);
  const char *pd_path = qd_pdm_get_field (atomic, "Path");
  const char *ports = qd_pdm_get_field (atomic, "Ports");
  g_autofree char *norm = g_strdelimit (g_strdup (pd_path != NULL ? pd_path : ""),
                                        "\\", '/');
  const QdPdmBlockMap *maps, *map = NULL;
  g_autofree char *path = NULL;
  g_autofree char *missing = NULL;
  QdBlock *block;
  guint n_maps = 0;

  *chosen = NULL;
  if (g_str_has_suffix (norm, "hybrid/runscilabjob.h"))
    {
      if (!g_hash_table_contains (imp->scilab_partial, atomic))
        return NULL;
      return build_placeholder (imp, level, atomic, params,
                                _("some of its Scilab statements are not "
                                  "plain assignments; the others became "
                                  "model variables"));
    }
  maps = qd_pdm_lookup (norm, &n_maps);
  for (guint i = 0; i < n_maps && map == NULL; i++)
    {
      if (maps[i].type == NULL || qd_registry_lookup (maps[i].type) != NULL)
        map = &maps[i];
      else if (missing == NULL)
        missing = g_strdup (maps[i].type);
    }
  if (map == NULL || map->type == NULL)
    {
      g_autofree char *why = NULL;

      if (map != NULL)
        why = g_strdup (_(map->note));
      else if (missing != NULL)
        why = g_strdup_printf (_("its QDevs counterpart, the block type '%s', "
                                 "is not in this build"), missing);
      else
        why = g_strdup (_("it has no QDevs counterpart; replace it or "
                          "remove it"));
      return build_placeholder (imp, level, atomic, params, why);
    }

  map = qd_pdm_choose_map (map, n_maps - (guint) (map - maps), params);
  block = new_block (imp, level, map->type, qd_pdm_get_field (atomic, "Name"));
  path = block_path (level, block->name);
  if (map->note != NULL)
    qd_pdm_report (imp, path, block->id, "%s", _(map->note));
  qd_pdm_build_params (imp, block, path, map, params, port_count (ports, 0));
  place_block (block, atomic, level);
  *chosen = map;
  return block;
}

static gboolean build_level (Importer      *imp,
                             QdSystem      *system,
                             const Section *coupled,
                             const char    *path,
                             GError       **error);

static void
level_clear (Level *level)
{
  g_ptr_array_unref (level->children);
  g_ptr_array_unref (level->ports);
  g_ptr_array_unref (level->child_maps);
  g_hash_table_unref (level->names);
}

/* The logical origin: the smallest position among the children. */
static void
level_origin (Level         *level,
              const Section *system)
{
  gboolean first = TRUE;

  level->ox = level->oy = 0;
  for (guint i = 0; i < system->children->len; i++)
    {
      const Section *child = g_ptr_array_index (system->children, i);
      const Section *graphic = qd_pdm_get_child (child, "Graphic");
      double x, y;

      if (graphic == NULL || !qd_pdm_parse_pair (qd_pdm_get_field (graphic, "Position"), &x, &y))
        continue;
      level->ox = first ? x : MIN (level->ox, x);
      level->oy = first ? y : MIN (level->oy, y);
      first = FALSE;
    }
}

static QdBlock *
build_port (Importer      *imp,
            Level         *level,
            const Section *section)
{
  gboolean in = strcmp (section->kind, "Inport") == 0;
  const char *number = qd_pdm_get_field (section, "CoupledPort");
  QdBlock *block = new_block (imp, level, in ? QD_TYPE_INPORT : QD_TYPE_OUTPORT,
                              qd_pdm_get_field (section, "Name"));
  gint64 k;

  if (number == NULL || !qd_pdm_parse_int (number, &k) || k < 1 || k > 64)
    {
      g_autofree char *path = block_path (level, block->name);

      qd_pdm_report (imp, path, block->id,
              _("CoupledPort = '%s' is not a port number from 1 to 64; the "
                "port takes number 1"), number != NULL ? number : "");
      k = 1;
    }
  qd_block_set_param_raw (block, "port", number != NULL && k > 1
                                         ? number : "1");
  place_block (block, section, level);
  return block;
}

static QdBlock *
build_coupled (Importer      *imp,
               Level         *level,
               const Section *coupled,
               GError       **error)
{
  QdBlock *block = new_block (imp, level, QD_TYPE_SUBSYSTEM,
                              qd_pdm_get_field (coupled, "Name"));
  g_autofree char *path = block_path (level, block->name);

  place_block (block, coupled, level);
  if (!build_level (imp, block->inner, coupled, path, error))
    return NULL;
  return block;
}

/* -------------------------------------------------------------------- */
/* Nets */

typedef enum { END_NONE, END_CMP, END_PNT, END_PRT } EndKind;

typedef struct
{
  EndKind kind;
  gint64  a, b, c;
} End;

typedef struct
{
  End     ends[2];      /* Source, Sink */
  GArray *points;       /* QdPoint, logical units, Source to Sink */
  guint   file_line;
} PdmLine;

/* One pin of a block at this level. */
typedef struct
{
  QdBlock *block;
  guint    port;
  gboolean output;
} Pin;

static void
pdm_line_clear (PdmLine *line)
{
  g_clear_pointer (&line->points, g_array_unref);
}

static gboolean
parse_end (const char *value,
           End        *end)
{
  g_auto(GStrv) parts = NULL;
  gint64 n[3] = { 0, 0, 0 };

  end->kind = END_NONE;
  if (value == NULL)
    return FALSE;
  parts = qd_pdm_split (value);
  if (strcmp (parts[0], "NoC") == 0 || parts[0][0] == '\0')
    return TRUE;
  for (guint i = 0; i < 3; i++)
    if (parts[i] == NULL || parts[i + 1] == NULL
        || !qd_pdm_parse_int (parts[i + 1], &n[i]))
      return FALSE;
  end->a = n[0];
  end->b = n[1];
  end->c = n[2];
  if (strcmp (parts[0], "Cmp") == 0)
    end->kind = END_CMP;
  else if (strcmp (parts[0], "Pnt") == 0)
    end->kind = END_PNT;
  else if (strcmp (parts[0], "Prt") == 0)
    end->kind = END_PRT;
  else
    return FALSE;
  return TRUE;
}

static void
parse_lines (Importer      *imp,
             const Section *section,
             const char    *path,
             GArray        *lines)
{
  PdmLine line = { { { 0 } }, NULL, section->line };
  g_auto(GStrv) xs = NULL;
  g_auto(GStrv) ys = NULL;
  const char *px = qd_pdm_get_field (section, "PointX");
  const char *py = qd_pdm_get_field (section, "PointY");

  if (!parse_end (qd_pdm_get_field (section, "Source"), &line.ends[0])
      || !parse_end (qd_pdm_get_field (section, "Sink"), &line.ends[1]))
    {
      qd_pdm_report (imp, path, NULL,
              _("%s:%u: the line's Source or Sink is not 'Cmp', 'Pnt', 'Prt' "
                "or 'NoC' with three numbers; the line is left out"),
              imp->file, section->line);
      return;
    }
  line.points = g_array_new (FALSE, FALSE, sizeof (QdPoint));
  xs = qd_pdm_split (px != NULL ? px : "");
  ys = qd_pdm_split (py != NULL ? py : "");
  for (guint i = 0; xs[i] != NULL && ys[i] != NULL; i++)
    {
      QdPoint p;
      char *end_x, *end_y;

      p.x = g_ascii_strtod (xs[i], &end_x);
      p.y = g_ascii_strtod (ys[i], &end_y);
      if (end_x != xs[i] && end_y != ys[i] && isfinite (p.x) && isfinite (p.y))
        g_array_append_val (line.points, p);
    }
  g_array_append_val (lines, line);
}

static guint
uf_find (guint *parent,
         guint  i)
{
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/* The pin a line end names, FALSE when it names none at this level. */
static gboolean
end_pin (const Level *level,
         const End   *end,
         Pin         *pin)
{
  if (end->kind == END_CMP)
    {
      const QdPdmBlockMap *map;

      if (end->a < 1 || end->a > level->children->len || end->b < 1 || end->b > 64)
        return FALSE;
      pin->block = g_ptr_array_index (level->children, end->a - 1);
      map = g_ptr_array_index (level->child_maps, end->a - 1);
      pin->output = end->c == 0;
      pin->port = (guint) end->b - 1;
      if (!pin->output && map != NULL && pin->port < G_N_ELEMENTS (map->in_map)
          && map->in_map[pin->port] != 0)
        pin->port = map->in_map[pin->port] - 1u;
      return pin->block != NULL;
    }
  if (end->kind == END_PRT)
    {
      if (end->a < 1 || end->a > level->ports->len)
        return FALSE;
      pin->block = g_ptr_array_index (level->ports, end->a - 1);
      pin->port = 0;
      pin->output = strcmp (pin->block->type, QD_TYPE_INPORT) == 0;
      return TRUE;
    }
  return FALSE;
}

/* A key for the graph node of a line end. */
static char *
end_key (const End *end,
         guint      line,
         guint      side)
{
  if (end->kind == END_PNT)
    return g_strdup_printf ("P%" G_GINT64_FORMAT, end->a);
  if (end->kind == END_NONE)
    return g_strdup_printf ("N%u.%u", line, side);
  return g_strdup_printf ("%c%" G_GINT64_FORMAT ".%" G_GINT64_FORMAT ".%"
                          G_GINT64_FORMAT, end->kind == END_CMP ? 'C' : 'R',
                          end->a, end->b, end->c);
}

/* The bend points from the driver's end to @to along the net's lines
 * (breadth first), in logical units, without the two pins' own. */
static GArray *
net_route (GArray      *lines,
           const guint *members,
           guint        n_members,
           const char  *from,
           const char  *to)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                      g_free, NULL);
  /* node key -> (line index + 1) * 2 + side it was entered from */
  g_autoptr(GHashTable) via = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                     g_free, NULL);
  g_autoptr(GQueue) queue = g_queue_new ();
  GArray *points = g_array_new (FALSE, FALSE, sizeof (QdPoint));
  g_autofree char *node = NULL;
  GPtrArray *hops = g_ptr_array_new ();

  g_hash_table_add (seen, g_strdup (from));
  g_queue_push_tail (queue, g_strdup (from));
  while (!g_queue_is_empty (queue))
    {
      g_autofree char *current = g_queue_pop_head (queue);

      if (strcmp (current, to) == 0)
        break;
      for (guint m = 0; m < n_members; m++)
        {
          PdmLine *line = &g_array_index (lines, PdmLine, members[m]);

          for (guint side = 0; side < 2; side++)
            {
              g_autofree char *here = end_key (&line->ends[side], members[m], side);
              g_autofree char *there = end_key (&line->ends[1 - side], members[m],
                                                1 - side);

              if (strcmp (here, current) != 0
                  || g_hash_table_contains (seen, there))
                continue;
              g_hash_table_add (seen, g_strdup (there));
              g_hash_table_insert (via, g_strdup (there),
                                   GUINT_TO_POINTER ((members[m] + 1) * 2 + side));
              g_queue_push_tail (queue, g_steal_pointer (&there));
            }
        }
    }
  g_queue_free_full (g_steal_pointer (&queue), g_free);

  /* Walk back from @to, then lay the lines' points from the driver on. */
  node = g_strdup (to);
  while (strcmp (node, from) != 0)
    {
      guint code = GPOINTER_TO_UINT (g_hash_table_lookup (via, node));
      PdmLine *line;
      guint side;

      if (code == 0)
        break;
      line = &g_array_index (lines, PdmLine, code / 2 - 1);
      side = code % 2;
      g_ptr_array_add (hops, GUINT_TO_POINTER (code));
      g_free (node);
      node = end_key (&line->ends[side], code / 2 - 1, side);
    }
  for (guint h = hops->len; h > 0; h--)
    {
      guint code = GPOINTER_TO_UINT (g_ptr_array_index (hops, h - 1));
      PdmLine *line = &g_array_index (lines, PdmLine, code / 2 - 1);
      gboolean forward = code % 2 == 0;

      for (guint k = 0; k < line->points->len; k++)
        {
          QdPoint p = g_array_index (line->points, QdPoint,
                                     forward ? k : line->points->len - 1 - k);
          QdPoint *last = points->len > 0
                          ? &g_array_index (points, QdPoint, points->len - 1) : NULL;

          if (last == NULL || last->x != p.x || last->y != p.y)
            g_array_append_val (points, p);
        }
    }
  g_ptr_array_free (hops, TRUE);
  /* The first and last points are where the pins are drawn. */
  if (points->len > 0)
    g_array_remove_index (points, 0);
  if (points->len > 0)
    g_array_set_size (points, points->len - 1);
  return points;
}

static gboolean
pin_exists (const Pin *pin)
{
  guint n_in = 0, n_out = 0;

  if (!qd_block_count_ports (pin->block, &n_in, &n_out, NULL))
    return FALSE;
  return pin->port < (pin->output ? n_out : n_in);
}

/* Adds the targets of one net to the link leaving its driver. */
static void
build_net (Importer    *imp,
           Level       *level,
           GArray      *lines,
           const guint *members,
           guint        n_members,
           GHashTable  *driven)
{
  const char *where = level->path;
  g_autofree char *driver_key = NULL;
  Pin driver = { NULL, 0, FALSE };
  g_autoptr(GArray) receivers = g_array_new (FALSE, FALSE, sizeof (Pin));
  g_autoptr(GPtrArray) receiver_keys = g_ptr_array_new_with_free_func (g_free);
  guint n_drivers = 0;
  gboolean lost = FALSE;
  QdLink *link;

  for (guint m = 0; m < n_members; m++)
    {
      PdmLine *line = &g_array_index (lines, PdmLine, members[m]);

      for (guint side = 0; side < 2; side++)
        {
          Pin pin;
          End *end = &line->ends[side];

          if (end->kind == END_NONE || end->kind == END_PNT)
            continue;
          if (!end_pin (level, end, &pin))
            {
              qd_pdm_report (imp, where, NULL,
                      _("%s:%u: the line names a block or port that this system "
                        "does not have; it is left out"), imp->file,
                      line->file_line);
              lost = TRUE;
              continue;
            }
          if (!pin_exists (&pin))
            {
              qd_pdm_report (imp, where, pin.block->id,
                      _("%s:%u: %s has no %s %u; the connection is left out"),
                      imp->file, line->file_line, pin.block->name,
                      pin.output ? _("output") : _("input"), pin.port + 1);
              lost = TRUE;
              continue;
            }
          if (pin.output)
            {
              /* The same pin through two lines is still one driver. */
              if (n_drivers == 0 || driver.block != pin.block
                  || driver.port != pin.port)
                n_drivers++;
              driver = pin;
              g_free (driver_key);
              driver_key = end_key (end, members[m], side);
            }
          else
            {
              g_array_append_val (receivers, pin);
              g_ptr_array_add (receiver_keys, end_key (end, members[m], side));
            }
        }
    }
  if (receivers->len == 0 && n_drivers <= 1)
    return;
  if (n_drivers == 0 && lost)
    return;  /* the end that was left out was named already */
  if (n_drivers != 1)
    {
      qd_pdm_report (imp, where, NULL,
              n_drivers == 0
              ? _("%s:%u: a net with no output driving it; its connections "
                  "are left out")
              : _("%s:%u: a net driven by two outputs; its connections are "
                  "left out"),
              imp->file, g_array_index (lines, PdmLine, members[0]).file_line);
      return;
    }
  link = qd_system_find_source (level->system, driver.block->id, driver.port);
  for (guint r = 0; r < receivers->len; r++)
    {
      Pin *pin = &g_array_index (receivers, Pin, r);
      g_autofree char *key = g_strdup_printf ("%s:%u", pin->block->id, pin->port);
      g_autoptr(GArray) route = NULL;
      QdLinkTarget *target;

      if (g_hash_table_contains (driven, key))
        {
          g_autofree char *path = block_path (level, pin->block->name);

          qd_pdm_report (imp, path, pin->block->id,
                  _("input %u is driven by two nets; the second is left out"),
                  pin->port + 1);
          continue;
        }
      g_hash_table_add (driven, g_steal_pointer (&key));
      /* Made with its first target: a link is never empty. */
      if (link == NULL)
        {
          g_autofree char *id = g_strdup_printf ("l%u", ++imp->next_link);

          link = qd_link_new (id, driver.block->id, driver.port);
          qd_system_append_link (level->system, link);
        }
      target = qd_link_add_target (link, pin->block->id, pin->port);
      route = net_route (lines, members, n_members, driver_key,
                         g_ptr_array_index (receiver_keys, r));
      for (guint k = 0; k < route->len; k++)
        {
          QdPoint p = g_array_index (route, QdPoint, k);

          p.x = snap ((p.x - level->ox) * SCALE + MARGIN);
          p.y = snap ((p.y - level->oy) * SCALE + MARGIN);
          qd_link_target_append_point (target, &p);
        }
    }
}

/* Joins the lines that meet at Points into nets (union-find) and makes
 * one link target per receiver. */
static void
build_nets (Importer *imp,
            Level    *level,
            GArray   *lines)
{
  g_autofree guint *parent = g_new (guint, lines->len + 1);
  g_autoptr(GHashTable) at_point = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GHashTable) driven = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                        g_free, NULL);
  g_autofree guint *members = g_new (guint, lines->len + 1);
  g_autofree gboolean *done = g_new0 (gboolean, lines->len + 1);

  for (guint i = 0; i < lines->len; i++)
    parent[i] = i;
  for (guint i = 0; i < lines->len; i++)
    {
      PdmLine *line = &g_array_index (lines, PdmLine, i);

      for (guint side = 0; side < 2; side++)
        if (line->ends[side].kind == END_PNT)
          {
            gpointer other = g_hash_table_lookup (at_point, &line->ends[side].a);

            if (other == NULL)
              g_hash_table_insert (at_point, &line->ends[side].a,
                                   GUINT_TO_POINTER (i + 1));
            else
              parent[uf_find (parent, GPOINTER_TO_UINT (other) - 1)]
                = uf_find (parent, i);
          }
    }
  for (guint i = 0; i < lines->len; i++)
    {
      guint root = uf_find (parent, i), n = 0;

      if (done[root])
        continue;
      done[root] = TRUE;
      for (guint k = i; k < lines->len; k++)
        if (uf_find (parent, k) == root)
          members[n++] = k;
      build_net (imp, level, lines, members, n, driven);
    }
}

static gboolean
build_level (Importer      *imp,
             QdSystem      *system,
             const Section *coupled,
             const char    *path,
             GError       **error)
{
  const Section *section = qd_pdm_get_child (coupled, "System");
  g_autoptr(GArray) lines = g_array_new (FALSE, TRUE, sizeof (PdmLine));
  Level level = { system, path, g_ptr_array_new (), g_ptr_array_new (),
                  g_ptr_array_new (),
                  g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
                  0, 0 };
  gboolean ok = TRUE;

  g_array_set_clear_func (lines, (GDestroyNotify) pdm_line_clear);
  scope_enter (imp, coupled, path);
  if (section != NULL)
    level_origin (&level, section);
  for (guint i = 0; ok && section != NULL && i < section->children->len; i++)
    {
      const Section *child = g_ptr_array_index (section->children, i);
      const QdPdmBlockMap *map = NULL;
      QdBlock *block = NULL;

      if (strcmp (child->kind, "Inport") == 0 || strcmp (child->kind, "Outport") == 0)
        g_ptr_array_add (level.ports, build_port (imp, &level, child));
      else if (strcmp (child->kind, "Line") == 0)
        parse_lines (imp, child, path, lines);
      else if (strcmp (child->kind, "Atomic") == 0
               || strcmp (child->kind, "Coupled") == 0)
        {
          if (child->kind[0] == 'A')
            block = build_atomic (imp, &level, child, &map);
          else
            ok = (block = build_coupled (imp, &level, child, error)) != NULL;
          g_ptr_array_add (level.children, block);
          g_ptr_array_add (level.child_maps, (gpointer) map);
        }
    }
  if (ok)
    {
      build_nets (imp, &level, lines);
      qd_pdm_size_spreads (imp, system);
    }
  g_ptr_array_remove_index (imp->scopes, imp->scopes->len - 1);
  level_clear (&level);
  return ok;
}

/* -------------------------------------------------------------------- */

/* The initial and final times of a .stm file. */
static gboolean
parse_stm (const char *stm,
           double     *start,
           double     *final)
{
  g_auto(GStrv) words = g_strsplit_set (stm, " \t\r\n", -1);
  double values[2];
  guint n = 0;

  for (guint i = 0; words[i] != NULL && n < 2; i++)
    {
      char *end;

      if (words[i][0] == '\0')
        continue;
      values[n] = g_ascii_strtod (words[i], &end);
      if (*end != '\0' || !isfinite (values[n]))
        return FALSE;
      n++;
    }
  if (n != 2 || values[1] <= values[0])
    return FALSE;
  *start = values[0];
  *final = values[1];
  return TRUE;
}

QdDocument *
qd_import_pdm_data (const char  *data,
                    gsize        length,
                    const char  *name,
                    const char  *stm,
                    GPtrArray   *report_out,
                    GError     **error)
{
  g_autoptr(Section) top = NULL;
  g_autoptr(QdDocument) document = NULL;
  g_autoptr(QdSystem) root = NULL;
  Importer imp = { name, report_out, g_ptr_array_new (),
                   g_array_new (FALSE, FALSE, sizeof (ScopeVar)),
                   g_ptr_array_new_with_free_func (g_free),
                   g_ptr_array_new_with_free_func (g_free),
                   g_hash_table_new (NULL, NULL),
                   g_hash_table_new_full (NULL, NULL, NULL, g_free),
                   g_ptr_array_new_with_free_func (qd_pdm_spread_free), 0, 0 };
  const Section *coupled;
  QdSettings settings;
  gboolean ok = FALSE;

  g_return_val_if_fail (data != NULL && name != NULL, NULL);

  top = qd_pdm_parse (data, length, name, error);
  if (top == NULL)
    goto out;
  coupled = qd_pdm_get_child (top, "Coupled");
  if (coupled == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FORMAT,
                   _("%s: no 'Coupled' section; a PowerDEVS model (.pdm) starts "
                     "with its root Coupled"), name);
      goto out;
    }

  collect_scilab (&imp, coupled, "");
  root = qd_system_new ();
  if (!build_level (&imp, root, coupled, "", error))
    goto out;

  document = qd_document_new ();
  for (guint i = 0; i < imp.var_names->len; i++)
    {
      g_autoptr(GError) local_error = NULL;

      if (!qd_document_set_variable (document, g_ptr_array_index (imp.var_names, i),
                                     g_ptr_array_index (imp.var_values, i),
                                     &local_error))
        qd_pdm_report (&imp, "", NULL, _("the model variable %s = %s is left out: %s"),
                (char *) g_ptr_array_index (imp.var_names, i),
                (char *) g_ptr_array_index (imp.var_values, i),
                local_error->message);
    }
  settings = *qd_document_get_settings (document);
  /* PowerDEVS's default when there is no .stm. */
  settings.start_time = 0;
  settings.final_time = 30;
  if (stm == NULL)
    qd_pdm_report (&imp, "", NULL,
            _("no .stm file beside the model: the final time is PowerDEVS's "
              "default, 30"));
  else if (!parse_stm (stm, &settings.start_time, &settings.final_time))
    qd_pdm_report (&imp, "", NULL,
            _("the .stm file does not hold an initial and a later final time; "
              "the final time is PowerDEVS's default, 30"));
  qd_document_set_settings (document, &settings, NULL);
  if (qd_pdm_get_field (coupled, "Name") != NULL)
    qd_document_set_title (document, qd_pdm_get_field (coupled, "Name"));
  if (qd_pdm_get_field (coupled, "Description") != NULL)
    qd_document_set_description (document, qd_pdm_get_field (coupled, "Description"));
  qd_document_take_root (document, g_steal_pointer (&root));
  /* Nothing is on disk in QDevs's format yet: Save asks for a name. */
  qd_document_set_unsaved (document);
  ok = TRUE;

out:
  g_ptr_array_unref (imp.scopes);
  for (guint i = 0; i < imp.scope_vars->len; i++)
    g_free (g_array_index (imp.scope_vars, ScopeVar, i).variable);
  g_array_unref (imp.scope_vars);
  g_ptr_array_unref (imp.var_names);
  g_ptr_array_unref (imp.var_values);
  g_hash_table_unref (imp.scilab_partial);
  g_hash_table_unref (imp.widths);
  g_ptr_array_unref (imp.spreads);
  return ok ? g_steal_pointer (&document) : NULL;
}

QdDocument *
qd_import_pdm (const char  *path,
               GPtrArray   *report_out,
               GError     **error)
{
  g_autofree char *data = NULL;
  g_autofree char *stm = NULL;
  g_autofree char *stm_path = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &data, &length, &local_error))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO, "%s", local_error->message);
      return NULL;
    }
  if (g_str_has_suffix (path, ".pdm") || g_str_has_suffix (path, ".PDM"))
    stm_path = g_strdup_printf ("%.*s.stm", (int) strlen (path) - 4, path);
  else
    stm_path = g_strdup_printf ("%s.stm", path);
  if (!g_file_get_contents (stm_path, &stm, NULL, NULL))
    g_clear_pointer (&stm, g_free);
  return qd_import_pdm_data (data, length, path, stm, report_out, error);
}
