/* qd-classic-methods.c: the classic methods, their settings and the
 * Butcher tables SUNDIALS 6.4 does not have
 *
 * ARKODE 6.4 ships Heun-Euler, Bogacki-Shampine, Fehlberg, Cash-Karp and
 * Dormand-Prince among its explicit tables, but not forward Euler nor the
 * classic fourth-order Runge-Kutta, and among its implicit ones neither
 * backward Euler nor the trapezoidal and midpoint rules that the
 * stability lessons use. Those tables are written here (only their
 * coefficients; ARKODE runs them). The implicit ones get an explicit
 * first stage (f at the start of the step, which the methods themselves
 * ignore) so that an embedded method of another order gives an error
 * estimate for adaptive steps:
 *
 *   backward Euler   b = (0, 1) on Y2 = y + h f(t + h, Y2), embedded
 *                    d = (1/2, 1/2), Heun's trapezoid on its stages;
 *   trapezoidal      Y2 = y + h/2 (f(t, y) + f(t + h, Y2)), embedded
 *                    forward Euler d = (1, 0);
 *   midpoint         Y2 = y + h/2 f(t + h/2, Y2), y' = y + h f(Y2),
 *                    embedded forward Euler.
 *
 * Forward Euler with adaptive steps runs the Heun-Euler pair the other
 * way round (Euler advances, Heun estimates its error); with a fixed step
 * it is the one-stage table, one evaluation per step. Classic RK4 has no
 * embedded method of its own and runs with a fixed step only.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-classic-private.h"

#include <arkode/arkode_butcher_dirk.h>
#include <arkode/arkode_butcher_erk.h>

/* In the order the settings list them. */
static const QdClassicMethod methods[] = {
  { "cvode-bdf", N_("CVODE BDF (stiff, adaptive)"), QD_CLASSIC_CVODE, 5, TRUE, FALSE },
  { "cvode-adams", N_("CVODE Adams (non-stiff, adaptive)"), QD_CLASSIC_CVODE, 12, TRUE, FALSE },
  { "euler", N_("Forward Euler"), QD_CLASSIC_ERK, 1, TRUE, TRUE },
  { "heun", N_("Heun (RK2)"), QD_CLASSIC_ERK, 2, TRUE, TRUE },
  { "rk4", N_("Classic Runge-Kutta (RK4, fixed step)"), QD_CLASSIC_ERK, 4, FALSE, TRUE },
  { "bogacki-shampine", N_("Bogacki-Shampine 3(2)"), QD_CLASSIC_ERK, 3, TRUE, TRUE },
  { "rkf45", N_("Fehlberg RKF45"), QD_CLASSIC_ERK, 4, TRUE, TRUE },
  { "cash-karp", N_("Cash-Karp 4(5)"), QD_CLASSIC_ERK, 4, TRUE, TRUE },
  { "dormand-prince", N_("Dormand-Prince 5(4)"), QD_CLASSIC_ERK, 5, TRUE, TRUE },
  { "backward-euler", N_("Backward Euler (implicit)"), QD_CLASSIC_DIRK, 1, TRUE, TRUE },
  { "trapezoidal", N_("Implicit trapezoidal rule"), QD_CLASSIC_DIRK, 2, TRUE, TRUE },
  { "implicit-midpoint", N_("Implicit midpoint rule"), QD_CLASSIC_DIRK, 2, TRUE, TRUE },
};

const QdClassicMethod *
qd_classic_methods (guint *n_methods)
{
  if (n_methods != NULL)
    *n_methods = G_N_ELEMENTS (methods);
  return methods;
}

const QdClassicMethod *
qd_classic_find_method (const char *name)
{
  if (name == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    if (strcmp (methods[i].name, name) == 0)
      return &methods[i];
  return NULL;
}

static char *
known_solvers (void)
{
  GString *s = g_string_new ("qss");

  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    g_string_append_printf (s, ", %s", methods[i].name);
  return g_string_free (s, FALSE);
}

gboolean
qd_classic_check_settings (const QdSettings  *settings,
                           GError           **error)
{
  const char *name = settings->solver != NULL ? settings->solver : "qss";
  const QdClassicMethod *m;

  if (strcmp (name, "qss") == 0)
    return TRUE;
  m = qd_classic_find_method (name);
  if (m == NULL)
    {
      g_autofree char *known = known_solvers ();

      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("settings: solver '%s' is not one of %s"), name, known);
      return FALSE;
    }
  if (!(settings->h >= 0) || !isfinite (settings->h))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("settings: the fixed step h (%g) must be 0 (adaptive) "
                     "or positive"), settings->h);
      return FALSE;
    }
  if (settings->h > 0 && !m->fixed)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("settings: solver '%s' is always adaptive; set h to 0 "
                     "or choose a Runge-Kutta method"), name);
      return FALSE;
    }
  if (settings->h == 0 && !m->adaptive)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("settings: solver '%s' has no error estimate, so it "
                     "needs a fixed step; set h, e.g. h = 0.01"), name);
      return FALSE;
    }
  if (!(settings->rtol > 0) || !isfinite (settings->rtol)
      || !(settings->atol > 0) || !isfinite (settings->atol))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("settings: the tolerances rtol (%g) and atol (%g) must "
                     "be positive, e.g. rtol = 1e-6 and atol = 1e-8"),
                   settings->rtol, settings->atol);
      return FALSE;
    }
  if (!(settings->max_step >= 0) || !isfinite (settings->max_step))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("settings: the maximum step (%g) must be 0 (no limit) "
                     "or positive"), settings->max_step);
      return FALSE;
    }
  return TRUE;
}

