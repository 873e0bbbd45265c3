/* qd-import-pdm-table.c: PowerDEVS's blocks in QDevs terms, and Scilab
 * arithmetic as QDevs expressions
 *
 * One constant entry per PowerDEVS atomic (its header path), giving the
 * QDevs type and, by position, what becomes of each parameter. A path may
 * have several entries in order of preference: the importer takes the
 * first whose type this build registers, so a block type that arrives
 * later is used as soon as it exists. An entry without a type makes a
 * placeholder. The table is the single place to change when a mapping
 * changes; docs/powerdevs.md describes it for users.
 */
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qd-expr.h"
#include "qd-import-pdm-private.h"

#define P(kind, name) { QD_PDM_##kind, name }
#define I(kind) { QD_PDM_##kind, NULL }

/* The three parameters of PowerDEVS's Multiplier that its code ignores. */
#define IGNORED3 I (IGNORED), I (IGNORED), I (IGNORED)

static const char realtime_note[] =
  N_("real-time blocks have no QDevs counterpart; the block is a "
     "placeholder keeping its parameters");

static const QdPdmBlockMap table[] = {
  /* Continuous */
  { "qss/qss_integrator.h", "integrator", NULL, { NULL }, { 0 },
    { P (METHOD, "method"), P (EXPR, "dqmin"), P (EXPR, "dqrel"), P (EXPR, "x0") } },
  { "qss/qss_wsum.h", "wsum", NULL, { NULL }, { 0 },
    { P (ELEMENT, "weights"), P (ELEMENT, "weights"), P (ELEMENT, "weights"),
      P (ELEMENT, "weights"), P (ELEMENT, "weights"), P (ELEMENT, "weights"),
      P (ELEMENT, "weights"), P (ELEMENT, "weights"), P (COUNT, "n") } },
  { "qss/qss_nlfunction.h", "nlfunction", NULL, { NULL }, { 0 },
    { P (FUNCTION, "expression"), P (COUNT, "n") } },
  { "qss/qss_gain.h", "gain", NULL, { NULL }, { 0 }, { P (EXPR, "k") } },
  { "qss/qss_multiplier.h", "product", NULL, { "n", "2", NULL }, { 0 },
    { IGNORED3 } },
  { "qss/xpower2.h", "square", NULL, { NULL }, { 0 }, { I (END) } },
  { "qss/xpowern.h", "power_n", NULL, { NULL }, { 0 }, { P (EXPR, "n") } },
  { "qss/xpowern.h", "pow", NULL, { NULL }, { 0 }, { P (EXPR, "exponent") } },
  { "qss/inverse_function.h", "inverse", NULL, { NULL }, { 0 }, { I (END) } },
  { "qss/sin_function_step.h", "sin",
    N_("PowerDEVS's Sin approximates with its own quanta (Advance method, "
       "dQrel, dQmin); QDevs's Sin gives the exact Taylor coefficients, so "
       "those parameters are dropped"), { NULL }, { 0 },
    { I (IGNORED), I (IGNORED), I (IGNORED) } },
  { "qss/implicit.h", "implicit_function", NULL, { NULL }, { 0 },
    { P (FUNCTION, "expression"), P (EXPR, "tolerance"), P (EXPR, "y0"),
      P (COUNT, "n") } },
  { "qss/qss_delay.h", "transport_delay", NULL, { NULL }, { 0 },
    { P (EXPR, "delay") } },
  { "qss/dqssv2o3.h", "variable_transport_delay",
    N_("PowerDEVS's initial delay tau0 has no counterpart (QDevs reads the "
       "delay from the first input from the start); set the maximum delay"),
    { NULL }, { 2, 1 }, { I (DROPPED), P (EXPR, "initial") } },
  { "qss/pure_integrator.h", "integrator",
    N_("PowerDEVS's Pure Integrator integrates its input polynomial without "
       "quantization; it becomes a quantized Integrator with the model's "
       "quanta"), { NULL }, { 0 }, { P (EXPR, "x0") } },
  { "qss/res_qss_integrator.h", "integrator_reset", NULL, { NULL }, { 0 },
    { P (METHOD, "method"), P (EXPR, "dqmin"), P (EXPR, "dqrel"), P (EXPR, "x0") } },

  /* Sources */
  { "sources/pulse_sci.h", "pulse", NULL, { NULL }, { 0 },
    { P (EXPR, "base"), P (EXPR, "amplitude"), P (EXPR, "start"),
      P (WIDTH_END, "width") } },
  { "sources/constant_sci.h", "constant", NULL, { NULL }, { 0 },
    { P (EXPR, "value") } },
  { "sources/triangular_sci.h", "triangle",
    N_("QDevs's Triangle emits exact straight pieces: PowerDEVS's Method and "
       "dQ are dropped"), { NULL }, { 0 },
    { P (EXPR, "amplitude"), P (EXPR, "frequency"), I (IGNORED), I (IGNORED) } },
  { "sources/trapezoidal_sci.h", "trapezoid",
    N_("QDevs's Trapezoid emits exact straight pieces: PowerDEVS's Method and "
       "dQ are dropped"), { NULL }, { 0 },
    { P (EXPR, "high"), P (EXPR, "low"), P (EXPR, "high_time"),
      P (EXPR, "low_time"), P (EXPR, "rise"), P (EXPR, "fall"), I (IGNORED),
      I (IGNORED) } },
  { "sources/sinegen_sci.h", "sine",
    N_("QDevs's Sine sets its own quanta: PowerDEVS's events per period and "
       "Method are dropped"), { NULL }, { 0 },
    { P (EXPR, "amplitude"), P (EXPR, "frequency"), P (EXPR, "phase"),
      I (IGNORED), I (IGNORED) } },
  { "sources/step_sci.h", "step", NULL, { NULL }, { 0 },
    { P (EXPR, "initial"), P (EXPR, "time"), P (EXPR, "final") } },
  { "sources/ramp_sci.h", "ramp",
    N_("PowerDEVS's Ramp stops rising at v after the rise time; QDevs's Ramp "
       "keeps rising with slope v/tr (add a Saturation to stop it); Method "
       "and dq are dropped"), { NULL }, { 0 },
    { P (EXPR, "start"), I (IGNORED), P (OVER_PREVIOUS, "slope"), I (IGNORED),
      I (IGNORED) } },
  { "sources/saw_sci.h", "sawtooth",
    N_("QDevs's Sawtooth rises from offset - amplitude to offset + "
       "amplitude at the frequency; PowerDEVS's Slope, Method and dQ are "
       "dropped: check the wave's levels"), { NULL }, { 0 },
    { P (HALF, "amplitude"), P (EXPR, "frequency"), I (DROPPED), I (IGNORED),
      I (IGNORED) } },
  { "sources/square_sci.h", "square_wave", NULL, { NULL }, { 0 },
    { P (HALF, "amplitude"), P (EXPR, "frequency"), P (EXPR, "duty") } },
  { "sources/random/normal_gen.h", "normal_random", NULL, { NULL }, { 0 },
    { P (EXPR, "mean"), P (EXPR, "variance"), P (EXPR, "period"),
      P (EXPR, "seed") } },
  { "sources/random/poisson_gen.h", "poisson",
    N_("PowerDEVS's Poisson generator's parameters have no one-to-one "
       "counterpart; set the rate and seed of QDevs's Poisson source"),
    { NULL }, { 0 }, { I (DROPPED), I (DROPPED), I (DROPPED) } },
  { "sources/fromwav.h", NULL,
    N_("reading a WAV file has no QDevs counterpart; convert it to CSV "
       "and use From CSV"), { NULL }, { 0 }, { I (END) } },
  { "sources/fromworkspace.h", NULL,
    N_("Scilab's workspace has no QDevs counterpart; write the data to a "
       "CSV file and use From CSV"), { NULL }, { 0 }, { I (END) } },

  /* Sinks */
  { "sinks/gnuplot.h", "scope",
    N_("GnuPlot's plot settings are dropped: the Scope plots in the editor"),
    { NULL }, { 0 },
    { P (COUNT, "n"), I (IGNORED), I (IGNORED), I (IGNORED), I (IGNORED),
      I (IGNORED), I (IGNORED) } },
  { "sinks/to_disk.h", "to_csv",
    N_("To Disk becomes To CSV: the file is written as CSV"), { NULL },
    { 0 }, { P (TEXT, "file") } },
  { "sinks/toscilab_offline.h", NULL,
    N_("Scilab's workspace has no QDevs counterpart; use a Scope or To CSV"),
    { NULL }, { 0 }, { I (END) } },
  { "sinks/ev_count2.h", "event_counter",
    N_("the Event Counter reports its counts in the run's statistics, not "
       "in a file: the file name is dropped"), { NULL }, { 0 },
    { I (DROPPED), P (COUNT, "n") } },
  { "sinks/time_count.h", "time_counter", NULL, { NULL }, { 0 }, { I (END) } },

  /* Hybrid */
  { "qss/samplehold.h", "sample_hold", NULL, { NULL }, { 0 },
    { P (EXPR, "period"), P (EXPR, "phase") } },
  { "qss/cross_detect.h", "cross_detect", NULL, { "direction", "both", NULL },
    { 0 }, { P (EXPR, "level"), P (EXPR, "value") } },
  { "qss/qss_switch.h", "switch", NULL, { NULL }, { 0 }, { P (EXPR, "level") } },
  { "qss/command_sampler.h", "commanded_sampler", NULL, { NULL }, { 0 },
    { I (END) } },
  { "qss/compare.h", "comparator", NULL, { NULL }, { 0 },
    { P (EXPR, "low"), P (EXPR, "high") } },
  { "qss/hysteretic.h", "hysteresis", NULL, { NULL }, { 0 },
    { P (EXPR, "xl"), P (EXPR, "xu"), P (EXPR, "yl"), P (EXPR, "yu") } },
  { "qss/qss_saturation.h", "saturation", NULL, { NULL }, { 0 },
    { P (EXPR, "lower"), P (EXPR, "upper") } },
  { "qss/qss_quantizer.h", "quantizer", NULL, { NULL }, { 0 },
    { P (EXPR, "quantum"), P (YESNO, "hysteresis") } },

  /* Discrete and Petri nets */
  { "discrete/qoperator_sci.h", "unit_delay", NULL, { NULL }, { 0 },
    { P (EXPR, "initial"), P (EXPR, "period") } },
  { "petri/place.h", "place",
    N_("a QDevs place counts the +1 and -1 events of its transitions: check "
       "the arcs against the Petri net (PowerDEVS's place delay is dropped)"),
    { NULL }, { 0 }, { P (EXPR, "tokens"), I (DROPPED), P (COUNT, "n") } },
  { "petri/transition.h", "transition",
    N_("a QDevs transition fires +1 on y1 and takes -1 on y2: check the arcs "
       "against the Petri net"), { NULL }, { 0 },
    { P (EXPR, "delay"), P (COUNT, "n") } },

  /* Vectors. PowerDEVS sends a vector as events carrying one element's
   * index, numbered from 0; QDevs's vector wires carry every element with
   * its own events, numbered from 1. Widths come from the wires: a Size
   * is checked, and read where QDevs needs it (the Integrator, and the
   * Scalar to Vector that a scalar2vec becomes). The element-wise blocks
   * read their scalar counterpart's parameters, then Size. */
  { "vector/vector_wsum.h", "wsum", NULL, { NULL }, { 0 },
    { P (ELEMENT, "weights"), P (ELEMENT, "weights"), P (ELEMENT, "weights"),
      P (ELEMENT, "weights"), P (ELEMENT, "weights"), P (ELEMENT, "weights"),
      P (ELEMENT, "weights"), P (ELEMENT, "weights"), P (COUNT, "n"),
      I (SIZE) } },
  { "vector/vec2scalar.h", "selector", NULL, { NULL }, { 0 },
    { P (INDEX, "elements") } },
  /* Index -1 repeats the input; Index i puts it at element i + 1 of a
   * vector of zeros, a Matrix Gain with one nonzero row. */
  { "vector/scalar2vec.h", "scalar_to_vector", NULL, { NULL }, { 0 },
    { I (SPREAD) } },
  { "vector/scalar2vec.h", "matrix_gain",
    N_("PowerDEVS's scalar2vec with an element index becomes a Matrix Gain "
       "with one nonzero row: the other elements are constant zeros, which "
       "have one event at the start"), { NULL }, { 0 }, { P (SPREAD, "matrix") } },
  { "vector/vector_integrator.h", "integrator", NULL, { NULL }, { 0 },
    { P (METHOD, "method"), P (EXPR, "dqmin"), P (EXPR, "dqrel"), P (LIST, "x0"),
      P (SIZE, "size") } },
  /* The elements shifted in have no events in PowerDEVS: zero, QDevs's
   * boundary value. */
  { "vector/index_shift.h", "index_shift", NULL, { NULL }, { 0 },
    { P (EXPR, "shift"), I (SIZE) } },
  { "vector/matrix_gain.h", "matrix_gain", NULL, { NULL }, { 0 },
    { P (MATRIX, "matrix") } },
  /* y = K·Σu[i]: a Sum of Elements when K is 1, else a Matrix Gain. */
  { "vector/vector_sum.h", "sum_elements", NULL, { NULL }, { 0 },
    { I (REPEAT), I (SIZE) } },
  { "vector/vector_sum.h", "matrix_gain", NULL, { NULL }, { 0 },
    { P (REPEAT, "matrix"), I (SIZE) } },
  { "vector/vector_samplehold.h", "sample_hold", NULL, { NULL }, { 0 },
    { P (EXPR, "period"), P (EXPR, "phase"), I (SIZE) } },
  { "vector/vector_cross_detect.h", "cross_detect", NULL,
    { "direction", "both", NULL }, { 0 },
    { P (EXPR, "level"), P (EXPR, "value"), I (SIZE) } },
  { "vector/vector_qoperator.h", "unit_delay", NULL, { NULL }, { 0 },
    { P (EXPR, "initial"), P (EXPR, "period"), I (SIZE) } },
  { "vector/vector_multiplier.h", "product", NULL, { "n", "2", NULL }, { 0 },
    { IGNORED3, I (SIZE) } },
  { "vector/vector_saturation.h", "saturation", NULL, { NULL }, { 0 },
    { P (EXPR, "lower"), P (EXPR, "upper"), I (SIZE) } },
  { "vector/vector_hysteretic.h", "hysteresis", NULL, { NULL }, { 0 },
    { P (EXPR, "xl"), P (EXPR, "xu"), P (EXPR, "yl"), P (EXPR, "yu"), I (SIZE) } },
  { "vector/vector_normal_gen.h", "normal_random",
    N_("PowerDEVS's Vector NRGen becomes a Normal Random of that size, "
       "element k drawing with seed + k - 1: a different random sequence"),
    { NULL }, { 0 },
    { P (EXPR, "mean"), P (EXPR, "variance"), P (EXPR, "period"),
      P (EXPR, "seed"), P (SIZE, "size") } },
  { "vector/index_selector.h", "selector", NULL, { NULL }, { 0 },
    { I (INDEX), P (RANGE_END, "elements") } },
  { "vector/index_mapper.h", "selector",
    N_("PowerDEVS's Index Mapper becomes a Selector whose element j is the "
       "input's element map[j] (from 0, so map[j] + 1 in QDevs): check that "
       "the map reads that way round"), { NULL }, { 0 },
    { P (INDEX, "elements"), I (SIZE) } },

  /* Real time */
  { "realtime/rtview.h", NULL, realtime_note, { NULL }, { 0 }, { I (END) } },
  { "realtime/rtclock.h", NULL, realtime_note, { NULL }, { 0 }, { I (END) } },
  { "realtime/knob.h", NULL, realtime_note, { NULL }, { 0 }, { I (END) } },
  { "realtime/lcd.h", NULL, realtime_note, { NULL }, { 0 }, { I (END) } },
};

