/* qd-block-lua.c: Lua Atomic, a block whose DEVS functions are a script
 *
 * The script defines the functions by their names in the literature:
 *
 *   init(p, t)            the initial state s (any value; usually a table)
 *                         from the parameters p (a table, by name) at the
 *                         start time t
 *   ta(s)                 the time advance: a number from 0, math.huge
 *                         (or inf) for passive
 *   dint(s, t)            the internal transition
 *   dext(s, t, e, port, x)  the external transition: x arrived on input
 *                         port (from 0), e after the last transition
 *   lambda(s, t)          the output, before dint: a table {[port] = v}
 *                         or calls of out(port, v)
 *   exit(s, t)            optional, once at the end
 *
 * stat(name, value), in any of them, reports a statistic of the block.
 * dint and dext return the new state, or nothing to keep s (changed in
 * place). A signal value is a number or {c0, c1, c2, c3}
 * (qd-block-lua-value.c).
 *
 * This file also gives the DEVS functions to the user's library blocks
 * (qd-block-lua-library.c), whose script is in their descriptor and whose
 * parameters are ordinary numbers of their schema. The Lua Atomic itself
 * keeps its script in its "script" parameter, and the script's
 * parameters in "values" ("gain = 2*k; n = 3", QDevs expressions over
 * the model variables), which fill in or replace the defaults the header
 * declares; its ports are those the header declares (QdBlockType.ports).
 *
 * Any error stops the run through qd_atomic_fail() with
 * "script line N: message"; the block then stays passive.
 */
#include <lauxlib.h>
#include <math.h>
#include <string.h>

#include "qd-block-lua-private.h"
#include "qd-blocks.h"
#include "qd-expr.h"
#include "qd-simulation.h"
#include "qd-stats.h"

enum
{
  PARAM_SCRIPT,
  PARAM_VALUES,
};

typedef struct
{
  QdLua    *lua;
  gboolean  failed;
} LuaBlock;

static void
fail (QdAtomic *self)
{
  LuaBlock *st = self->state;
  QdLua *lua = st->lua;
  const char *message = lua != NULL && lua->error != NULL ? lua->error
                                                           : "unknown error";

  st->failed = TRUE;
  if (lua != NULL && lua->error_line > 0)
    qd_atomic_fail (self, QD_ERROR_SCRIPT, _("script line %d: %s"),
                    lua->error_line, message);
  else
    qd_atomic_fail (self, QD_ERROR_SCRIPT, _("script: %s"), message);
}

static const char *
block_script (const QdAtomic *self)
{
  if (self->type == &qd_block_lua)
    return self->params[PARAM_SCRIPT].text;
  return qd_lua_library_script (self->type);
}

/* The value of the QDevs expression @text over the model variables. */
static gboolean
eval_value (QdAtomic    *self,
            const char  *text,
            double      *value,
            char       **problem)
{
  g_autoptr(QdExpr) expr = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *slots = NULL;
  const char *const *ids;
  guint n_ids;

  if (qd_expr_parse_literal (text, value))
    return TRUE;
  expr = qd_expr_parse (text, &error);
  if (expr == NULL)
    {
      *problem = g_strdup (error->message);
      return FALSE;
    }
  ids = qd_expr_get_identifiers (expr, &n_ids);
  slots = g_new0 (double, MAX (n_ids, 1));
  for (guint i = 0; i < n_ids; i++)
    {
      slots[i] = qd_simulation_get_variable (self->sim, ids[i]);
      if (isnan (slots[i]))
        {
          *problem = g_strdup_printf (_("unknown name '%s': it is no model "
                                      "variable"), ids[i]);
          return FALSE;
        }
    }
  if (!qd_expr_bind (expr, ids, n_ids, &error))
    {
      *problem = g_strdup (error->message);
      return FALSE;
    }
  *value = qd_expr_eval (expr, slots);
  return TRUE;
}

/* Sets p[name] = the value of @text, or the block's error. */
static gboolean
set_value (QdAtomic   *self,
           lua_State  *L,
           const char *name,
           const char *text)
{
  LuaBlock *st = self->state;
  char *problem = NULL;
  double v;

  if (!eval_value (self, text, &v, &problem))
    {
      g_autofree char *written = g_strstrip (g_strdup (text));

      g_free (st->lua->error);
      st->lua->error = g_strdup_printf (_("parameter '%s' = '%s': %s"),
                                        name, written, problem);
      st->lua->error_line = 0;
      g_free (problem);
      return FALSE;
    }
  lua_pushnumber (L, v);
  lua_setfield (L, -2, name);
  return TRUE;
}

