/* test-mask.c: masked subsystems
 *
 * The scope an inner block's expression sees (its mask's parameters,
 * then the masks around, then the model variables), errors that name the
 * block path, the file (old files unchanged, the "mask" key read and
 * written back), undo and redo, and the bundled example: one oscillator
 * subsystem used twice with different mask values, each copy following
 * its exact step response.
 */
#include "qd-test-util.h"

#include <math.h>
#include <string.h>

/* Helpers */

/* A subsystem @name in @system with one Outport, fed by a Constant whose
 * value is @expr; returns the subsystem, the Constant in *@constant. */
static QdBlock *
add_constant_subsystem (QdDocument *doc,
                        QdSystem   *system,
                        const char *name,
                        const char *expr,
                        QdBlock   **constant)
{
  g_autoptr(GError) error = NULL;
  QdBlock *sub = qd_document_add_block (doc, system, "subsystem", name, 0, 0, &error);
  QdBlock *c, *out;

  g_assert_no_error (error);
  c = qd_document_add_block (doc, sub->inner, "constant", "Gain 1", 0, 0, &error);
  g_assert_no_error (error);
  out = qd_document_add_block (doc, sub->inner, "outport", "Out", 100, 0, &error);
  g_assert_no_error (error);
  qd_test_set_param (doc, c, "value", expr);
  g_assert_nonnull (qd_document_connect (doc, sub->inner, c->id, 0, out->id, 0, &error));
  g_assert_no_error (error);
  if (constant != NULL)
    *constant = c;
  return sub;
}

static void
set_mask (QdDocument *doc,
          QdBlock    *sub,
          const char *name,
          const char *value,
          const char *icon)
{
  g_autoptr(GError) error = NULL;
  QdMask *mask = qd_mask_new ();
  QdMaskParam *param = qd_mask_add_param (mask, name, "1", "a gain");

  param->value = g_strdup (value);
  mask->icon = g_strdup (icon);
  g_assert_true (qd_document_set_mask (doc, sub, mask, &error));
  g_assert_no_error (error);
  qd_mask_free (mask);
}

/* The value the Constant at the end of @path outputs (its first event). */
static double
constant_value (QdDocument *doc,
                const char *scope_input_of)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);
  QdTrace *trace;
  double v;

  g_assert_no_error (error);
  trace = qd_test_run_and_find (sim, scope_input_of);
  v = qd_trace_eval (trace, 0);
  qd_simulation_free (sim);
  return v;
}

/* The root: variable K = 10, a Scope with @n inputs named "a, b, c". */
static QdDocument *
new_model (guint    n,
           QdBlock **scope)
{
  QdDocument *doc = qd_document_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *count = g_strdup_printf ("%u", n);

  g_assert_true (qd_document_set_variable (doc, "K", "10", &error));
  *scope = qd_test_add_block (doc, "scope", "Scope");
  qd_test_set_param (doc, *scope, "n", count);
  qd_test_set_param (doc, *scope, "names", "a, b, c");
  qd_test_set_final_time (doc, 1);
  return doc;
}

static char *
first_problem (QdDocument *doc)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  QdSimulation *sim = qd_simulation_new (doc, NULL, problems, &error);

  g_assert_null (sim);
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

/* Scoping */

/* The mask's parameter comes before the model variable of the same
 * name; outside the mask, the variable; a nested mask's value may use
 * the outer mask's parameter, and its own blocks see its parameter. */