const QdPdmBlockMap *
qd_pdm_lookup (const char *path,
               guint      *n)
{
  g_autofree char *key = g_strdelimit (g_strdup (path), "\\", '/');
  const char *tail = key;

  /* Some files name the path from PowerDEVS's atomics/ folder. */
  if (g_str_has_prefix (tail, "atomics/"))
    tail += strlen ("atomics/");
  *n = 0;
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_ascii_strcasecmp (table[i].path, tail) == 0)
      {
        guint k = i;

        while (k < G_N_ELEMENTS (table)
               && g_ascii_strcasecmp (table[k].path, tail) == 0)
          k++;
        *n = k - i;
        return &table[i];
      }
  return NULL;
}

const char *
qd_pdm_method (const char *powerdevs,
               gboolean   *exact)
{
  static const char *const map[][2] = {
    { "QSS", "QSS1" }, { "QSS1", "QSS1" }, { "QSS2", "QSS2" },
    { "QSS3", "QSS3-PowerDEVS" }, { "BQSS", "BQSS" }, { "CQSS", "CQSS" },
    { "LIQSS", "LIQSS1" }, { "LIQSS1", "LIQSS1" }, { "LIQSS2", "LIQSS2" },
    { "LIQSS3", "LIQSS3" },
  };
  g_autofree char *name = g_strstrip (g_ascii_strup (powerdevs, -1));

  *exact = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (strcmp (map[i][0], name) == 0)
      return map[i][1];
  /* QSS4 and anything newer: the highest order QDevs has. */
  *exact = FALSE;
  return "QSS3";
}

