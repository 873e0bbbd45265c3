/* qd-block-lua-state.c: the sandbox block scripts run in
 *
 * The Lua blocks of a simulation share one lua_State (QdLuaVM), made
 * when the first of them starts, on the thread that runs the simulation,
 * and closed with the simulation. Each block's script runs in its own
 * environment (QdLua): a table of its own globals with its own copies of
 * the libraries, so a global of one block (a function, a variable, a
 * changed math.pi) is never another's, and math.random gives each block
 * its own sequence. One state rather than one per block: a Lua block
 * costs an environment, not an interpreter.
 *
 * The state has the base, string, table, math, utf8 and coroutine
 * libraries and nothing that reaches outside the process: no io, os,
 * package/require, debug, and no load, loadfile, dofile, string.dump or
 * collectgarbage. Naming one of these stops the run with a message that
 * says why it is missing, rather than Lua's "attempt to index a nil
 * value". math.random is seeded with 0 in each block, so runs repeat.
 *
 * Two budgets stop a runaway script: every allocation goes through
 * lua_alloc(), which refuses to pass the memory limit of the simulation's
 * scripts (a string.rep bomb, a table grown forever), and a count hook
 * fires every HOOK_STEP instructions, failing a call that has run more
 * than QD_LUA_INSTRUCTION_LIMIT of them (an endless loop). Both errors
 * name the script line they hit, like every other error here. The limit
 * holds in the scripts' calls only: what C does between them (a registry
 * reference, the parameter table) cannot fail on it, since outside a
 * protected call Lua would abort.
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
  QdLuaVM *vm = ud;
  gsize old = ptr != NULL ? osize : 0;

  if (nsize == 0)
    {
      free (ptr);
      vm->used -= old;
      return NULL;
    }
  if (nsize > old && vm->limited && vm->used - old + nsize > vm->limit)
    {
      /* Where the script was: the stack is readable here, nothing on it
       * moves while the allocator runs. */
      lua_Debug ar;

      vm->mem_line = 0;
      for (int level = 0; vm->L != NULL && lua_getstack (vm->L, level, &ar); level++)
        if (lua_getinfo (vm->L, "l", &ar) && ar.currentline > 0)
          {
            vm->mem_line = ar.currentline;
            break;
          }
      return NULL;
    }
  ptr = realloc (ptr, nsize);
  if (ptr != NULL)
    vm->used = vm->used - old + nsize;
  return ptr;
}

static void
count_hook (lua_State *L,
            lua_Debug *ar)
{
  QdLuaVM *vm = *(QdLuaVM **) lua_getextraspace (L);

  vm->ticks++;
  if ((guint64) vm->ticks * HOOK_STEP < QD_LUA_INSTRUCTION_LIMIT)
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

/* The state's own globals: the libraries, out of which each block's
 * environment is copied. No script sees this table. */
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
  qd_lua_open_out (L);
  lua_pop (L, 1);

  /* The strings' methods are the state's string table, which no block
   * can reach to change: getmetatable("") gives false. */
  lua_pushliteral (L, "");
  lua_getmetatable (L, -1);
  lua_pushboolean (L, 0);
  lua_setfield (L, -2, "__metatable");
  lua_pop (L, 2);
  return 0;
}

/* Pushes a copy of the table at @index (its entries, not deeper). */
static void
push_copy (lua_State *L,
           int        index)
{
  index = lua_absindex (L, index);
  lua_newtable (L);
  lua_pushnil (L);
  while (lua_next (L, index) != 0)
    {
      lua_pushvalue (L, -2);
      lua_insert (L, -2);
      lua_rawset (L, -4);
    }
}

/* The environment of the block given as light userdata: a copy of the
 * state's globals, each library table copied, math made anew (its own
 * random sequence, seeded with 0), _G itself; unknown names go through
 * global_index(). Protected: it allocates. */
static int
make_env (lua_State *L)
{
  QdLua *lua = lua_touserdata (L, 1);
  int env;

  lua_newtable (L);
  env = lua_gettop (L);
  lua_pushglobaltable (L);
  lua_pushnil (L);
  while (lua_next (L, -2) != 0)
    {
      if (lua_istable (L, -1))
        {
          lua_pop (L, 1);
          if (lua_type (L, -1) == LUA_TSTRING
              && strcmp (lua_tostring (L, -1), LUA_MATHLIBNAME) == 0)
            {
              lua_pushcfunction (L, luaopen_math);
              lua_call (L, 0, 1);
              lua_getfield (L, -1, "randomseed");
              lua_pushinteger (L, 0);
              lua_call (L, 1, 0);
            }
          else if (lua_type (L, -1) == LUA_TSTRING
                   && strcmp (lua_tostring (L, -1), LUA_GNAME) == 0)
            lua_pushvalue (L, env);
          else
            {
              lua_pushvalue (L, -1);
              lua_rawget (L, -3);
              push_copy (L, -1);
              lua_remove (L, -2);
            }
        }
      lua_pushvalue (L, -2);
      lua_insert (L, -2);
      lua_rawset (L, env);
    }
  lua_pop (L, 1);

  lua_createtable (L, 0, 1);
  lua_pushcfunction (L, global_index);
  lua_setfield (L, -2, "__index");
  lua_setmetatable (L, env);
  lua->env_ref = luaL_ref (L, LUA_REGISTRYINDEX);
  return 0;
}