static void
test_mask_scope (void)
{
  QdBlock *scope, *a, *b, *inner, *c;
  g_autoptr(QdDocument) doc = new_model (3, &scope);
  QdSystem *root = qd_document_get_root (doc);
  g_autoptr(GError) error = NULL;

  a = add_constant_subsystem (doc, root, "A", "K", NULL);
  b = add_constant_subsystem (doc, root, "B", "K", NULL);
  set_mask (doc, a, "K", "K / 5", NULL);   /* the variable: 10 / 5 */
  qd_test_connect (doc, a, 0, scope, 0);
  qd_test_connect (doc, b, 0, scope, 1);

  /* C inside A, masked: P = K + 1 in A's scope (2 + 1); its Constant
   * uses P and K (A's K = 2, the nearest). */
  inner = add_constant_subsystem (doc, a->inner, "C", "P * 100 + K", &c);
  set_mask (doc, inner, "P", "K + 1", NULL);
  {
    QdBlock *out2 = qd_document_add_block (doc, a->inner, "outport", "Out 2", 200, 0, &error);

    g_assert_no_error (error);
    qd_test_set_param (doc, out2, "port", "2");
    g_assert_nonnull (qd_document_connect (doc, a->inner, inner->id, 0, out2->id, 0, &error));
    g_assert_no_error (error);
  }
  qd_test_connect (doc, a, 1, scope, 2);

  g_assert_cmpfloat (constant_value (doc, "/Scope/a"), ==, 2);
  g_assert_cmpfloat (constant_value (doc, "/Scope/b"), ==, 10);
  g_assert_cmpfloat (constant_value (doc, "/Scope/c"), ==, 302);

  /* An override of the model variable (qdevs-cli run --set) reaches
   * through the masks. */
  {
    const char *overrides[] = { "K=20", NULL };
    QdSimulation *sim = qd_simulation_new (doc, overrides, NULL, &error);

    g_assert_no_error (error);
    qd_test_run (sim);
    g_assert_cmpfloat (qd_trace_eval (qd_test_find_trace (sim, "/Scope/a"), 0), ==, 4);
    g_assert_cmpfloat (qd_trace_eval (qd_test_find_trace (sim, "/Scope/b"), 0), ==, 20);
    g_assert_cmpfloat (qd_trace_eval (qd_test_find_trace (sim, "/Scope/c"), 0), ==, 504);
    qd_simulation_free (sim);
  }

  /* Undo takes the inner mask away: P is then unknown, and the error
   * names the block by its path. Redo gives it back. */
  g_assert_true (qd_document_undo (doc));   /* the link of Out 2 */
  g_assert_true (qd_document_redo (doc));
  while (qd_block_get_mask (inner) != NULL)
    g_assert_true (qd_document_undo (doc));
  {
    g_autofree char *message = first_problem (doc);

    g_assert_nonnull (strstr (message, "/A/C/Gain 1"));
    g_assert_nonnull (strstr (message, "unknown name 'P'"));
  }
  while (qd_document_can_redo (doc))
    g_assert_true (qd_document_redo (doc));
  g_assert_cmpfloat (constant_value (doc, "/Scope/c"), ==, 302);
}

/* A function parameter (NLFunction), which its block evaluates at run
 * time over the model variables, sees the mask parameters too: two
 * copies of one subsystem with different values give different results. */
static void
test_mask_function (void)
{
  QdBlock *scope;
  g_autoptr(QdDocument) doc = new_model (2, &scope);
  QdSystem *root = qd_document_get_root (doc);
  g_autoptr(GError) error = NULL;

  for (guint k = 0; k < 2; k++)
    {
      QdBlock *constant;
      QdBlock *sub = add_constant_subsystem (doc, root, k == 0 ? "One" : "Two",
                                             "3", &constant);
      QdBlock *f = qd_document_add_block (doc, sub->inner, "nlfunction", "F",
                                          50, 50, &error);
      QdBlock *out = qd_system_find_block_by_name (sub->inner, "Out");
      QdLink *link = qd_system_find_source (sub->inner, constant->id, 0);

      g_assert_no_error (error);
      qd_document_remove_link (doc, link);
      qd_test_set_param (doc, f, "expression", "Kp*u0 + K + 1e1*Kp");
      g_assert_nonnull (qd_document_connect (doc, sub->inner, constant->id, 0, f->id, 0, &error));
      g_assert_nonnull (qd_document_connect (doc, sub->inner, f->id, 0, out->id, 0, &error));
      g_assert_no_error (error);
      set_mask (doc, sub, "Kp", k == 0 ? "-2" : "K", NULL);
      qd_test_connect (doc, sub, 0, scope, k);
    }
  /* 3 Kp + K + 10 Kp */
  g_assert_cmpfloat (constant_value (doc, "/Scope/a"), ==, -16);
  g_assert_cmpfloat (constant_value (doc, "/Scope/b"), ==, 140);
}

