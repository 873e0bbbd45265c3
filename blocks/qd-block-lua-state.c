/* qd-block-lua-state.c: the sandbox a block script runs in
 *
 * Each Lua block has its own lua_State, made in its init on the thread
 * that runs the simulation and closed in its exit, so scripts share
 * nothing with each other, with other runs or with the editor.
 *
 * The state has the base, string, table, math, utf8 and coroutine
 * libraries and nothing that reaches outside the process: no io, os,
 * package/require, debug, and no load, loadfile, dofile, string.dump or
 * collectgarbage. Naming one of these stops the run with a message that
 * says why it is missing, rather than Lua's "attempt to index a nil
 * value". math.random is seeded with 0, so runs repeat.
 *
 * Two budgets stop a runaway script: every allocation goes through
 * lua_alloc(), which refuses to pass the memory limit (a string.rep
 * bomb, a table grown forever), and a count hook fires every
 * HOOK_STEP instructions, failing a call that has run more than
 * QD_LUA_INSTRUCTION_LIMIT of them (an endless loop). Both errors name
 * the script line they hit, like every other error here.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-block-lua-private.h"

#define HOOK_STEP  100000u
#define CHUNK_NAME "=script"
#define HANDLER_INDEX 1

static const char *const func_names[QD_LUA_N_FUNCS] = {
  "init", "ta", "dint", "dext", "lambda", "exit",
};

/* What a script cannot use, and why. */
static const char *const forbidden_names[] = {
  "io", "os", "require", "package", "debug", "load", "loadfile", "dofile",
  "collectgarbage", "loadstring", "module", NULL
};

const char *
qd_lua_func_name (QdLuaFunc func)
{
  return func_names[func];
}

static void *
lua_alloc (void   *ud,
           void   *ptr,
           size_t  osize,
           size_t  nsize)
{
  QdLua *lua = ud;
  gsize old = ptr != NULL ? osize : 0;

  if (nsize == 0)
    {
      free (ptr);
      lua->used -= old;
      return NULL;
    }
  if (nsize > old && lua->used - old + nsize > lua->limit)
    {
      /* Where the script was: the stack is readable here, nothing on it
       * moves while the allocator runs. */
      lua_Debug ar;

      lua->mem_line = 0;
      for (int level = 0; lua->L != NULL && lua_getstack (lua->L, level, &ar); level++)
        if (lua_getinfo (lua->L, "l", &ar) && ar.currentline > 0)
          {
            lua->mem_line = ar.currentline;
            break;
          }
      return NULL;
    }
  ptr = realloc (ptr, nsize);
  if (ptr != NULL)
    lua->used = lua->used - old + nsize;
  return ptr;
}

static void
count_hook (lua_State *L,
            lua_Debug *ar)
{
  QdLua *lua = *(QdLua **) lua_getextraspace (L);

  lua->ticks++;
  if ((guint64) lua->ticks * HOOK_STEP < QD_LUA_INSTRUCTION_LIMIT)
    return;
  lua_getinfo (L, "l", ar);
  lua_pushfstring (L, "script:%d: the call ran more than %d instructions "
                   "(an endless loop?)",
                   ar->currentline, (int) QD_LUA_INSTRUCTION_LIMIT);
  lua_error (L);
}

/* __index of the globals: a forbidden name is an error, any other
 * unknown name nil, as in plain Lua. */
static int
global_index (lua_State *L)
{
  const char *name = lua_tostring (L, 2);

  for (guint i = 0; name != NULL && forbidden_names[i] != NULL; i++)
    if (strcmp (name, forbidden_names[i]) == 0)
      return luaL_error (L, _("'%s' is not available in a block script "
                         "(scripts have no files, processes, modules or "
                         "debugging; they compute with their state and "
                         "inputs only)"), name);
  lua_pushnil (L);
  return 1;
}

/* print() writes to standard error, one line per call, after "script:". */
static int
sandbox_print (lua_State *L)
{
  int n = lua_gettop (L);
  GString *line = g_string_new ("script:");

  for (int i = 1; i <= n; i++)
    {
      g_string_append_c (line, i == 1 ? ' ' : '\t');
      g_string_append (line, luaL_tolstring (L, i, NULL));
      lua_pop (L, 1);
    }
  g_printerr ("%s\n", line->str);
  g_string_free (line, TRUE);
  return 0;
}

