/* qd-sweep.c: the runs of a sweep, their values and their seeds
 *
 * The sweep is a description, not a list: run r's values are computed
 * from r when asked, so a sweep of a million runs costs nothing until it
 * runs, and a worker given only r computes exactly what any other would.
 */
#include "qd-sweep.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-error.h"
#include "qd-simulation-private.h"

/* More runs than this is a typing mistake (a grid of 10000 x 10000), not
 * an experiment: the records of every run are kept in memory. */
#define QD_SWEEP_MAX_RUNS 100000000ULL
#define QD_SWEEP_MAX_POINTS 10000000ULL

typedef enum
{
  DIST_NORMAL,
  DIST_UNIFORM,
  DIST_LOGNORMAL,
} DistKind;

typedef struct
{
  char   *name;
  GArray *values;    /* double: the points of a --vary */
} Vary;

typedef struct
{
  char     *name;
  DistKind  kind;
  double    p1, p2;  /* (mu, sigma) or (a, b) */
} Dist;

struct _QdSweep
{
  GPtrArray *varies;    /* Vary* */
  GPtrArray *dists;     /* Dist* */
  guint64    samples;
  guint64    seed;
  gboolean   model_seeds;
};

static void
vary_free (gpointer data)
{
  Vary *vary = data;

  g_free (vary->name);
  g_array_unref (vary->values);
  g_free (vary);
}

static void
dist_free (gpointer data)
{
  Dist *dist = data;

  g_free (dist->name);
  g_free (dist);
}

QdSweep *
qd_sweep_new (void)
{
  QdSweep *self = g_new0 (QdSweep, 1);

  self->varies = g_ptr_array_new_with_free_func (vary_free);
  self->dists = g_ptr_array_new_with_free_func (dist_free);
  self->samples = 1;
  return self;
}

void
qd_sweep_free (QdSweep *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->varies);
  g_ptr_array_unref (self->dists);
  g_free (self);
}

/* A finite number, the whole of @text (blanks around it allowed). */
static gboolean
parse_number (const char *text,
              double     *value)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  char *end = NULL;

  if (copy[0] == '\0')
    return FALSE;
  *value = g_ascii_strtod (copy, &end);
  return end != copy && *end == '\0' && isfinite (*value);
}

static gboolean
parse_count (const char *text,
             guint64    *count)
{
  double value;

  if (!parse_number (text, &value) || value < 1.0 || value != floor (value)
      || value > (double) QD_SWEEP_MAX_POINTS)
    return FALSE;
  *count = (guint64) value;
  return TRUE;
}

/* "NAME=SPEC" into its name (trimmed) and SPEC. */
static gboolean
split_assignment (const char  *text,
                  const char  *option,
                  const char  *example,
                  char       **name,
                  const char **spec,
                  GError     **error)
{
  const char *eq = strchr (text, '=');

  if (eq != NULL)
    {
      *name = g_strstrip (g_strndup (text, eq - text));
      if ((*name)[0] != '\0')
        {
          *spec = eq + 1;
          return TRUE;
        }
      g_clear_pointer (name, g_free);
    }
  g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
               _("%s '%s' is not of the form NAME=VALUES (for example %s %s)"),
               option, text, option, example);
  return FALSE;
}

/* a:b:n or log:a:b:n; n points with both ends exact. */
static gboolean
parse_range (const char *spec,
             gboolean    logarithmic,
             GArray     *values)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":", -1);
  double a, b;
  guint64 n;

  if (g_strv_length (parts) != 3 || !parse_number (parts[0], &a)
      || !parse_number (parts[1], &b) || !parse_count (parts[2], &n))
    return FALSE;
  if (logarithmic && !(a > 0.0 && b > 0.0))
    return FALSE;
  for (guint64 i = 0; i < n; i++)
    {
      double f = n > 1 ? (double) i / (double) (n - 1) : 0.0;
      double v;

      if (i == 0)
        v = a;
      else if (i == n - 1)
        v = b;
      else
        {
          char text[G_ASCII_DTOSTR_BUF_SIZE];

          v = logarithmic ? exp (log (a) + f * (log (b) - log (a))) : a + f * (b - a);
          /* To 15 digits, which drops the rounding of the arithmetic:
           * 0.05:0.2:4 gives 0.15, not 0.15000000000000002, and
           * log:0.001:1:4 gives 0.01, the values a user would type. */
          v = g_ascii_strtod (g_ascii_formatd (text, sizeof text, "%.15g", v), NULL);
        }
      g_array_append_val (values, v);
    }
  return TRUE;
}