static int message_handler (lua_State *L);

QdLuaVM *
qd_lua_vm_new (gsize memory_limit)
{
  QdLuaVM *vm = g_new0 (QdLuaVM, 1);

  vm->limit = memory_limit;
  vm->L = lua_newstate (lua_alloc, vm);
  if (vm->L == NULL)
    {
      g_free (vm);
      return NULL;
    }
  *(QdLuaVM **) lua_getextraspace (vm->L) = vm;

  lua_pushcfunction (vm->L, open_sandbox);
  if (lua_pcall (vm->L, 0, 0, 0) != LUA_OK)
    {
      qd_lua_vm_free (vm);
      return NULL;
    }
  lua_sethook (vm->L, count_hook, LUA_MASKCOUNT, HOOK_STEP);
  /* The message handler of every call stays at the bottom of the stack
   * (index HANDLER_INDEX): a call then pushes nothing but itself. */
  lua_pushcfunction (vm->L, message_handler);
  return vm;
}

void
qd_lua_vm_free (QdLuaVM *vm)
{
  if (vm == NULL)
    return;
  if (vm->L != NULL)
    lua_close (vm->L);
  g_free (vm);
}

/* A block's script in @vm, to be loaded by qd_lua_load(). */
QdLua *
qd_lua_new (QdLuaVM *vm)
{
  QdLua *lua = g_new0 (QdLua, 1);

  lua->vm = vm;
  lua->L = vm->L;
  lua->env_ref = LUA_NOREF;
  for (guint i = 0; i < QD_LUA_N_FUNCS; i++)
    lua->funcs[i] = LUA_NOREF;
  lua->state_ref = LUA_NOREF;
  return lua;
}

/* Lets go of the block's environment, functions and state; the state's
 * garbage collector frees them. */
void
qd_lua_free (QdLua *lua)
{
  if (lua == NULL)
    return;
  luaL_unref (lua->L, LUA_REGISTRYINDEX, lua->env_ref);
  luaL_unref (lua->L, LUA_REGISTRYINDEX, lua->state_ref);
  for (guint i = 0; i < QD_LUA_N_FUNCS; i++)
    luaL_unref (lua->L, LUA_REGISTRYINDEX, lua->funcs[i]);
  if (lua->vm->current == lua)
    lua->vm->current = NULL;
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
  QdLua *lua = qd_lua_current (L);
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
      lua->error = g_strdup_printf (_("the Lua blocks of this run used more "
                                      "than their %u MiB of memory"),
                                    (guint) (lua->vm->limit / (1024 * 1024)));
      lua->error_line = lua->vm->mem_line;
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
  lua->vm->current = lua;
  lua->vm->ticks = 0;
  lua->vm->limited = TRUE;
  status = lua_pcall (L, nargs, nresults, HANDLER_INDEX);
  lua->vm->limited = FALSE;
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

  lua_pushcfunction (L, make_env);
  lua_pushlightuserdata (L, lua);
  if (!qd_lua_call (lua, 1, 0))
    return FALSE;

  lua->vm->limited = TRUE;
  status = luaL_loadbufferx (L, script, strlen (script), CHUNK_NAME, "t");
  lua->vm->limited = FALSE;
  if (status != LUA_OK)
    {
      record_failure (lua, status);
      lua_pop (L, 1);
      return FALSE;
    }
  /* The chunk's globals, and so its functions', are the block's. */
  lua_rawgeti (L, LUA_REGISTRYINDEX, lua->env_ref);
  lua_setupvalue (L, -2, 1);
  if (!qd_lua_call (lua, 0, 0))
    return FALSE;

  for (guint i = 0; i < QD_LUA_N_FUNCS; i++)
    {
      /* rawget: a missing function is not a forbidden name */
      lua_rawgeti (L, LUA_REGISTRYINDEX, lua->env_ref);
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
  QdLuaVM *vm = qd_lua_vm_new (QD_LUA_MEMORY_LIMIT);
  QdLua *lua;
  gboolean ok;
  int status;

  if (vm == NULL)
    {
      *line = 0;
      *message = g_strdup ("out of memory");
      return FALSE;
    }
  lua = qd_lua_new (vm);
  lua->vm->limited = TRUE;
  status = luaL_loadbufferx (lua->L, script, strlen (script), CHUNK_NAME, "t");
  lua->vm->limited = FALSE;
  ok = status == LUA_OK;
  if (!ok)
    {
      record_failure (lua, status);
      *line = lua->error_line;
      *message = g_steal_pointer (&lua->error);
    }
  qd_lua_free (lua);
  qd_lua_vm_free (vm);
  return ok;
}
