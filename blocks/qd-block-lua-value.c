/* qd-block-lua-value.c: signals to and from Lua values
 *
 * A signal value in a script is a number when it is constant (order 0),
 * or a table of its Taylor coefficients at the event time, {c0, c1} to
 * {c0, c1, c2, c3}, for the segments QSS2 and QSS3 blocks exchange.
 * lambda gives its outputs by port (numbered from 0, as y0, y1... are
 * named): in a table it returns, {[0] = v, [1] = w}, or by calling
 * out(port, v) any number of times; a port with no value emits nothing.
 */
#include <lauxlib.h>
#include <math.h>

#include "qd-block-lua-private.h"

void
qd_lua_push_signal (lua_State      *L,
                    const QdSignal *x,
                    double          t)
{
  QdSignal here;

  qd_signal_advance (x, t, &here);
  if (here.order <= 0)
    {
      lua_pushnumber (L, here.c[0]);
      return;
    }
  lua_createtable (L, here.order + 1, 0);
  for (int k = 0; k <= here.order && k <= QD_MAX_ORDER; k++)
    {
      lua_pushnumber (L, here.c[k]);
      lua_rawseti (L, -2, k + 1);
    }
}

static const char *
finite_problem (double v)
{
  if (isnan (v))
    return "NaN";
  if (isinf (v))
    return "infinite";
  return NULL;
}

/* The signal that the value at @index gives, from @t; FALSE with
 * @problem (free it) when it is no signal. */
gboolean
qd_lua_to_signal (lua_State *L,
                  int        index,
                  double     t,
                  QdSignal  *out,
                  char     **problem)
{
  QdSignal sig = { .t = t };
  lua_Integer n;

  if (lua_type (L, index) == LUA_TNUMBER)
    sig.c[0] = lua_tonumber (L, index);
  else if (lua_istable (L, index))
    {
      n = (lua_Integer) lua_rawlen (L, index);
      if (n < 1 || n > QD_MAX_ORDER + 1)
        {
          *problem = g_strdup_printf (_("a table of %d coefficients (a signal "
                                      "has 1 to %d: {c0, c1, c2, c3})"),
                                      (int) n, QD_MAX_ORDER + 1);
          return FALSE;
        }
      for (lua_Integer k = 0; k < n; k++)
        {
          if (lua_rawgeti (L, index, k + 1) != LUA_TNUMBER)
            {
              *problem = g_strdup_printf (_("coefficient %d is a %s, not a number"),
                                          (int) k + 1, luaL_typename (L, -1));
              lua_pop (L, 1);
              return FALSE;
            }
          sig.c[k] = lua_tonumber (L, -1);
          lua_pop (L, 1);
        }
      sig.order = (gint32) n - 1;
    }
  else
    {
      *problem = g_strdup_printf (_("a %s (a signal is a number or a table "
                                  "{c0, c1, c2, c3})"),
                                  luaL_typename (L, index));
      return FALSE;
    }

  for (int k = 0; k <= sig.order; k++)
    {
      const char *bad = finite_problem (sig.c[k]);

      if (bad != NULL)
        {
          *problem = sig.order == 0
            ? g_strdup (bad)
            : g_strdup_printf ("%s (coefficient %d)", bad, k + 1);
          return FALSE;
        }
    }
  *out = sig;
  return TRUE;
}

/* Writes the value at @value_index to output @port: a Lua error naming
 * the port when it is no port or no signal. */
static void
set_output (lua_State   *L,
            QdLua       *lua,
            lua_Integer  port,
            int          value_index)
{
  char *problem = NULL;

  if (port < 0 || (lua_Unsigned) port >= lua->n_out)
    luaL_error (L, _("output port %d does not exist (the block has %d "
                "outputs, ports 0 to %d)"),
                (int) port, (int) lua->n_out, (int) lua->n_out - 1);
  if (!qd_lua_to_signal (L, value_index, lua->t, &lua->out[port], &problem))
    {
      lua_pushfstring (L, _("output %d is %s"), (int) port, problem);
      g_free (problem);
      lua_error (L);
    }
  lua->out_mask |= G_GUINT64_CONSTANT (1) << port;
}

/* out(port, value): the helper for lambda. */
static int
lua_out (lua_State *L)
{
  QdLua *lua = qd_lua_current (L);
  int is_int;
  lua_Integer port = lua_tointegerx (L, 1, &is_int);

  if (!is_int)
    return luaL_error (L, _("out: the port must be a whole number, from 0"));
  if (lua->out == NULL)
    return luaL_error (L, _("out may be called only in lambda"));
  set_output (L, lua, port, 2);
  return 0;
}

/* Sets out() in the table on top of the stack. */
void
qd_lua_open_out (lua_State *L)
{
  lua_pushcfunction (L, lua_out);
  lua_setfield (L, -2, "out");
}

/* What lambda returned, at @index: nil, or a table {[port] = value}.
 * Runs protected, so a bad entry is an error with its line. */
static int
take_outputs (lua_State *L)
{
  QdLua *lua = qd_lua_current (L);

  if (lua_isnil (L, 1))
    return 0;
  if (!lua_istable (L, 1))
    return luaL_error (L, _("lambda returned a %s; it returns the outputs "
                       "as a table {[0] = v}, or nothing after out(port, v)"),
                       luaL_typename (L, 1));
  lua_pushnil (L);
  while (lua_next (L, 1) != 0)
    {
      int is_int;
      lua_Integer port = lua_tointegerx (L, -2, &is_int);

      if (!is_int)
        return luaL_error (L, _("lambda returned an output named '%s'; "
                           "outputs are numbered from 0"),
                           luaL_tolstring (L, -2, NULL));
      set_output (L, lua, port, lua_gettop (L));
      lua_pop (L, 1);
    }
  return 0;
}

gboolean
qd_lua_take_outputs (QdLua *lua,
                     int    index)
{
  lua_State *L = lua->L;

  if (lua_isnil (L, index))
    return TRUE;
  lua_pushvalue (L, index);
  lua_pushcfunction (L, take_outputs);
  lua_insert (L, -2);
  if (qd_lua_call (lua, 1, 0))
    return TRUE;
  /* The line is lambda's, not the C function's. */
  if (lua->error_line == 0)
    {
      char *message = g_steal_pointer (&lua->error);

      qd_lua_set_error (lua, QD_LUA_LAMBDA, "%s", message);
      g_free (message);
    }
  return FALSE;
}