static gboolean
parse_list (const char *spec,
            GArray     *values)
{
  g_auto(GStrv) parts = g_strsplit (spec, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      double v;

      if (!parse_number (parts[i], &v))
        return FALSE;
      g_array_append_val (values, v);
    }
  return values->len > 0 && values->len <= QD_SWEEP_MAX_POINTS;
}

static gboolean
name_taken (QdSweep    *self,
            const char *name)
{
  for (guint i = 0; i < qd_sweep_get_n_names (self); i++)
    if (strcmp (qd_sweep_get_name (self, i), name) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
check_new_name (QdSweep     *self,
                const char  *option,
                const char  *name,
                GError     **error)
{
  if (!name_taken (self, name))
    return TRUE;
  g_set_error (error, QD_ERROR, QD_ERROR_DUPLICATE,
               _("%s %s: '%s' is already varied by another --vary or --dist; give each variable one of them"),
               option, name, name);
  return FALSE;
}

gboolean
qd_sweep_add_vary (QdSweep     *self,
                   const char  *text,
                   GError     **error)
{
  g_autofree char *name = NULL;
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *trimmed = NULL;
  const char *spec;
  gboolean ok;
  Vary *vary;

  if (!split_assignment (text, "--vary", "k=0:1:11", &name, &spec, error))
    return FALSE;
  spec = trimmed = g_strstrip (g_strdup (spec));
  if (g_str_has_prefix (spec, "log:"))
    ok = parse_range (spec + 4, TRUE, values);
  else if (strchr (spec, ':') != NULL)
    ok = parse_range (spec, FALSE, values);
  else
    ok = parse_list (spec, values);
  if (!ok)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                   _("--vary %s=%s: expected a:b:n (n values from a to b, as in %s=0:1:11), "
                     "log:a:b:n (a and b above 0, as in %s=log:0.001:1:4) or a list of "
                     "numbers (as in %s=0.5,1,2); n is a whole number from 1 to %llu"),
                   name, spec, name, name, name, (unsigned long long) QD_SWEEP_MAX_POINTS);
      return FALSE;
    }
  if (!check_new_name (self, "--vary", name, error))
    return FALSE;
  vary = g_new0 (Vary, 1);
  vary->name = g_steal_pointer (&name);
  vary->values = g_steal_pointer (&values);
  g_ptr_array_add (self->varies, vary);
  return TRUE;
}

/* "kind(p1,p2)": the two parameters of a distribution. */
static gboolean
parse_dist_spec (const char *spec,
                 DistKind   *kind,
                 double     *p1,
                 double     *p2)
{
  static const struct { const char *name; DistKind kind; } kinds[] = {
    { "normal", DIST_NORMAL },
    { "uniform", DIST_UNIFORM },
    { "lognormal", DIST_LOGNORMAL },
  };
  g_autofree char *copy = g_strstrip (g_strdup (spec));
  const char *open = strchr (copy, '(');
  gsize len = strlen (copy);
  g_autofree char *kind_name = NULL;
  g_autofree char *args = NULL;
  g_auto(GStrv) parts = NULL;
  gboolean found = FALSE;

  if (open == NULL || len < 2 || copy[len - 1] != ')')
    return FALSE;
  kind_name = g_strstrip (g_strndup (copy, open - copy));
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_ascii_strcasecmp (kind_name, kinds[i].name) == 0)
      {
        *kind = kinds[i].kind;
        found = TRUE;
      }
  if (!found)
    return FALSE;
  args = g_strndup (open + 1, copy + len - 1 - (open + 1));
  parts = g_strsplit (args, ",", -1);
  if (g_strv_length (parts) != 2 || !parse_number (parts[0], p1)
      || !parse_number (parts[1], p2))
    return FALSE;
  if (*kind == DIST_UNIFORM)
    return *p1 < *p2;
  return *p2 >= 0.0;
}

