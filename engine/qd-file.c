/* qd-file.c: reading and writing .qdevs files
 *
 * Loading parses the text with json-c's tokener (strict JSON, UTF-8
 * checked), then walks the tree and builds the document without commands,
 * checking everything on the way: a file that loads is a diagram every
 * other part of QDevs can trust (unique ids and sibling names, known types
 * and parameters, links between existing ports, one driver per input).
 * Every error says where (line:column for syntax, the block path or link
 * id otherwise) and what to do. Nothing in here may crash on bad input:
 * the loader is fuzzed (tests/fuzz).
 *
 * Saving goes through the canonical writer (qd-json-writer.c), so an
 * unchanged document saves to the same bytes, and replaces the file
 * atomically.
 *
 * This file holds the reading: the bytes of a file or descriptor (a
 * regular file, and a large one only if it starts as a diagram), the JSON syntax with its errors
 * at line and column, and the qd_document_load*() entry points. The walk
 * of the tree that builds the document is in qd-file-load.c, the writer
 * in qd-file-write.c; qd-file-private.h lists what they share.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "qd-file-private.h"

/* Each subsystem level costs two levels of JSON nesting (a "blocks" array
 * and a block object); this allows about a hundred levels of subsystems
 * while bounding the loader's recursion. */
#define QD_FILE_MAX_DEPTH 256

/* Sets "NAME: WHERE: MESSAGE" (or "NAME: MESSAGE" without @where) and
 * returns FALSE, so that checks read `return qd_file_fail (...)`. */
gboolean
qd_file_fail (Loader     *loader,
              int         code,
              const char *where,
              const char *format,
              ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (where != NULL && where[0] != '\0')
    g_set_error (loader->error, QD_ERROR, code, "%s: %s: %s",
                 loader->name, where, message);
  else
    g_set_error (loader->error, QD_ERROR, code, "%s: %s",
                 loader->name, message);
  g_free (message);

  return FALSE;
}

/* Line and column (both from 1, the column in characters) of byte
 * @offset, for syntax errors that editors can jump to. */
static void
offset_to_line_column (const char *data,
                       gsize       length,
                       gsize       offset,
                       guint      *line,
                       guint      *column)
{
  gsize line_start = 0;
  guint l = 1, c = 1;

  if (offset > length)
    offset = length;
  for (gsize i = 0; i < offset; i++)
    if (data[i] == '\n')
      {
        l++;
        line_start = i + 1;
      }
  for (gsize i = line_start; i < offset; i++)
    /* Count UTF-8 lead bytes only, so "ẋ" is one column. */
    if (((guchar) data[i] & 0xc0) != 0x80)
      c++;

  *line = l;
  *column = c;
}

static char *
describe_syntax_error (enum json_tokener_error  jerr,
                       const char              *data,
                       gsize                    length,
                       gsize                    offset)
{
  switch (jerr)
    {
    case json_tokener_continue:
    case json_tokener_error_parse_eof:
      {
        gsize i = 0;

        while (i < length && g_ascii_isspace (data[i]))
          i++;
        if (i == length)
          return g_strdup (_("the file is empty"));
        return g_strdup (_("unexpected end of the file; is the file cut short?"));
      }
    case json_tokener_error_depth:
      return g_strdup_printf (_("nesting deeper than %d levels"), QD_FILE_MAX_DEPTH);
    case json_tokener_error_parse_unexpected:
      if (offset < length && g_ascii_isprint (data[offset]))
        return g_strdup_printf (_("unexpected character '%c'"), data[offset]);
      if (offset < length)
        return g_strdup_printf (_("unexpected byte 0x%02x"), (guchar) data[offset]);
      return g_strdup (_("unexpected character"));
    case json_tokener_error_parse_null:
    case json_tokener_error_parse_boolean:
      return g_strdup (_("unknown word; the JSON words are true, false and null"));
    case json_tokener_error_parse_number:
      return g_strdup (_("malformed number"));
    case json_tokener_error_parse_array:
      return g_strdup (_("expected ',' or ']' in an array"));
    case json_tokener_error_parse_object_key_name:
      return g_strdup (_("expected a key in double quotes"));
    case json_tokener_error_parse_object_key_sep:
      return g_strdup (_("expected ':' after a key"));
    case json_tokener_error_parse_object_value_sep:
      return g_strdup (_("expected ',' or '}' in an object"));
    case json_tokener_error_parse_string:
      return g_strdup (_("malformed string (a bad escape or a control character)"));
    case json_tokener_error_parse_comment:
      return g_strdup (_("comments are not allowed in JSON"));
    case json_tokener_error_parse_utf8_string:
      return g_strdup (_("the text is not valid UTF-8; save the file as UTF-8"));
    case json_tokener_error_size:
      return g_strdup (_("the file is too large"));
    case json_tokener_success:
    default:
      return g_strdup (json_tokener_error_desc (jerr));
    }
}

