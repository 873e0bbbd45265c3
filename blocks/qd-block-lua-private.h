/* qd-block-lua-private.h: Lua atomics, shared between their files
 *
 *   qd-block-lua.c          the block: the DEVS functions calling the script
 *   qd-block-lua-state.c    the sandboxed lua_State: allocator with a memory
 *                           limit, instruction budget, protected calls whose
 *                           errors carry the script line
 *   qd-block-lua-value.c    signals and parameters to and from Lua values
 *   qd-block-lua-library.c  the script header, the user's library blocks
 *
 * Everything here is written against the engine's public block API only,
 * as a block from outside the built-in library would be.
 */
#pragma once

#include <lua.h>

#include "qd-blocks-private.h"

G_BEGIN_DECLS

/* What the scripts may use: memory for all the Lua blocks of a run
 * together, instructions per call. */
#define QD_LUA_MEMORY_LIMIT       (256u * 1024 * 1024)
#define QD_LUA_INSTRUCTION_LIMIT  (50u * 1000 * 1000)

/* The DEVS functions of a script, by their names in the literature. */
typedef enum
{
  QD_LUA_INIT,
  QD_LUA_TA,
  QD_LUA_DINT,
  QD_LUA_DEXT,
  QD_LUA_LAMBDA,
  QD_LUA_EXIT,
  QD_LUA_N_FUNCS,
} QdLuaFunc;

typedef struct _QdLua QdLua;

/* The sandboxed interpreter of one simulation, which all its Lua blocks
 * share; its extra space points at it. */
typedef struct
{
  lua_State *L;
  gsize      used;           /* bytes allocated */
  gsize      limit;
  gboolean   limited;        /* in a script's call: the limit holds */
  guint      ticks;          /* instruction budget spent in this call */
  int        mem_line;       /* script line when the memory limit hit */
  QdLua     *current;        /* the block whose function runs */
} QdLuaVM;

/* One block's script in the interpreter: its environment (its globals),
 * its functions, its state s. */
struct _QdLua
{
  QdLuaVM   *vm;
  lua_State *L;              /* vm->L */
  QdAtomic  *atomic;         /* the block, for stat() */
  int        env_ref;        /* registry refs, LUA_NOREF if none */
  int        funcs[QD_LUA_N_FUNCS];
  int        state_ref;

  /* lambda's outputs, written by out() */
  QdSignal  *out;
  guint      n_out;
  guint64    out_mask;
  double     t;

  /* the last error: message and script line (0 when unknown) */
  char      *error;
  int        error_line;
};

/* The block whose function runs, from a C function the script called. */
static inline QdLua *
qd_lua_current (lua_State *L)
{
  return (*(QdLuaVM **) lua_getextraspace (L))->current;
}

/* The header of a script: its leading "--@key value" comment lines. */
typedef struct
{
  char  *name;
  char  *category;
  char  *glyph;
  char  *doc;
  int    n_inputs;      /* -1: not declared */
  int    n_outputs;
  GPtrArray *params;    /* QdLuaParamDecl */
} QdLuaHeader;

typedef struct
{
  char *name;
  char *default_value;  /* a QDevs expression, as written */
  char *doc;
} QdLuaParamDecl;

/* qd-block-lua-state.c */
QdLuaVM   *qd_lua_vm_new           (gsize        memory_limit);
void       qd_lua_vm_free          (QdLuaVM     *vm);
QdLua     *qd_lua_new              (QdLuaVM     *vm);
void       qd_lua_free             (QdLua       *lua);
gboolean   qd_lua_load             (QdLua       *lua,
                                    const char  *script);
gboolean   qd_lua_call             (QdLua       *lua,
                                    int          nargs,
                                    int          nresults);
void       qd_lua_push_func        (QdLua       *lua,
                                    QdLuaFunc    func);
void       qd_lua_set_error        (QdLua       *lua,
                                    QdLuaFunc    func,
                                    const char  *format,
                                    ...) G_GNUC_PRINTF (3, 4);
const char *qd_lua_func_name       (QdLuaFunc    func);
gboolean   qd_lua_check_syntax     (const char  *script,
                                    int         *line,
                                    char       **message);

/* qd-block-lua-value.c */
void       qd_lua_push_signal      (lua_State      *L,
                                    const QdSignal *x,
                                    double          t);
gboolean   qd_lua_to_signal        (lua_State      *L,
                                    int             index,
                                    double          t,
                                    QdSignal       *out,
                                    char          **problem);
gboolean   qd_lua_take_outputs     (QdLua          *lua,
                                    int             index);
void       qd_lua_open_out         (lua_State      *L);

/* qd-block-lua-library.c */
gboolean   qd_lua_header_parse     (const char   *script,
                                    QdLuaHeader  *header,
                                    GError      **error);
void       qd_lua_header_clear     (QdLuaHeader  *header);
const char *qd_lua_library_script  (const QdBlockType *type);

/* qd-block-lua.c: the DEVS functions every Lua type shares */
extern const QdBlockType qd_block_lua;
void       qd_lua_block_fill_type  (QdBlockType  *type);

G_END_DECLS