/* Whether @header declares a parameter @name. */
static gboolean
header_declares (const QdLuaHeader *header,
                 const char        *name)
{
  for (guint i = 0; i < header->params->len; i++)
    if (strcmp (((QdLuaParamDecl *) g_ptr_array_index (header->params, i))->name,
                name) == 0)
      return TRUE;
  return FALSE;
}

/* The Lua Atomic's p: the header's defaults, then "values", each of
 * whose names the header must declare. */
static gboolean
push_script_values (QdAtomic   *self,
                    const char *script)
{
  LuaBlock *st = self->state;
  lua_State *L = st->lua->L;
  QdLuaHeader header = { 0 };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) items = NULL;
  gboolean ok = TRUE;

  lua_newtable (L);
  if (!qd_lua_header_parse (script, &header, &error))
    {
      st->lua->error = g_strdup (error->message);
      return FALSE;
    }
  for (guint i = 0; ok && i < header.params->len; i++)
    {
      QdLuaParamDecl *d = g_ptr_array_index (header.params, i);

      ok = set_value (self, L, d->name, d->default_value);
    }

  items = g_strsplit (self->params[PARAM_VALUES].text, ";", -1);
  for (guint i = 0; ok && items[i] != NULL; i++)
    {
      char *item = g_strstrip (items[i]);
      char *eq = strchr (item, '=');
      char *name;

      if (item[0] == '\0')
        continue;
      if (eq == NULL)
        {
          st->lua->error = g_strdup_printf (_("parameter values: '%s' is not "
                                              "name = expression"), item);
          ok = FALSE;
          break;
        }
      *eq = '\0';
      name = g_strstrip (item);
      if (!header_declares (&header, name))
        {
          st->lua->error = g_strdup_printf (_("parameter values: the script "
                                              "declares no parameter '%s' "
                                              "(declare it with --@param)"),
                                            name);
          ok = FALSE;
          break;
        }
      ok = set_value (self, L, name, eq + 1);
    }
  qd_lua_header_clear (&header);
  return ok;
}

/* A library block's p: its parameters, evaluated by the engine. */
static void
push_params (QdAtomic *self)
{
  LuaBlock *st = self->state;
  lua_State *L = st->lua->L;

  lua_createtable (L, 0, self->type->n_params);
  for (guint i = 0; i < self->type->n_params; i++)
    {
      lua_pushnumber (L, self->params[i].number);
      lua_setfield (L, -2, self->type->params[i].name);
    }
}

/* stat(name, value): a statistic of the block, as the built-in blocks
 * report theirs (qdevs-cli run --stats, the editor's Statistics). */
static int
lua_stat (lua_State *L)
{
  QdLua *lua = qd_lua_current (L);
  const char *name = luaL_checkstring (L, 1);
  lua_Number value = luaL_checknumber (L, 2);

  qd_atomic_set_stat (lua->atomic, name, value);
  return 0;
}

/* The interpreter of a simulation's Lua blocks (qd_atomic_get_shared). */
static gpointer
vm_new (QdAtomic *self)
{
  QdLuaVM *vm = qd_lua_vm_new (QD_LUA_MEMORY_LIMIT);

  if (vm != NULL)
    lua_register (vm->L, "stat", lua_stat);
  return vm;
}

static void
lua_block_init (QdAtomic *self,
                double    t)
{
  LuaBlock *st = self->state;
  const char *script = block_script (self);
  QdLuaVM *vm;
  QdLua *lua;

  g_clear_pointer (&st->lua, qd_lua_free);
  st->failed = FALSE;
  vm = qd_atomic_get_shared (self, "lua", vm_new, (GDestroyNotify) qd_lua_vm_free);
  if (vm == NULL)
    {
      st->failed = TRUE;
      qd_atomic_fail (self, QD_ERROR_SCRIPT, _("script: out of memory"));
      return;
    }
  st->lua = lua = qd_lua_new (vm);
  lua->n_out = self->n_out;
  lua->atomic = self;
  if (!qd_lua_load (lua, script))
    {
      fail (self);
      return;
    }

  qd_lua_push_func (lua, QD_LUA_INIT);
  if (self->type == &qd_block_lua)
    {
      if (!push_script_values (self, script))
        {
          lua_settop (lua->L, 1);   /* the message handler stays */
          fail (self);
          return;
        }
    }
  else
    push_params (self);
  lua_pushnumber (lua->L, t);
  if (!qd_lua_call (lua, 2, 1))
    {
      fail (self);
      return;
    }
  if (lua_isnil (lua->L, -1))
    {
      lua_pop (lua->L, 1);
      lua_newtable (lua->L);
    }
  lua->state_ref = luaL_ref (lua->L, LUA_REGISTRYINDEX);
}