/* -------------------------------------------------------------------- */
/* Scilab arithmetic */

/* Functions with the same name and meaning in Scilab and QDevs. */
static const char *const same_functions[] = {
  "sqrt", "exp", "log", "sin", "cos", "tan", "asin", "acos", "atan",
  "sinh", "cosh", "tanh", "abs", "sign", "min", "max", "floor", "ceil",
  NULL
};

/* The number of arguments of the call whose '(' is at @open. */
static guint
count_arguments (const char *open)
{
  guint depth = 0, n = 1;

  for (const char *p = open; *p != '\0'; p++)
    {
      if (*p == '(')
        depth++;
      else if (*p == ')' && --depth == 0)
        break;
      else if (*p == ',' && depth == 1)
        n++;
    }
  return n;
}

static gboolean
is_ident_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$' || c == '#';
}

/* Appends the name at *@p to @out, advancing *@p; FALSE with @why when
 * it has no QDevs translation. */
static gboolean
translate_name (const char  **p,
                GString      *out,
                gboolean      function,
                QdPdmResolve  resolve,
                gpointer      user_data,
                char        **unknown,
                char        **why)
{
  const char *start = *p, *after;
  gboolean percent = *start == '%';
  g_autofree char *name = NULL;
  const char *resolved;

  if (percent)
    start++;
  after = start;
  while (is_ident_char (*after))
    after++;
  name = g_strndup (start, after - start);
  *p = after;
  while (*after == ' ' || *after == '\t')
    after++;

  if (!percent && *after == '(')
    {
      if (g_strv_contains (same_functions, name))
        g_string_append (out, strcmp (name, "atan") == 0
                              && count_arguments (after) == 2
                              ? "atan2" : name);
      else
        {
          *why = g_strdup_printf (_("the Scilab function '%s' has no QDevs "
                                    "counterpart"), name);
          return FALSE;
        }
      return TRUE;
    }
  if (percent && (strcmp (name, "pi") == 0 || strcmp (name, "e") == 0))
    {
      g_string_append (out, name);
      return TRUE;
    }
  if (percent && (strcmp (name, "t") == 0 || strcmp (name, "T") == 0))
    {
      g_string_append (out, "1");
      return TRUE;
    }
  if (percent && strcmp (name, "f") == 0)
    {
      g_string_append (out, "0");
      return TRUE;
    }
  if (!percent && function
      && (strcmp (name, "t") == 0
          || (name[0] == 'u' && g_ascii_isdigit (name[1]) && name[2] == '\0')))
    {
      g_string_append (out, name);
      return TRUE;
    }
  resolved = resolve (name, percent, user_data);
  if (resolved != NULL)
    {
      g_string_append (out, resolved);
      return TRUE;
    }
  if (percent)
    {
      *why = g_strdup_printf (_("%%%s is not a parameter of an enclosing "
                                "subsystem"), name);
      return FALSE;
    }
  if (*unknown == NULL)
    *unknown = g_strdup (name);
  g_string_append (out, name);
  return TRUE;
}