/* The offset of the first byte that is not valid UTF-8, or @length.
 * json-c's own check lets overlong forms ("\xc0\xaf") and encoded
 * surrogates (CESU-8) through; g_utf8_validate does not. A NUL byte is
 * left to the parser, which ends the document there. */
static gsize
invalid_utf8_offset (const char *data,
                     gsize       length)
{
  gsize offset = 0;

  while (offset < length)
    {
      const char *end;

      if (g_utf8_validate_len (data + offset, length - offset, &end))
        return length;
      offset = end - data;
      if (data[offset] != '\0')
        return offset;
      offset++;
    }
  return length;
}

static int
hex4 (const char *p)
{
  int v = 0;

  for (int i = 0; i < 4; i++)
    {
      int d = g_ascii_xdigit_value (p[i]);

      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
  return v;
}

/* In a document that parsed: the offset of the first \u escape that
 * makes no text, with what is wrong with it in @what, or @length. json-c
 * turns \u0000 into a NUL inside the string and a lone surrogate into
 * bytes that are not UTF-8; neither is text GLib or GTK can hold. Outside
 * strings a backslash is a syntax error, so every backslash left starts an
 * escape. */
static gsize
bad_escape_offset (const char  *data,
                   gsize        length,
                   char       **what)
{
  for (gsize i = 0; i + 1 < length; i++)
    {
      int v;

      if (data[i] != '\\')
        continue;
      if (data[i + 1] != 'u' || i + 6 > length)
        {
          i++;  /* \" \\ \n ...: skip the escaped character */
          continue;
        }
      v = hex4 (data + i + 2);
      if (v == 0)
        {
          *what = g_strdup (_("\\u0000 would put a NUL character in the text, "
                              "which cannot hold one; remove it"));
          return i;
        }
      if (v >= 0xdc00 && v <= 0xdfff)
        {
          *what = g_strdup_printf (_("\\u%.4s is the second half of a UTF-16 "
                                     "surrogate pair without the first; write "
                                     "the character itself"), data + i + 2);
          return i;
        }
      if (v >= 0xd800 && v <= 0xdbff)
        {
          int low = i + 12 <= length && data[i + 6] == '\\'
                    && data[i + 7] == 'u' ? hex4 (data + i + 8) : -1;

          if (low < 0xdc00 || low > 0xdfff)
            {
              *what = g_strdup_printf (_("\\u%.4s is the first half of a "
                                         "UTF-16 surrogate pair without the "
                                         "second; write the character itself"),
                                       data + i + 2);
              return i;
            }
          i += 6;
        }
      i += 5;
    }
  return length;
}

static json_object *
parse_json (Loader     *loader,
            const char *data,
            gsize       length)
{
  struct json_tokener *tok;
  json_object *root;
  enum json_tokener_error jerr;
  gsize offset;
  char *what = NULL;

  if (length > G_MAXINT)
    {
      qd_file_fail (loader, QD_ERROR_SYNTAX, NULL, _("the file is too large"));
      return NULL;
    }

  tok = json_tokener_new_ex (QD_FILE_MAX_DEPTH);
  if (tok == NULL)
    {
      qd_file_fail (loader, QD_ERROR_FAILED, NULL, _("out of memory"));
      return NULL;
    }
  json_tokener_set_flags (tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
  root = json_tokener_parse_ex (tok, data, (int) length);
  jerr = json_tokener_get_error (tok);
  offset = json_tokener_get_parse_end (tok);

  /* A number or a word (true, null) at the very end is not finished
   * until the tokener sees what follows it; a NUL says "nothing". */
  if (root == NULL && jerr == json_tokener_continue)
    {
      root = json_tokener_parse_ex (tok, "", 1);
      jerr = json_tokener_get_error (tok);
      if (jerr != json_tokener_success)
        jerr = json_tokener_continue;
      offset = length;
    }
  if (root == NULL && jerr == json_tokener_success)
    {
      /* The document is the word null: valid JSON, and no diagram. Any
       * value that is not an object gets the same message below. */
      json_tokener_free (tok);
      return json_object_new_boolean (FALSE);
    }

  /* Strict mode already refuses text after the document, except that a
   * parse can end early on a NUL byte; whatever remains must be blank. */
  if (root != NULL)
    {
      while (offset < length && g_ascii_isspace (data[offset]))
        offset++;
      if (offset < length)
        {
          jerr = json_tokener_error_parse_unexpected;
          g_clear_pointer (&root, json_object_put);
        }
    }

  /* What json-c lets through: text that is not UTF-8 and escapes that
   * make none (see above). */
  if (root != NULL)
    {
      offset = invalid_utf8_offset (data, length);
      if (offset < length)
        jerr = json_tokener_error_parse_utf8_string;
      else
        offset = bad_escape_offset (data, length, &what);
      if (offset < length)
        g_clear_pointer (&root, json_object_put);
    }

  if (root == NULL)
    {
      guint line, column;

      if (jerr == json_tokener_continue)
        offset = length;
      offset_to_line_column (data, length, offset, &line, &column);
      if (what == NULL)
        what = describe_syntax_error (jerr, data, length, offset);
      g_set_error (loader->error, QD_ERROR, QD_ERROR_SYNTAX,
                   _("%s:%u:%u: JSON syntax error: %s"),
                   loader->name, line, column, what);
      g_free (what);
    }

  json_tokener_free (tok);
  return root;
}

QdDocument *
qd_document_load_data (const char  *data,
                       gsize        length,
                       const char  *name,
                       GError     **error)
{
  return qd_document_load_data_full (data, length, name, NULL, error);
}

QdDocument *
qd_document_load_data_full (const char  *data,
                            gsize        length,
                            const char  *name,
                            GPtrArray   *problems,
                            GError     **error)
{
  Loader loader = { 0, };
  json_object *json;
  QdDocument *doc;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  loader.name = name != NULL ? name : "<data>";
  loader.error = error;
  loader.problems = problems;

  json = parse_json (&loader, data != NULL ? data : "", length);
  if (json == NULL)
    return NULL;

  loader.block_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  loader.link_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  doc = qd_file_load_tree (&loader, json);
  g_hash_table_unref (loader.block_ids);
  g_hash_table_unref (loader.link_ids);
  json_object_put (json);

  return doc;
}

/* The first byte of @data that is not blank, or -1 when all @length
 * bytes are blank. Every diagram starts with '{'. */
static int
first_non_blank (const guint8 *data,
                 gsize         length)
{
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isspace (data[i]))
      return data[i];
  return -1;
}

static void
set_not_diagram_error (GError     **error,
                       const char  *display)
{
  g_set_error (error, QD_ERROR, QD_ERROR_IO,
               _("%s: more than %d MiB that do not start with '{', so not a "
                 "diagram; check that it is a .qdevs file"),
               display, QD_FILE_PLAIN_SIZE >> 20);
}

/* Reads @fd to its end, @size_hint bytes expected (0: unknown), and
 * beyond QD_FILE_PLAIN_SIZE bytes only if they look like a diagram. There
 * is no other limit: a cap would make some diagram the editor saved
 * impossible to open again (the writer has none), and a large file
 * given by mistake that does start with '{' is refused by the loader
 * after it, for the memory of its bytes. Errors carry the strerror text
 * only: the file name is already at the front of the message. */
static gboolean
read_fd (int          fd,
         const char  *display,
         gsize        size_hint,
         char       **contents,
         gsize       *length,
         GError     **error)
{
  gsize capacity = MAX (size_hint, 65536) + 1;
  char *data = g_malloc (capacity);
  gsize len = 0;
  gboolean checked = FALSE;

  for (;;)
    {
      gssize n;

      if (capacity - len < 65536 + 1)
        {
          capacity = capacity + capacity / 2 + 65536;
          data = g_realloc (data, capacity);
        }
      n = read (fd, data + len, capacity - len - 1);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, QD_ERROR, QD_ERROR_IO, _("%s: cannot read: %s"),
                       display, g_strerror (saved));
          g_free (data);
          return FALSE;
        }
      if (n == 0)
        break;
      len += (gsize) n;
      if (!checked && len > QD_FILE_PLAIN_SIZE)
        {
          if (first_non_blank ((const guint8 *) data, len) != '{')
            {
              set_not_diagram_error (error, display);
              g_free (data);
              return FALSE;
            }
          checked = TRUE;
        }
    }

  data[len] = '\0';
  *length = len;
  *contents = data;
  return TRUE;
}