gboolean
qd_sweep_add_dist (QdSweep     *self,
                   const char  *text,
                   GError     **error)
{
  g_autofree char *name = NULL;
  const char *spec;
  Dist dist = { 0 };

  if (!split_assignment (text, "--dist", "k=normal(1,0.1)", &name, &spec, error))
    return FALSE;
  if (!parse_dist_spec (spec, &dist.kind, &dist.p1, &dist.p2))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                   _("--dist %s=%s: expected normal(mu,sigma) or lognormal(mu,sigma) with "
                     "sigma at least 0, or uniform(a,b) with a below b, as in %s=normal(1,0.1)"),
                   name, spec, name);
      return FALSE;
    }
  if (!check_new_name (self, "--dist", name, error))
    return FALSE;
  dist.name = g_steal_pointer (&name);
  g_ptr_array_add (self->dists, g_memdup2 (&dist, sizeof dist));
  return TRUE;
}

void
qd_sweep_set_samples (QdSweep *self,
                      guint64  samples)
{
  self->samples = MAX (samples, 1);
}

void
qd_sweep_set_seed (QdSweep *self,
                   guint64  seed)
{
  self->seed = seed;
}

guint64
qd_sweep_get_seed (QdSweep *self)
{
  return self->seed;
}

void
qd_sweep_set_model_seeds (QdSweep  *self,
                          gboolean  keep)
{
  self->model_seeds = keep;
}

/* The number of grid points, or 0 when it passes the limit. */
static guint64
count_points (QdSweep *self)
{
  guint64 n = 1;

  for (guint i = 0; i < self->varies->len; i++)
    {
      const Vary *vary = g_ptr_array_index (self->varies, i);

      n *= vary->values->len;
      if (n > QD_SWEEP_MAX_RUNS)
        return 0;
    }
  return n;
}

gboolean
qd_sweep_check (QdSweep     *self,
                QdDocument  *document,
                GError     **error)
{
  guint64 points = count_points (self);

  if (self->dists->len > 0 && self->samples < 2)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("--dist draws a value per run: give the number of runs with --samples N (for example --samples 100)"));
      return FALSE;
    }
  if (points == 0 || self->samples > QD_SWEEP_MAX_RUNS / points)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("the sweep would make more than %llu runs; use fewer points or samples"),
                   (unsigned long long) QD_SWEEP_MAX_RUNS);
      return FALSE;
    }
  for (guint i = 0; document != NULL && i < qd_sweep_get_n_names (self); i++)
    {
      const char *name = qd_sweep_get_name (self, i);
      GPtrArray *variables = qd_document_get_variables (document);
      g_autoptr(GString) names = NULL;

      if (qd_document_get_variable (document, name) != NULL)
        continue;
      names = g_string_new (NULL);
      for (guint k = 0; variables != NULL && k < variables->len; k++)
        {
          const QdVariable *v = g_ptr_array_index (variables, k);

          g_string_append_printf (names, "%s%s", k > 0 ? ", " : "", v->name);
        }
      if (names->len == 0)
        g_set_error (error, QD_ERROR, QD_ERROR_EXPR,
                     _("the model has no variable '%s' to vary (it has no variables at all); "
                       "define it among the model's variables and use it in the blocks' parameters"),
                     name);
      else
        g_set_error (error, QD_ERROR, QD_ERROR_EXPR,
                     _("the model has no variable '%s' to vary; its variables are: %s"),
                     name, names->str);
      return FALSE;
    }
  return TRUE;
}