/* When the trace at @path has its first segment (it must have one). */
static double
first_time (QdSimulation *sim,
            const char   *path)
{
  QdTrace *trace = qd_test_find_trace (sim, path);

  g_assert_cmpuint (qd_trace_get_length (trace), >, 0);
  return qd_trace_get (trace, 0)->t;
}

/* A Lua Atomic's "values", expressions its block evaluates at run time
 * over the model variables, see the mask parameters too; the names on
 * the left are the script's, even where a mask parameter has the same
 * name. Two copies of a Generator with periods 2 Kp give their first job
 * at 0.5 and at 1. */
static void
test_mask_lua_values (void)
{
  QdBlock *scope;
  g_autoptr(QdDocument) doc = new_model (2, &scope);
  QdSystem *root = qd_document_get_root (doc);
  g_autofree char *path = qd_test_source_path ("data", "lua-templates",
                                               "generator.lua", NULL);
  g_autofree char *script = qd_test_read_text (path);
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;

  for (guint k = 0; k < 2; k++)
    {
      QdBlock *sub = qd_document_add_block (doc, root, "subsystem",
                                            k == 0 ? "One" : "Two", 0, 0, &error);
      QdBlock *gen, *out;

      g_assert_no_error (error);
      gen = qd_document_add_block (doc, sub->inner, "lua", "Jobs", 0, 0, &error);
      g_assert_no_error (error);
      out = qd_document_add_block (doc, sub->inner, "outport", "Out", 100, 0, &error);
      g_assert_no_error (error);
      qd_test_set_param (doc, gen, "script", script);
      qd_test_set_param (doc, gen, "values", " period = 2*Kp; ");
      g_assert_nonnull (qd_document_connect (doc, sub->inner, gen->id, 0, out->id, 0, &error));
      g_assert_no_error (error);
      set_mask (doc, sub, "Kp", k == 0 ? "K/40" : "0.5", NULL);
      qd_test_connect (doc, sub, 0, scope, k);
    }
  qd_test_set_final_time (doc, 2);
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  qd_test_run (sim);
  g_assert_cmpfloat (first_time (sim, "/Scope/a"), ==, 0.5);
  g_assert_cmpfloat (first_time (sim, "/Scope/b"), ==, 1.0);
  qd_simulation_free (sim);

  /* A mask parameter named as the script's parameter: the left side
   * stays the script's name. */
  set_mask (doc, qd_system_find_block_by_name (root, "Two"), "period", "0.25", NULL);
  qd_test_set_param (doc, qd_document_find_block_by_path (doc, "/Two/Jobs"),
                     "values", "period = 2*period");
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  qd_test_run (sim);
  g_assert_cmpfloat (first_time (sim, "/Scope/b"), ==, 0.5);
  qd_simulation_free (sim);
}

/* Errors name the block path: an unknown name inside a masked
 * subsystem, and a mask value that does not evaluate. */