static int
open_sandbox (lua_State *L)
{
  static const luaL_Reg libs[] = {
    { LUA_GNAME, luaopen_base },
    { LUA_STRLIBNAME, luaopen_string },
    { LUA_TABLIBNAME, luaopen_table },
    { LUA_MATHLIBNAME, luaopen_math },
    { LUA_UTF8LIBNAME, luaopen_utf8 },
    { LUA_COLIBNAME, luaopen_coroutine },
  };

  for (guint i = 0; i < G_N_ELEMENTS (libs); i++)
    {
      luaL_requiref (L, libs[i].name, libs[i].func, 1);
      lua_pop (L, 1);
    }

  lua_pushglobaltable (L);
  for (guint i = 0; forbidden_names[i] != NULL; i++)
    {
      lua_pushnil (L);
      lua_setfield (L, -2, forbidden_names[i]);
    }
  lua_pushcfunction (L, sandbox_print);
  lua_setfield (L, -2, "print");
  lua_getfield (L, -1, LUA_STRLIBNAME);
  lua_pushnil (L);
  lua_setfield (L, -2, "dump");
  lua_pop (L, 1);
  lua_pushnumber (L, HUGE_VAL);
  lua_setfield (L, -2, "inf");

  lua_newtable (L);
  lua_pushcfunction (L, global_index);
  lua_setfield (L, -2, "__index");
  lua_setmetatable (L, -2);
  lua_pop (L, 1);

  /* Runs repeat: the same random numbers every time. */
  lua_getglobal (L, LUA_MATHLIBNAME);
  lua_getfield (L, -1, "randomseed");
  lua_pushinteger (L, 0);
  lua_call (L, 1, 0);
  lua_pop (L, 1);
  return 0;
}

static int message_handler (lua_State *L);

QdLua *
qd_lua_new (gsize memory_limit)
{
  QdLua *lua = g_new0 (QdLua, 1);

  lua->limit = memory_limit;
  lua->L = lua_newstate (lua_alloc, lua);
  if (lua->L == NULL)
    {
      g_free (lua);
      return NULL;
    }
  *(QdLua **) lua_getextraspace (lua->L) = lua;
  for (guint i = 0; i < QD_LUA_N_FUNCS; i++)
    lua->funcs[i] = LUA_NOREF;
  lua->state_ref = LUA_NOREF;

  lua_pushcfunction (lua->L, open_sandbox);
  if (lua_pcall (lua->L, 0, 0, 0) != LUA_OK)
    {
      qd_lua_free (lua);
      return NULL;
    }
  lua_sethook (lua->L, count_hook, LUA_MASKCOUNT, HOOK_STEP);
  /* The message handler of every call stays at the bottom of the stack
   * (index HANDLER_INDEX): a call then pushes nothing but itself. */
  lua_pushcfunction (lua->L, message_handler);
  return lua;
}

void
qd_lua_free (QdLua *lua)
{
  if (lua == NULL)
    return;
  if (lua->L != NULL)
    lua_close (lua->L);
  g_free (lua->error);
  g_free (lua);
}

/* Splits "script:N: message" into N and the message. An error that
 * came through a coroutine has one such prefix per level (the call's
 * line, then the error's): the innermost line is the error's. */
static const char *
strip_position (const char *message,
                int        *line)
{
  while (message != NULL && g_str_has_prefix (message, "script:"))
    {
      const char *p = message + strlen ("script:");
      char *end;
      long n = strtol (p, &end, 10);

      if (end == p || end[0] != ':' || end[1] != ' ')
        break;
      *line = (int) n;
      message = end + 2;
    }
  return message;
}

/* The message handler of every protected call: the error as text, and
 * the line of the innermost script function still on the stack for an
 * error raised without a position (error("x", 0), error({})). */
static int
message_handler (lua_State *L)
{
  QdLua *lua = *(QdLua **) lua_getextraspace (L);
  const char *message = luaL_tolstring (L, 1, NULL);
  int line = 0;
  lua_Debug ar;

  for (int level = 1; lua_getstack (L, level, &ar); level++)
    if (lua_getinfo (L, "l", &ar) && ar.currentline > 0)
      {
        line = ar.currentline;
        break;
      }
  message = strip_position (message, &line);
  g_free (lua->error);
  lua->error = g_strdup (message);
  lua->error_line = line;
  return 1;
}