/* Opens and reads a file: only a regular one, so that a device
 * (/dev/zero), a pipe or a folder given by mistake is refused at once
 * instead of read until memory runs out; and a large one only if it
 * starts as a diagram, looked at before reading the rest. */
static gboolean
read_file (const char  *path,
           const char  *display,
           char       **contents,
           gsize       *length,
           GError     **error)
{
  struct stat st;
  gboolean ok;
  int fd;

  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, QD_ERROR, QD_ERROR_IO, _("%s: cannot open: %s"),
                   display, g_strerror (saved));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO,
                   _("%s: not a regular file (a folder, a device or a pipe); give the path of a .qdevs diagram"),
                   display);
      close (fd);
      return FALSE;
    }
  if (st.st_size > QD_FILE_PLAIN_SIZE)
    {
      guint8 head[4096];
      gssize n = pread (fd, head, sizeof head, 0);
      int first = n > 0 ? first_non_blank (head, (gsize) n) : -1;

      /* All blank so far: read_fd decides on more of it. */
      if (first >= 0 && first != '{')
        {
          set_not_diagram_error (error, display);
          close (fd);
          return FALSE;
        }
    }
  ok = read_fd (fd, display, st.st_size > 0 ? (gsize) st.st_size : 0,
                contents, length, error);
  close (fd);
  return ok;
}

QdDocument *
qd_document_load (const char  *path,
                  GError     **error)
{
  return qd_document_load_full (path, NULL, error);
}

QdDocument *
qd_document_load_full (const char  *path,
                       GPtrArray   *problems,
                       GError     **error)
{
  g_autofree char *display = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  display = g_filename_display_name (path);
  if (!read_file (path, display, &contents, &length, error))
    return NULL;

  return qd_document_load_data_full (contents, length, display, problems,
                                     error);
}

QdDocument *
qd_document_load_fd (int          fd,
                     const char  *name,
                     GError     **error)
{
  return qd_document_load_fd_full (fd, name, NULL, error);
}

QdDocument *
qd_document_load_fd_full (int          fd,
                          const char  *name,
                          GPtrArray   *problems,
                          GError     **error)
{
  g_autofree char *contents = NULL;
  gsize length;

  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!read_fd (fd, name, 0, &contents, &length, error))
    return NULL;
  return qd_document_load_data_full (contents, length, name, problems, error);
}