static void
test_mask_errors (void)
{
  QdBlock *scope, *plant, *pi, *gain;
  g_autoptr(QdDocument) doc = new_model (1, &scope);
  QdSystem *root = qd_document_get_root (doc);
  g_autoptr(GError) error = NULL;

  plant = qd_document_add_block (doc, root, "subsystem", "Plant", 0, 0, &error);
  g_assert_no_error (error);
  pi = add_constant_subsystem (doc, plant->inner, "PI", "Kp", &gain);
  set_mask (doc, pi, "Ki", "2", "PI");
  {
    g_autofree char *message = first_problem (doc);

    g_assert_cmpstr (message, ==,
                     "/Plant/PI/Gain 1: parameter 'value': column 1: unknown name 'Kp'");
  }
  set_mask (doc, pi, "Kp", "Kq + 1", "PI");
  {
    g_autofree char *message = first_problem (doc);

    g_assert_cmpstr (message, ==,
                     "/Plant/PI: mask parameter 'Kp': column 1: unknown name 'Kq'");
  }

  /* What the commands refuse, changing nothing. */
  {
    QdMask *bad = qd_mask_new ();

    qd_mask_add_param (bad, "u0", "1", NULL);
    g_assert_false (qd_document_set_mask (doc, pi, bad, &error));
    g_assert_nonnull (strstr (error->message, "/Plant/PI: mask parameter 'u0'"));
    g_clear_error (&error);
    g_ptr_array_set_size (bad->params, 0);
    qd_mask_add_param (bad, "a", "1", NULL);
    qd_mask_add_param (bad, "a", "2", NULL);
    g_assert_false (qd_document_set_mask (doc, pi, bad, &error));
    g_assert_error (error, QD_ERROR, QD_ERROR_DUPLICATE);
    g_clear_error (&error);
    g_assert_false (qd_document_set_mask (doc, gain, bad, &error));
    g_assert_nonnull (strstr (error->message, "only a subsystem"));
    g_clear_error (&error);
    qd_mask_free (bad);
  }
  g_assert_false (qd_document_set_mask_value (doc, pi, "Kp", "1 +", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (qd_document_set_mask_value (doc, pi, "Nope", "1", &error));
  g_assert_nonnull (strstr (error->message, "no parameter 'Nope'"));
  g_clear_error (&error);
  g_assert_cmpstr (qd_mask_param_get_value (qd_mask_find_param (qd_block_get_mask (pi), "Kp")),
                   ==, "Kq + 1");

  /* Ungrouping would leave the blocks with names nothing defines. */
  g_assert_false (qd_document_ungroup (doc, pi, &error));
  g_assert_nonnull (strstr (error->message, "/Plant/PI: is a masked subsystem"));
  g_clear_error (&error);

  /* Setting the value: one undo step. */
  g_assert_true (qd_document_set_mask_value (doc, pi, "Kp", "K * 2", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (qd_document_get_undo_label (doc), ==, "Set Mask Parameter");
  g_assert_true (qd_document_undo (doc));
  g_assert_cmpstr (qd_mask_param_get_value (qd_mask_find_param (qd_block_get_mask (pi), "Kp")),
                   ==, "Kq + 1");
  g_assert_true (qd_document_redo (doc));
}

/* The icon text, with {name} standing for the value. */
static void
test_mask_icon (void)
{
  QdMask *mask = qd_mask_new ();
  QdMaskParam *p = qd_mask_add_param (mask, "Kp", "2", NULL);
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;

  g_assert_null (qd_mask_format_icon (mask));
  mask->icon = g_strdup ("PI\nKp={Kp} {nope} {");
  text = qd_mask_format_icon (mask);
  g_assert_cmpstr (text, ==, "PI\nKp=2 {nope} {");
  p->value = g_strdup ("K/3");
  text2 = qd_mask_format_icon (mask);
  g_assert_cmpstr (text2, ==, "PI\nKp=K/3 {nope} {");
  qd_mask_free (mask);
}

/* The file */

/* Every bundled example is written back byte for byte: the masked one
 * with its "mask" keys, the others exactly as before masks existed (no
 * new key appears). */
static void
test_mask_file_round_trip (void)
{
  g_autofree char *dir = qd_test_source_path ("data", "examples", NULL);
  g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0, masked = 0;

  g_assert_nonnull (folder);
  while ((name = g_dir_read_name (folder)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *text = NULL;
      g_autofree char *again = NULL;
      g_autoptr(QdDocument) doc = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_str_has_suffix (name, ".qdevs"))
        continue;
      path = g_build_filename (dir, name, NULL);
      text = qd_test_read_text (path);
      doc = qd_document_load (path, &error);
      g_assert_no_error (error);
      again = qd_document_to_data (doc, NULL);
      if (strstr (text, "\"mask\"") != NULL)
        {
          /* Written by this version: back byte for byte. */
          g_assert_true (strcmp (again, text) == 0);
          masked++;
        }
      else
        {
          /* Some were written by hand (1e-06 for 1e-6): what the writer
           * makes of them is read and written back the same, with no
           * key that was not there. */
          g_autoptr(QdDocument) doc2 = qd_document_load_data (again, strlen (again),
                                                              name, &error);
          g_autofree char *third = NULL;

          g_assert_no_error (error);
          third = qd_document_to_data (doc2, NULL);
          g_assert_true (strcmp (third, again) == 0);
          g_assert_null (strstr (again, "\"mask\""));
        }
      n++;
    }
  g_assert_cmpuint (n, >=, 10);
  g_assert_cmpuint (masked, ==, 1);
}

/* A mask made by the commands is saved and read back whole. */
static void
test_mask_file_keys (void)
{
  QdBlock *scope, *sub;
  g_autoptr(QdDocument) doc = new_model (1, &scope);
  g_autoptr(QdDocument) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *again = NULL;
  QdMask *mask = qd_mask_new ();
  QdBlock *loaded;
  const QdMask *m;

  sub = add_constant_subsystem (doc, qd_document_get_root (doc), "PI", "Kp + Ti", NULL);
  qd_mask_add_param (mask, "Kp", "2", "Proportional gain \"P\"");
  qd_mask_add_param (mask, "Ti", "0.5", NULL)->value = g_strdup ("K / 4");
  mask->icon = g_strdup ("PI\nKp={Kp}");
  g_assert_true (qd_document_set_mask (doc, sub, mask, &error));
  g_assert_no_error (error);
  qd_test_connect (doc, sub, 0, scope, 0);

  text = qd_document_to_data (doc, NULL);
  g_assert_nonnull (strstr (text, "\"mask\": {\n"));
  g_assert_nonnull (strstr (text, "\"icon\": \"PI\\nKp={Kp}\""));
  back = qd_document_load_data (text, strlen (text), "mask.qdevs", &error);
  g_assert_no_error (error);
  loaded = qd_document_find_block_by_path (back, "/PI");
  m = qd_block_get_mask (loaded);
  g_assert_nonnull (m);
  g_assert_true (qd_mask_equal (m, mask));
  again = qd_document_to_data (back, NULL);
  g_assert_cmpstr (again, ==, text);
  g_assert_cmpfloat (constant_value (back, "/Scope/a"), ==, 2 + 2.5);
  qd_mask_free (mask);

  /* Undo of the whole mask writes the file as before it. */
  {
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;

    g_assert_true (qd_document_set_mask (back, loaded, NULL, &error));
    g_assert_cmpstr (qd_document_get_undo_label (back), ==, "Remove Mask");
    before = qd_document_to_data (back, NULL);
    g_assert_null (strstr (before, "\"mask\""));
    g_assert_true (qd_document_undo (back));
    after = qd_document_to_data (back, NULL);
    g_assert_cmpstr (after, ==, text);
  }
}

/* What the loader refuses, naming the block. */
static void
test_mask_file_errors (void)
{
  static const struct
  {
    const char *mask;
    const char *type;
    const char *expected;
  } cases[] = {
    { "{ \"params\": [ { \"name\": \"a\" } ] }", "subsystem", "needs \"name\" and \"default\"" },
    { "{ \"params\": [ { \"name\": \"a\", \"default\": \"1\", \"colour\": \"red\" } ] }",
      "subsystem", "colour" },
    { "{ \"icon\": 3 }", "subsystem", "\"icon\" of a mask must be a string" },
    { "{ \"params\": [ { \"name\": \"1a\", \"default\": \"1\" } ] }", "subsystem",
      "mask parameter '1a' is not a valid name" },
    { "{ \"params\": [] }", "constant", "only a subsystem has a \"mask\"" },
    { "[]", "subsystem", "\"mask\" must be an object" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *text =
        g_strdup_printf ("{ \"format\": \"qdevs\", \"version\": 1, \"blocks\": [ "
                         "{ \"id\": \"b1\", \"type\": \"%s\", \"name\": \"PI\", "
                         "\"mask\": %s } ] }", cases[i].type, cases[i].mask);
      g_autoptr(QdDocument) doc = qd_document_load_data (text, strlen (text), "m.qdevs", &error);

      g_assert_null (doc);
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i].expected) == NULL
          || strstr (error->message, "/PI") == NULL)
        g_error ("case %u: %s", i, error->message);
    }
}

/* The bundled example */

/* The step response of x'' + 2 zeta w x' + w^2 x = 1 from rest. */
static double
oscillator (double t,
            double w,
            double zeta)
{
  double wd = w * sqrt (1 - zeta * zeta);

  return (1 - exp (-zeta * w * t) * (cos (wd * t) + zeta * w / wd * sin (wd * t)))
         / (w * w);
}

static double
max_error (QdTrace *trace,
           double   w,
           double   zeta)
{
  double worst = 0;

  for (double t = 0; t <= 30; t += 0.01)
    worst = MAX (worst, fabs (qd_trace_eval (trace, t) - oscillator (t, w, zeta)));
  return worst;
}

/* One subsystem, two copies, two sets of mask values: each follows its
 * own exact solution, and a model variable set from outside (--set w0=2)
 * moves both. */
static void
test_mask_example (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "masked-oscillators.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);

  g_assert_no_error (error);
  for (guint run = 0; run < 2; run++)
    {
      const char *overrides[] = { "w0=2", NULL };
      double w0 = run == 0 ? 1 : 2;
      QdSimulation *sim = qd_simulation_new (doc, run == 0 ? NULL : overrides, NULL, &error);
      double light, heavy;

      g_assert_no_error (error);
      qd_test_run (sim);
      light = max_error (qd_test_find_trace (sim, "/Scope/light"), w0, 0.1);
      heavy = max_error (qd_test_find_trace (sim, "/Scope/heavy"), 2 * w0, 0.5);
      g_test_message ("w0 = %g: max error %.3g (light), %.3g (heavy)", w0, light, heavy);
      /* QSS2 with dqrel 1e-3: the error is a few quanta of the output
       * (its final value 1/w^2); confusing the two copies' values would
       * be off by the whole difference of the curves. */
      g_assert_cmpfloat (light, <, 0.02 / (w0 * w0));
      g_assert_cmpfloat (heavy, <, 0.005 / (w0 * w0));
      qd_simulation_free (sim);
    }
}

/* qdevs-cli run --set sets a model variable that the masks' values use:
 * both copies move (final values 1/w^2 with w = w0 and 2 w0). */
static void
test_mask_cli_set (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "masked-oscillators.qdevs", NULL);
  g_auto(QdCliResult) r = { 0 };
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) cells = NULL;
  guint n;

  qd_test_run_cli (&r, NULL, "run", path, "--set", "w0=2", "--csv", "-", NULL);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (g_strstrip (r.out), "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >, 2);
  g_assert_cmpstr (lines[0], ==, "time,/Scope/light,/Scope/heavy");
  cells = g_strsplit (lines[n - 1], ",", -1);
  g_assert_cmpuint (g_strv_length (cells), ==, 3);
  g_assert_cmpfloat (fabs (g_ascii_strtod (cells[1], NULL) - 0.25), <, 0.01);
  g_assert_cmpfloat (fabs (g_ascii_strtod (cells[2], NULL) - 0.0625), <, 0.002);
}

/* A model with vector signals is compiled as its expansion into
 * elements (qd-compile-vector.c): the masks go with their subsystems. */
static void
test_mask_with_vectors (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "masked-oscillators.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);
  g_autoptr(GHashTable) widths = NULL;
  QdBlock *vec, *source;
  QdSimulation *sim;

  g_assert_no_error (error);
  vec = qd_test_add_block (doc, "integrator", "Vector");
  qd_test_set_param (doc, vec, "size", "2");
  qd_test_set_param (doc, vec, "x0", "1, 2");
  source = qd_test_add_block (doc, "constant", "Rate");
  qd_test_connect (doc, source, 0, vec, 0);
  widths = qd_vector_link_widths (doc, qd_document_get_root (doc));
  g_assert_nonnull (widths);
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  qd_test_run (sim);
  g_assert_cmpfloat (max_error (qd_test_find_trace (sim, "/Scope/light"), 1, 0.1), <, 0.02);
  g_assert_cmpfloat (max_error (qd_test_find_trace (sim, "/Scope/heavy"), 2, 0.5), <, 0.005);
  qd_simulation_free (sim);
}

/* Elements of /Sub/x in @doc's expansion, or -1 when it does not compile. */
static int
count_elements (QdDocument *doc)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);
  int n = 0;

  if (sim == NULL)
    return -1;
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    if (g_str_has_prefix (qd_simulation_get_atomic (sim, i)->path, "/Sub/x["))
      n++;
  qd_simulation_free (sim);
  return n;
}