gboolean
qd_classic_parse_spec (const char  *spec,
                       QdSettings  *settings,
                       GError     **error)
{
  g_auto(GStrv) parts = NULL;
  const char *colon = strchr (spec, ':');
  g_autofree char *name = colon != NULL ? g_strndup (spec, colon - spec)
                                        : g_strdup (spec);

  g_free (settings->solver);
  settings->solver = g_strdup (name);
  if (colon == NULL || colon[1] == '\0')
    return TRUE;
  parts = g_strsplit (colon + 1, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *eq = strchr (parts[i], '=');
      char *end = NULL;
      double value;
      double *slot = NULL;

      if (eq != NULL)
        {
          *eq = '\0';
          value = g_ascii_strtod (eq + 1, &end);
        }
      if (strcmp (parts[i], "rtol") == 0)
        slot = &settings->rtol;
      else if (strcmp (parts[i], "atol") == 0)
        slot = &settings->atol;
      else if (strcmp (parts[i], "max_step") == 0)
        slot = &settings->max_step;
      else if (strcmp (parts[i], "h") == 0)
        slot = &settings->h;
      if (slot == NULL || eq == NULL || end == eq + 1 || *end != '\0')
        {
          g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                       _("solver option '%s' is not NAME=NUMBER with NAME "
                         "one of rtol, atol, max_step, h"), parts[i]);
          return FALSE;
        }
      *slot = value;
    }
  return TRUE;
}

/* A table from its coefficients (A row by row); @d NULL for none. */
static ARKodeButcherTable
table_new (int           s,
           int           q,
           int           p,
           const double *c,
           const double *A,
           const double *b,
           const double *d)
{
  return ARKodeButcherTable_Create (s, q, p, (sunrealtype *) c,
                                    (sunrealtype *) A, (sunrealtype *) b,
                                    (sunrealtype *) d);
}

ARKodeButcherTable
qd_classic_table_new (const QdClassicMethod *method,
                      gboolean               fixed,
                      int                   *q,
                      int                   *p)
{
  static const double euler_c[] = { 0 }, euler_A[] = { 0 }, euler_b[] = { 1 };
  static const double eh_c[] = { 0, 1 }, eh_A[] = { 0, 0, 1, 0 };
  static const double eh_b[] = { 1, 0 }, eh_d[] = { 0.5, 0.5 };
  static const double rk4_c[] = { 0, 0.5, 0.5, 1 };
  static const double rk4_A[] = { 0, 0, 0, 0,  0.5, 0, 0, 0,
                                  0, 0.5, 0, 0,  0, 0, 1, 0 };
  static const double rk4_b[] = { 1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6 };
  static const double be_c[] = { 0, 1 }, be_A[] = { 0, 0, 0, 1 };
  static const double be_b[] = { 0, 1 }, be_d[] = { 0.5, 0.5 };
  static const double tr_c[] = { 0, 1 }, tr_A[] = { 0, 0, 0.5, 0.5 };
  static const double tr_b[] = { 0.5, 0.5 }, tr_d[] = { 1, 0 };
  static const double mp_c[] = { 0, 0.5 }, mp_A[] = { 0, 0, 0, 0.5 };
  static const double mp_b[] = { 0, 1 }, mp_d[] = { 1, 0 };
  ARKodeButcherTable table = NULL;
  const char *name = method->name;

  if (strcmp (name, "euler") == 0)
    table = fixed ? table_new (1, 1, 0, euler_c, euler_A, euler_b, NULL)
                  : table_new (2, 1, 2, eh_c, eh_A, eh_b, eh_d);
  else if (strcmp (name, "rk4") == 0)
    table = table_new (4, 4, 0, rk4_c, rk4_A, rk4_b, NULL);
  else if (strcmp (name, "heun") == 0)
    table = ARKodeButcherTable_LoadERK (ARKODE_HEUN_EULER_2_1_2);
  else if (strcmp (name, "bogacki-shampine") == 0)
    table = ARKodeButcherTable_LoadERK (ARKODE_BOGACKI_SHAMPINE_4_2_3);
  else if (strcmp (name, "rkf45") == 0)
    table = ARKodeButcherTable_LoadERK (ARKODE_FEHLBERG_6_4_5);
  else if (strcmp (name, "cash-karp") == 0)
    table = ARKodeButcherTable_LoadERK (ARKODE_CASH_KARP_6_4_5);
  else if (strcmp (name, "dormand-prince") == 0)
    table = ARKodeButcherTable_LoadERK (ARKODE_DORMAND_PRINCE_7_4_5);
  else if (strcmp (name, "backward-euler") == 0)
    table = table_new (2, 1, 2, be_c, be_A, be_b, be_d);
  else if (strcmp (name, "trapezoidal") == 0)
    table = table_new (2, 2, 1, tr_c, tr_A, tr_b, tr_d);
  else if (strcmp (name, "implicit-midpoint") == 0)
    table = table_new (2, 2, 1, mp_c, mp_A, mp_b, mp_d);
  if (table != NULL)
    {
      *q = table->q;
      *p = table->p;
    }
  return table;
}