char *
qd_pdm_translate_expr (const char   *scilab,
                       gboolean      function,
                       QdPdmResolve  resolve,
                       gpointer      user_data,
                       char        **unknown,
                       char        **why)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  QdExpr *expr;
  const char *p = scilab;

  *unknown = NULL;
  *why = NULL;
  while (*p != '\0')
    {
      char c = *p;

      if (g_ascii_isdigit (c) || (c == '.' && g_ascii_isdigit (p[1])))
        {
          while (g_ascii_isdigit (*p) || *p == '.')
            g_string_append_c (out, *p++);
          /* Scilab writes 1d-3 as well as 1e-3. */
          if ((*p == 'e' || *p == 'E' || *p == 'd' || *p == 'D')
              && (g_ascii_isdigit (p[1])
                  || ((p[1] == '+' || p[1] == '-') && g_ascii_isdigit (p[2]))))
            {
              g_string_append_c (out, 'e');
              p++;
              if (*p == '+' || *p == '-')
                g_string_append_c (out, *p++);
              while (g_ascii_isdigit (*p))
                g_string_append_c (out, *p++);
            }
        }
      else if (is_ident_start (c) || (c == '%' && is_ident_start (p[1])))
        {
          if (!translate_name (&p, out, function, resolve, user_data,
                               unknown, why))
            return NULL;
        }
      else if (c == '*' && p[1] == '*')
        {
          g_string_append_c (out, '^');
          p += 2;
        }
      else if (c == '.' && (p[1] == '*' || p[1] == '/' || p[1] == '^'))
        p++;  /* element-wise operators are the plain ones on scalars */
      else if (strchr ("+-*/^(), \t", c) != NULL)
        g_string_append_c (out, *p++);
      else
        {
          *why = g_strdup_printf (c == '[' || c == ']' || c == ';'
                                  ? _("a Scilab matrix has no QDevs counterpart")
                                  : _("'%c' is not QDevs arithmetic"), c);
          return NULL;
        }
    }
  g_strstrip (out->str);
  out->len = strlen (out->str);
  expr = qd_expr_parse (out->str, &error);
  if (expr == NULL)
    {
      *why = g_strdup (error->message);
      return NULL;
    }
  qd_expr_free (expr);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Scilab's matrices are written as MATLAB's: rows separated by ';',
 * elements by ',' or spaces. */