/* A vector's Size may name a mask parameter: a masked subsystem drawn
 * once gives vectors of the width its user sets. */
static void
test_mask_vector_size (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdSystem *root = qd_document_get_root (doc);
  QdBlock *sub = qd_document_add_block (doc, root, "subsystem", "Sub", 0, 0, &error);
  QdBlock *one, *x, *out, *scope;
  g_autofree char *message = NULL;

  g_assert_no_error (error);
  one = qd_document_add_block (doc, sub->inner, "constant", "One", 0, 0, &error);
  x = qd_document_add_block (doc, sub->inner, "integrator", "x", 100, 0, &error);
  out = qd_document_add_block (doc, sub->inner, "outport", "Out", 200, 0, &error);
  g_assert_no_error (error);
  qd_test_set_param (doc, x, "size", "n + 1");
  g_assert_nonnull (qd_document_connect (doc, sub->inner, one->id, 0, x->id, 0, &error));
  g_assert_nonnull (qd_document_connect (doc, sub->inner, x->id, 0, out->id, 0, &error));
  scope = qd_test_add_block (doc, "scope", "Scope");
  qd_test_connect (doc, sub, 0, scope, 0);
  qd_test_set_final_time (doc, 1);
  g_assert_true (qd_document_set_variable (doc, "n", "7", &error));

  /* Without a mask, the model variable; with one, its parameter. */
  g_assert_cmpint (count_elements (doc), ==, 8);
  set_mask (doc, sub, "n", "2", NULL);
  g_assert_cmpint (count_elements (doc), ==, 3);
  set_mask (doc, sub, "n", "K", NULL);
  g_assert_true (qd_document_set_variable (doc, "K", "4", &error));
  g_assert_cmpint (count_elements (doc), ==, 5);

  /* A name neither defines is still the Size's error, at the block. */
  qd_test_set_param (doc, x, "size", "m");
  message = first_problem (doc);
  g_assert_nonnull (strstr (message, "/Sub/x"));
  g_assert_nonnull (strstr (message, "'size'"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/mask/scope", test_mask_scope);
  g_test_add_func ("/mask/function", test_mask_function);
  g_test_add_func ("/mask/lua-values", test_mask_lua_values);
  g_test_add_func ("/mask/errors", test_mask_errors);
  g_test_add_func ("/mask/icon", test_mask_icon);
  g_test_add_func ("/mask/file/round-trip", test_mask_file_round_trip);
  g_test_add_func ("/mask/file/keys", test_mask_file_keys);
  g_test_add_func ("/mask/file/errors", test_mask_file_errors);
  g_test_add_func ("/mask/example", test_mask_example);
  g_test_add_func ("/mask/vectors", test_mask_with_vectors);
  g_test_add_func ("/mask/vector-size", test_mask_vector_size);
  g_test_add_func ("/mask/cli-set", test_mask_cli_set);
  return g_test_run ();
}