guint64
qd_sweep_get_n_runs (QdSweep *self)
{
  return count_points (self) * self->samples;
}

guint
qd_sweep_get_n_names (QdSweep *self)
{
  return self->varies->len + self->dists->len;
}

const char *
qd_sweep_get_name (QdSweep *self,
                   guint    i)
{
  if (i < self->varies->len)
    return ((const Vary *) g_ptr_array_index (self->varies, i))->name;
  return ((const Dist *) g_ptr_array_index (self->dists, i - self->varies->len))->name;
}

/* SplitMix64 (Steele, Lea and Flood 2014): a fixed bijection of 64-bit
 * words that scrambles every input bit into every output bit. */
static guint64
splitmix64 (guint64 *state)
{
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

guint64
qd_sweep_derive_seed (guint64 seed,
                      guint64 run)
{
  guint64 state = seed;
  guint64 mixed = splitmix64 (&state);

  state = mixed ^ run;
  return splitmix64 (&state);
}

/* A double uniform in (0, 1]: 53 random bits, never 0 (for log). */
static double
next_uniform (guint64 *state)
{
  return ((double) (splitmix64 (state) >> 11) + 1.0) * 0x1.0p-53;
}

static double
draw (const Dist *dist,
      guint64    *state)
{
  double u1 = next_uniform (state);
  double u2 = next_uniform (state);
  double z;

  if (dist->kind == DIST_UNIFORM)
    return dist->p1 + (u1 - 0x1.0p-53) * (dist->p2 - dist->p1);
  /* Box–Muller: one standard normal from two uniforms. */
  z = sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * u2);
  if (dist->kind == DIST_NORMAL)
    return dist->p1 + dist->p2 * z;
  return exp (dist->p1 + dist->p2 * z);
}

void
qd_sweep_get_values (QdSweep *self,
                     guint64  run,
                     double  *values)
{
  guint64 point = run / self->samples;
  guint64 state;

  /* The last --vary varies fastest, as nested loops written in order. */
  for (guint i = self->varies->len; i-- > 0;)
    {
      const Vary *vary = g_ptr_array_index (self->varies, i);

      values[i] = g_array_index (vary->values, double, point % vary->values->len);
      point /= vary->values->len;
    }
  /* The draws have their own stream, apart from the blocks' seeds. */
  state = qd_sweep_derive_seed (self->seed, run) ^ G_GUINT64_CONSTANT (0x5157454550);
  for (guint j = 0; j < self->dists->len; j++)
    values[self->varies->len + j] = draw (g_ptr_array_index (self->dists, j), &state);
}

gboolean
qd_sweep_get_model_seeds (QdSweep *self)
{
  return self->model_seeds;
}

guint
qd_simulation_reseed (QdSimulation *sim,
                      guint64       run_seed)
{
  guint changed = 0;

  g_return_val_if_fail (!sim->initialized, 0);
  for (guint i = 0; i < sim->n_atomics; i++)
    {
      QdAtomic *a = &sim->atomics[i];
      /* The compiler made the array; it is the simulation's to change
       * until init reads it. */
      QdParamValue *params = (QdParamValue *) a->params;

      for (guint k = 0; k < a->type->n_params; k++)
        {
          guint64 state;

          if (!(a->type->params[k].flags & QD_PARAM_SEED))
            continue;
          /* The seed the file gives enters the mix: blocks with different
           * seeds keep different streams, blocks given the same one
           * share it, as they do in a single run of the file. */
          state = run_seed ^ ((guint64) params[k].number * G_GUINT64_CONSTANT (0xD1B54A32D192ED03));
          params[k].number = (double) (guint32) splitmix64 (&state);
          changed++;
        }
    }
  return changed;
}