/* Records the outcome of a failed lua_pcall() with @status. */
static void
record_failure (QdLua *lua,
                int    status)
{
  if (status == LUA_ERRMEM)
    {
      g_free (lua->error);
      lua->error = g_strdup_printf (_("the script used more than its %u MiB "
                                    "of memory"),
                                    (guint) (lua->limit / (1024 * 1024)));
      lua->error_line = lua->mem_line;
    }
  else if (status != LUA_ERRRUN || lua->error == NULL)
    {
      /* A syntax error or an error in the handler: no handler ran. */
      const char *message = lua_tostring (lua->L, -1);
      int line = 0;

      message = strip_position (message, &line);
      g_free (lua->error);
      lua->error = g_strdup (message != NULL ? message : "unknown error");
      lua->error_line = line;
    }
}

/* Calls the function under @nargs arguments on the stack, leaving
 * @nresults results; on failure leaves nothing and sets lua->error. */
gboolean
qd_lua_call (QdLua *lua,
             int    nargs,
             int    nresults)
{
  lua_State *L = lua->L;
  int status;

  if (lua->error != NULL)
    g_clear_pointer (&lua->error, g_free);
  lua->ticks = 0;
  status = lua_pcall (L, nargs, nresults, HANDLER_INDEX);
  if (status == LUA_OK)
    return TRUE;
  record_failure (lua, status);
  lua_pop (L, 1);
  return FALSE;
}

void
qd_lua_push_func (QdLua     *lua,
                  QdLuaFunc  func)
{
  lua_rawgeti (lua->L, LUA_REGISTRYINDEX, lua->funcs[func]);
}

/* An error found in C about what @func did: the line is where @func is
 * defined (0 when the script does not define it). */
void
qd_lua_set_error (QdLua      *lua,
                  QdLuaFunc   func,
                  const char *format,
                  ...)
{
  va_list args;
  int line = 0;

  if (lua->funcs[func] != LUA_NOREF)
    {
      lua_Debug ar;

      qd_lua_push_func (lua, func);
      if (lua_getinfo (lua->L, ">S", &ar))
        line = ar.linedefined;
    }
  va_start (args, format);
  g_free (lua->error);
  lua->error = g_strdup_vprintf (format, args);
  lua->error_line = line;
  va_end (args);
}

/* Runs @script's main chunk and finds its functions. init, ta, dint,
 * dext and lambda must be there; exit may be missing. */
gboolean
qd_lua_load (QdLua      *lua,
             const char *script)
{
  lua_State *L = lua->L;
  int status;

  status = luaL_loadbufferx (L, script, strlen (script), CHUNK_NAME, "t");
  if (status != LUA_OK)
    {
      record_failure (lua, status);
      lua_pop (L, 1);
      return FALSE;
    }
  if (!qd_lua_call (lua, 0, 0))
    return FALSE;

  for (guint i = 0; i < QD_LUA_N_FUNCS; i++)
    {
      /* rawget: a missing function is not a forbidden name */
      lua_pushglobaltable (L);
      lua_pushstring (L, func_names[i]);
      lua_rawget (L, -2);
      lua_remove (L, -2);
      if (lua_isfunction (L, -1))
        lua->funcs[i] = luaL_ref (L, LUA_REGISTRYINDEX);
      else
        {
          gboolean optional = i == QD_LUA_EXIT;
          gboolean absent = lua_isnil (L, -1);

          lua_pop (L, 1);
          if (absent && optional)
            continue;
          g_free (lua->error);
          lua->error = absent
            ? g_strdup_printf (_("the script defines no function %s; a block "
                               "script defines init, ta, dint, dext and "
                               "lambda (and exit if it needs one)"),
                               func_names[i])
            : g_strdup_printf (_("%s must be a function"), func_names[i]);
          lua->error_line = 0;
          return FALSE;
        }
    }
  return TRUE;
}

/* Compiles @script without running it, in a scratch state: the syntax
 * check of Check and of the editor. On failure sets @line (0 if
 * unknown) and @message (free it). */
gboolean
qd_lua_check_syntax (const char  *script,
                     int         *line,
                     char       **message)
{
  QdLua *lua = qd_lua_new (QD_LUA_MEMORY_LIMIT);
  gboolean ok;
  int status;

  if (lua == NULL)
    {
      *line = 0;
      *message = g_strdup ("out of memory");
      return FALSE;
    }
  status = luaL_loadbufferx (lua->L, script, strlen (script), CHUNK_NAME, "t");
  ok = status == LUA_OK;
  if (!ok)
    {
      record_failure (lua, status);
      *line = lua->error_line;
      *message = g_steal_pointer (&lua->error);
    }
  qd_lua_free (lua);
  return ok;
}