static double
lua_block_ta (QdAtomic *self)
{
  LuaBlock *st = self->state;
  QdLua *lua = st->lua;
  lua_State *L;
  double sigma;

  if (st->failed)
    return QD_INF;
  L = lua->L;
  qd_lua_push_func (lua, QD_LUA_TA);
  lua_rawgeti (L, LUA_REGISTRYINDEX, lua->state_ref);
  if (!qd_lua_call (lua, 1, 1))
    {
      fail (self);
      return QD_INF;
    }
  if (lua_type (L, -1) != LUA_TNUMBER)
    {
      qd_lua_set_error (lua, QD_LUA_TA, _("ta returned a %s; it returns the "
                        "time advance, a number from 0 (math.huge when "
                        "passive)"), luaL_typename (L, -1));
      lua_pop (L, 1);
      fail (self);
      return QD_INF;
    }
  sigma = lua_tonumber (L, -1);
  lua_pop (L, 1);
  if (isnan (sigma) || sigma < 0)
    {
      g_autofree char *value = isnan (sigma) ? g_strdup ("NaN")
                                             : g_strdup_printf ("%g", sigma);

      qd_lua_set_error (lua, QD_LUA_TA, _("ta returned %s; a time advance is "
                                          "0 or more (math.huge when passive)"),
                        value);
      fail (self);
      return QD_INF;
    }
  return sigma;
}

/* After dint or dext: the value they returned is the new state, unless
 * it is nil. */
static void
take_state (QdAtomic  *self,
            QdLuaFunc  func)
{
  LuaBlock *st = self->state;
  QdLua *lua = st->lua;

  if (lua_isnil (lua->L, -1))
    lua_pop (lua->L, 1);
  else
    lua_rawseti (lua->L, LUA_REGISTRYINDEX, lua->state_ref);
}

static void
lua_block_dint (QdAtomic *self,
                double    t)
{
  LuaBlock *st = self->state;
  QdLua *lua = st->lua;

  if (st->failed)
    return;
  qd_lua_push_func (lua, QD_LUA_DINT);
  lua_rawgeti (lua->L, LUA_REGISTRYINDEX, lua->state_ref);
  lua_pushnumber (lua->L, t);
  if (!qd_lua_call (lua, 2, 1))
    {
      fail (self);
      return;
    }
  take_state (self, QD_LUA_DINT);
}

static void
lua_block_dext (QdAtomic       *self,
                double          t,
                double          e,
                guint           port,
                const QdSignal *x)
{
  LuaBlock *st = self->state;
  QdLua *lua = st->lua;
  lua_State *L;

  if (st->failed)
    return;
  L = lua->L;
  qd_lua_push_func (lua, QD_LUA_DEXT);
  lua_rawgeti (L, LUA_REGISTRYINDEX, lua->state_ref);
  lua_pushnumber (L, t);
  lua_pushnumber (L, e);
  lua_pushinteger (L, port);
  qd_lua_push_signal (L, x, t);
  if (!qd_lua_call (lua, 5, 1))
    {
      fail (self);
      return;
    }
  take_state (self, QD_LUA_DEXT);
}

static guint64
lua_block_lambda (QdAtomic *self,
                  double    t)
{
  LuaBlock *st = self->state;
  QdLua *lua = st->lua;
  gboolean ok;

  if (st->failed)
    return 0;
  lua->out = self->out;
  lua->out_mask = 0;
  lua->t = t;
  qd_lua_push_func (lua, QD_LUA_LAMBDA);
  lua_rawgeti (lua->L, LUA_REGISTRYINDEX, lua->state_ref);
  lua_pushnumber (lua->L, t);
  ok = qd_lua_call (lua, 2, 1);
  if (ok)
    {
      ok = qd_lua_take_outputs (lua, -1);
      lua_pop (lua->L, 1);
    }
  lua->out = NULL;
  if (!ok)
    {
      fail (self);
      return 0;
    }
  return lua->out_mask;
}

static void
lua_block_exit (QdAtomic *self,
                double    t)
{
  LuaBlock *st = self->state;
  QdLua *lua = st->lua;

  if (lua == NULL)
    return;
  if (!st->failed && lua->funcs[QD_LUA_EXIT] != LUA_NOREF)
    {
      qd_lua_push_func (lua, QD_LUA_EXIT);
      lua_rawgeti (lua->L, LUA_REGISTRYINDEX, lua->state_ref);
      lua_pushnumber (lua->L, t);
      if (!qd_lua_call (lua, 2, 0))
        fail (self);
    }
  g_clear_pointer (&st->lua, qd_lua_free);
}