char *
qd_pdm_translate_array (const char   *scilab,
                        gboolean      matrix,
                        QdPdmResolve  resolve,
                        gpointer      user_data,
                        char        **unknown,
                        char        **why)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *text = g_strstrip (g_strdup (scilab));
  guint n_cols;

  *unknown = NULL;
  *why = NULL;
  if (text[0] != '[' && !matrix)
    return qd_pdm_translate_expr (text, FALSE, resolve, user_data, unknown, why);
  rows = qd_expr_split_matrix (text, &error);
  if (rows == NULL)
    {
      *why = g_strdup (error->message);
      return NULL;
    }
  n_cols = rows->len > 0 ? g_strv_length (g_ptr_array_index (rows, 0)) : 0;
  if (!matrix && rows->len > 1 && n_cols > 1)
    {
      *why = g_strdup_printf (_("a matrix of %u rows and %u columns where "
                                "a vector is expected"), rows->len, n_cols);
      return NULL;
    }
  if (matrix)
    g_string_append_c (out, '[');
  for (guint r = 0; r < rows->len; r++)
    {
      char **row = g_ptr_array_index (rows, r);

      for (guint c = 0; row[c] != NULL; c++)
        {
          g_autofree char *name = NULL;
          char *element = qd_pdm_translate_expr (row[c], FALSE, resolve,
                                                 user_data, &name, why);

          if (element == NULL)
            return NULL;
          if (*unknown == NULL)
            *unknown = g_steal_pointer (&name);
          g_string_append_printf (out, "%s%s",
                                  out->len == 0 || (matrix && c == 0 && r == 0)
                                  ? "" : matrix && c == 0 ? "; " : ", ",
                                  element);
          g_free (element);
        }
    }
  if (matrix)
    g_string_append_c (out, ']');
  if (out->len == 0 || strcmp (out->str, "[]") == 0)
    {
      *why = g_strdup (_("an empty matrix"));
      return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}