/* Check: the header is well formed and the script compiles. */
static gboolean
lua_block_check (const QdBlockType  *type,
                 const QdParamValue *params,
                 guint               n_inputs,
                 guint               n_outputs,
                 GError            **error)
{
  g_autofree char *message = NULL;
  int line = 0;

  if (qd_blocks_check_lua_script (params[PARAM_SCRIPT].text, &line, &message))
    return TRUE;
  if (line > 0)
    g_set_error (error, QD_ERROR, QD_ERROR_SCRIPT, _("script line %d: %s"),
                 line, message);
  else
    g_set_error (error, QD_ERROR, QD_ERROR_SCRIPT, _("script: %s"), message);
  return FALSE;
}

/* QdBlockType.ports: the script's header declares the ports; without a
 * declaration (or with a header that Check refuses) the type's one input
 * and one output. */
static void
lua_block_ports (const QdBlockType *type,
                 const char *const *texts,
                 guint             *n_inputs,
                 guint             *n_outputs)
{
  QdLuaHeader header;

  if (!qd_lua_header_parse (texts[PARAM_SCRIPT], &header, NULL))
    return;
  if (header.n_inputs >= 0)
    *n_inputs = (guint) header.n_inputs;
  if (header.n_outputs >= 0)
    *n_outputs = (guint) header.n_outputs;
  qd_lua_header_clear (&header);
}

void
qd_lua_block_fill_type (QdBlockType *type)
{
  type->state_size = sizeof (LuaBlock);
  type->init = lua_block_init;
  type->ta = lua_block_ta;
  type->dint = lua_block_dint;
  type->dext = lua_block_dext;
  type->lambda = lua_block_lambda;
  type->exit = lua_block_exit;
}

/* The textbook's processor (Zeigler): serves one job at a time for a
 * fixed time; a job arriving while busy is ignored. */
#define DEFAULT_SCRIPT \
  "--@inputs 1\n" \
  "--@outputs 1\n" \
  "--@param time 1 \"The processing time of one job\"\n" \
  "\n" \
  "function init(p)\n" \
  "  return { phase = \"passive\", sigma = math.huge, job = 0, time = p.time }\n" \
  "end\n" \
  "\n" \
  "function ta(s)\n" \
  "  return s.sigma\n" \
  "end\n" \
  "\n" \
  "function dext(s, t, e, port, x)\n" \
  "  if s.phase == \"passive\" then\n" \
  "    s.phase, s.sigma, s.job = \"busy\", s.time, x\n" \
  "  else\n" \
  "    s.sigma = s.sigma - e\n" \
  "  end\n" \
  "end\n" \
  "\n" \
  "function lambda(s, t)\n" \
  "  out(0, s.job)\n" \
  "end\n" \
  "\n" \
  "function dint(s, t)\n" \
  "  s.phase, s.sigma = \"passive\", math.huge\n" \
  "end\n"

static const QdParamSpec lua_params[] = {
  { "script", N_("Script"), QD_PARAM_STRING, DEFAULT_SCRIPT,
    -QD_INF, QD_INF, NULL,
    N_("The Lua 5.4 script: init(p), ta(s), dint(s, t), dext(s, t, e, "
       "port, x), lambda(s, t) and optionally exit(s, t)."), NULL,
    QD_PARAM_SCRIPT },
  { "values", N_("Script parameters"), QD_PARAM_STRING, "",
    -QD_INF, QD_INF, NULL,
    N_("Values of the parameters the script declares with --@param, as "
       "name = expression separated by semicolons (\"time = 2*k; n = 3\"); "
       "expressions may use the model variables and, inside a masked "
       "subsystem, its mask parameters. A parameter not given keeps its "
       "default."), NULL, QD_PARAM_ASSIGNMENTS },
};

const QdBlockType qd_block_lua = {
  .id = "lua",
  .category = N_("Custom"),
  .name = N_("Lua Atomic"),
  .glyph = "λ",
  .doc = N_("An atomic DEVS model written in Lua: the script defines "
            "init, ta, dint, dext and lambda (and optionally exit); its "
            "header declares the ports and parameters. Signal values are "
            "numbers or Taylor coefficient tables {c0, c1, c2, c3}. Runs "
            "in a sandbox with a memory limit and an instruction budget; "
            "an error stops the run with the script line."),
  .inputs = { .count = 1, .name_prefix = "in",
              .doc = N_("As many as the script's header declares with "
                        "--@inputs (one without it): what dext receives.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("As many as the script's header declares with "
                         "--@outputs (one without it): what lambda emits.") },
  .params = lua_params,
  .n_params = G_N_ELEMENTS (lua_params),
  .state_size = sizeof (LuaBlock),
  .check = lua_block_check,
  .init = lua_block_init,
  .ta = lua_block_ta,
  .dint = lua_block_dint,
  .dext = lua_block_dext,
  .lambda = lua_block_lambda,
  .exit = lua_block_exit,
  .ports = lua_block_ports,
};
