/* qd-file.c: reading and writing .qdevs files
 *
 * Loading parses the text with json-c's tokener (strict JSON, UTF-8
 * checked), a block or a link at a time (see "The text of a file" below),
 * and builds the document from the pieces without commands,
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
 * regular file, and a large one only if it starts as a diagram), the
 * JSON syntax with its errors at line and column, and the
 * qd_document_load*() entry points. The walk
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

/* The text of a file is not parsed as one JSON tree: json-c's tree of a
 * large diagram (an object and a hash table per block, a string object
 * per key and value) takes some 20 times the bytes of the file, far more
 * than the document it becomes. json-c has no streaming (SAX-style)
 * interface either, so the reader below walks the outer structure
 * itself: the top-level object, and in it and in every block the
 * "blocks" and "links" arrays, whose elements it hands to json-c one at
 * a time; qd-file-load.c turns each into a block or a link, and it is
 * freed before the next one is parsed. Everything else (keys, the other
 * values, each element) is parsed by json-c with the same flags as the
 * whole file would be, and a tokener whose nesting limit is what is left
 * of QD_FILE_MAX_DEPTH at that depth, so the file accepted is the same.
 *
 * Loading reads the top-level object first, stepping over the two large
 * arrays by matching their brackets (aware of strings and escapes) and
 * leaving in their place an empty array that records where they are
 * (QdFileSpan). A file with an error anywhere is then read again from
 * the start by the same walk, every array read element by element, so
 * that a syntax error is reported at the first place json-c would find
 * it in the whole file, and before any error in what the file means. */

typedef struct
{
  gsize start;  /* the '[' */
  gsize end;    /* just after the ']', as the brackets matched */
  int   depth;  /* of the array, the top-level object being at 0 */
} QdFileSpan;

struct _QdFileText
{
  const char               *data;
  gsize                     length;
  gboolean                  validate;   /* read every array at once */
  struct json_tokener      *toks[QD_FILE_MAX_DEPTH];  /* by depth */
  guint                     n_spans;    /* arrays stepped over */
  guint                     n_read;     /* and read to their end since */
  gboolean                  failed;     /* the first syntax error: */
  enum json_tokener_error   jerr;
  gsize                     offset;
};

static gboolean
is_json_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static gsize
skip_blank (QdFileText *t,
            gsize       pos)
{
  while (pos < t->length && is_json_blank (t->data[pos]))
    pos++;
  return pos;
}

/* A tokener for a value at @depth, as the whole file's would be there:
 * strict, UTF-8 checked, and allowed the rest of the nesting. */
static struct json_tokener *
get_tokener (QdFileText *t,
             int         depth)
{
  struct json_tokener *tok = t->toks[depth];

  if (tok == NULL)
    {
      tok = json_tokener_new_ex (QD_FILE_MAX_DEPTH - depth);
      g_assert (tok != NULL);
      json_tokener_set_flags (tok, JSON_TOKENER_STRICT
                                   | JSON_TOKENER_ALLOW_TRAILING_CHARS
                                   | JSON_TOKENER_VALIDATE_UTF8);
      t->toks[depth] = tok;
    }
  else
    json_tokener_reset (tok);
  return tok;
}

static gboolean
syntax_error (QdFileText              *t,
              enum json_tokener_error  jerr,
              gsize                    offset)
{
  if (!t->failed)
    {
      t->failed = TRUE;
      t->jerr = jerr;
      t->offset = offset;
    }
  return FALSE;
}

/* The structure does not go on as it must at @pos (or the text ends):
 * json-c is asked what it says of the same bytes after @state, the same
 * state written small ("[0": after an element of an array), so that the
 * error is the one a parse of the whole file gives there (a byte that
 * is not UTF-8, a NUL that ends the text, a comment...). */
static gboolean
structure_error (QdFileText *t,
                 const char *state,
                 gsize       pos)
{
  struct json_tokener *tok;
  json_object *value;
  enum json_tokener_error jerr;
  char buf[64];
  gsize n = strlen (state), k, end;

  if (pos >= t->length)
    return syntax_error (t, json_tokener_continue, t->length);
  k = MIN (t->length - pos, 8);
  memcpy (buf, state, n);
  memcpy (buf + n, t->data + pos, k);
  tok = json_tokener_new_ex (QD_FILE_MAX_DEPTH);
  g_assert (tok != NULL);
  json_tokener_set_flags (tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
  value = json_tokener_parse_ex (tok, buf, (int) (n + k));
  jerr = json_tokener_get_error (tok);
  end = json_tokener_get_parse_end (tok);
  json_object_put (value);
  json_tokener_free (tok);
  if (value != NULL || jerr == json_tokener_success
      || jerr == json_tokener_continue || end < n)
    return syntax_error (t, json_tokener_error_parse_unexpected, pos);
  return syntax_error (t, jerr, pos + (end - n));
}

/* After a value that starts at @value_start, in a container opened by
 * @open: the state holds the end of that value itself when nothing
 * separates it from @pos, since json-c reads "0x" as a malformed number
 * and "0 x" as a missing comma. */
static gboolean
after_value_error (QdFileText *t,
                   const char *open,
                   gsize       value_start,
                   gsize       pos)
{
  char state[48];
  gsize n = strlen (open), m = pos - value_start;

  memcpy (state, open, n);
  if (pos > value_start && m <= 24 && !is_json_blank (t->data[pos - 1])
      && t->data[pos - 1] != '"' && t->data[pos - 1] != ']'
      && t->data[pos - 1] != '}')
    {
      memcpy (state + n, t->data + value_start, m);
      n += m;
    }
  else
    {
      memcpy (state + n, "0 ", 2);
      n += 2;
    }
  state[n] = '\0';
  return structure_error (t, state, pos);
}

/* Parses the value at *@pos (not blank) at @depth with json-c and moves
 * *@pos past it; a JSON null is a NULL *@out. */
static gboolean
parse_value (QdFileText   *t,
             gsize        *pos,
             int           depth,
             json_object **out)
{
  struct json_tokener *tok;
  gsize avail = t->length - *pos;
  int n = (int) MIN (avail, (gsize) G_MAXINT);
  json_object *value;
  enum json_tokener_error jerr;

  *out = NULL;
  if (depth >= QD_FILE_MAX_DEPTH)
    return syntax_error (t, json_tokener_error_depth, *pos);
  tok = get_tokener (t, depth);
  value = json_tokener_parse_ex (tok, t->data + *pos, n);
  jerr = json_tokener_get_error (tok);
  if (value == NULL && jerr == json_tokener_continue)
    {
      if ((gsize) n < avail)
        return syntax_error (t, json_tokener_error_size, *pos);
      /* A number or a word (true, null) at the very end is not finished
       * until the tokener sees what follows it; a NUL says "nothing". */
      value = json_tokener_parse_ex (tok, "", 1);
      if (json_tokener_get_error (tok) != json_tokener_success)
        {
          json_object_put (value);
          return syntax_error (t, json_tokener_continue, t->length);
        }
      *out = value;
      *pos = t->length;
      return TRUE;
    }
  if (jerr != json_tokener_success)
    return syntax_error (t, jerr, *pos + json_tokener_get_parse_end (tok));
  *out = value;
  *pos += json_tokener_get_parse_end (tok);
  return TRUE;
}

/* Just after the array or object at @pos, by its brackets, strings and
 * escapes (not checked: json-c parses what is inside later), or 0 when
 * they do not close. */
static gsize
match_brackets (QdFileText *t,
                gsize       pos)
{
  gsize depth = 0;

  for (gsize p = pos; p < t->length; p++)
    {
      char c = t->data[p];

      if (c == '"')
        {
          for (p++; p < t->length && t->data[p] != '"'; p++)
            if (t->data[p] == '\\')
              p++;
          if (p >= t->length)
            break;
        }
      else if (c == '[' || c == '{')
        depth++;
      else if (c == ']' || c == '}')
        {
          if (--depth == 0)
            return p + 1;
        }
      else if (c == '\0')
        break;
    }
  return 0;
}

/* Past the array at *@pos: what is inside is parsed when it is read
 * (qd_file_array_foreach). */
static gboolean
skip_array (QdFileText *t,
            gsize      *pos)
{
  gsize end = match_brackets (t, *pos);

  /* Unbalanced: the walk from the start finds where exactly. */
  if (end == 0)
    return syntax_error (t, json_tokener_continue, t->length);
  *pos = end;
  return TRUE;
}

/* An element up to this size is parsed whole, in one call to json-c (a
 * block, a link, a small subsystem): its tree is small, and a call per
 * key and value costs more. Beyond it (a large subsystem), its own
 * "blocks" and "links" are read element by element in turn. */
#define QD_FILE_WHOLE_ELEMENT (64 << 10)

static gsize whole_element = QD_FILE_WHOLE_ELEMENT;

void
qd_file_set_whole_element (gsize size)
{
  whole_element = size;
}

typedef struct
{
  gsize    pos;
  gsize    last;   /* where the last element read starts */
  int      depth;  /* of the array */
  gboolean started;
} ArrayReader;

static gboolean parse_object (QdFileText   *t,
                              gsize        *pos,
                              int           depth,
                              json_object **out);

/* The next element of the array (*@done at its end): a large object
 * with its own large arrays stepped over (or, validating, read), anything
 * else as json-c parses it. */
static gboolean
array_next (QdFileText   *t,
            ArrayReader  *r,
            json_object **element,
            gboolean     *done)
{
  gsize p, end;
  gboolean ok;

  *element = NULL;
  *done = FALSE;
  /* Past the '[', or past the last element. */
  p = skip_blank (t, r->started ? r->pos : r->pos + 1);
  if (p < t->length && t->data[p] == ']')
    {
      r->pos = p + 1;
      *done = TRUE;
      return TRUE;
    }
  if (r->started)
    {
      if (p >= t->length || t->data[p] != ',')
        return after_value_error (t, "[", r->last, p);
      p = skip_blank (t, p + 1);
      if (p < t->length && t->data[p] == ']')
        return structure_error (t, "[0,", p);
    }
  if (p >= t->length || t->data[p] == '\0')
    return structure_error (t, "[", p);
  r->started = TRUE;
  r->last = p;
  end = t->data[p] == '{' ? match_brackets (t, p) : 0;
  if (t->data[p] == '{' && (end == 0 || end - p > whole_element))
    ok = parse_object (t, &p, r->depth + 1, element);
  else
    ok = parse_value (t, &p, r->depth + 1, element);
  r->pos = p;
  return ok;
}

/* Validating: reads the array at *@pos element by element. */
static gboolean
read_array (QdFileText *t,
            gsize      *pos,
            int         depth)
{
  ArrayReader r = { *pos, *pos, depth, FALSE };

  for (;;)
    {
      json_object *element;
      gboolean done;

      if (!array_next (t, &r, &element, &done))
        return FALSE;
      if (done)
        break;
      json_object_put (element);
    }
  *pos = r.pos;
  return TRUE;
}

static void
free_span (json_object *array,
           void        *span)
{
  (void) array;
  g_free (span);
}

/* The value of "blocks" or "links" in an object: an empty array standing
 * for the one in the text, stepped over (or read, validating). */
static gboolean
large_array (QdFileText   *t,
             gsize        *pos,
             int           depth,
             json_object **out)
{
  QdFileSpan *span;

  if (depth >= QD_FILE_MAX_DEPTH)
    return syntax_error (t, json_tokener_error_depth, *pos);
  if (t->validate)
    {
      if (!read_array (t, pos, depth))
        return FALSE;
      *out = json_object_new_array ();
      return TRUE;
    }
  span = g_new (QdFileSpan, 1);
  span->start = *pos;
  span->depth = depth;
  if (!skip_array (t, pos))
    {
      g_free (span);
      return FALSE;
    }
  span->end = *pos;
  t->n_spans++;
  *out = json_object_new_array ();
  json_object_set_userdata (*out, span, free_span);
  return TRUE;
}

/* The object at *@pos, its members parsed by json-c one by one but for
 * the arrays "blocks" and "links" (large_array). */
static gboolean
parse_object (QdFileText   *t,
              gsize        *pos,
              int           depth,
              json_object **out)
{
  json_object *object;
  gboolean first = TRUE;
  gsize p;

  *out = NULL;
  if (depth >= QD_FILE_MAX_DEPTH)
    return syntax_error (t, json_tokener_error_depth, *pos);
  p = skip_blank (t, *pos + 1);
  object = json_object_new_object ();
  if (p < t->length && t->data[p] == '}')
    {
      *pos = p + 1;
      *out = object;
      return TRUE;
    }
  for (;;)
    {
      json_object *key = NULL, *value = NULL;
      gsize value_start;
      gboolean ok;

      if (p >= t->length || t->data[p] != '"')
        {
          structure_error (t, first ? "{" : "{\"\":0,", p);
          goto fail;
        }
      first = FALSE;
      /* Any tokener reads a key: the limit counts values only. */
      if (!parse_value (t, &p, 0, &key))
        goto fail;
      p = skip_blank (t, p);
      if (p >= t->length || t->data[p] != ':')
        {
          json_object_put (key);
          structure_error (t, "{\"\"", p);
          goto fail;
        }
      p = skip_blank (t, p + 1);
      value_start = p;
      if (p < t->length && t->data[p] == '['
          && (strcmp (json_object_get_string (key), "blocks") == 0
              || strcmp (json_object_get_string (key), "links") == 0))
        ok = large_array (t, &p, depth + 1, &value);
      else
        ok = parse_value (t, &p, depth + 1, &value);
      if (ok)
        json_object_object_add (object, json_object_get_string (key), value);
      json_object_put (key);
      if (!ok)
        goto fail;
      p = skip_blank (t, p);
      if (p < t->length && t->data[p] == '}')
        break;
      if (p >= t->length || t->data[p] != ',')
        {
          after_value_error (t, "{\"\":", value_start, p);
          goto fail;
        }
      p = skip_blank (t, p + 1);
    }
  *pos = p + 1;
  *out = object;
  return TRUE;

fail:
  json_object_put (object);
  return FALSE;
}

/* The whole text: one value, blank after it. The null document is a
 * FALSE, so that "not a diagram" is said of it as of any non-object. */
static json_object *
parse_text (QdFileText *t)
{
  json_object *root = NULL;
  gsize p = skip_blank (t, 0), start = p;
  gboolean ok;

  if (p >= t->length)
    {
      syntax_error (t, json_tokener_continue, t->length);
      return NULL;
    }
  if (t->data[p] == '{')
    ok = parse_object (t, &p, 0, &root);
  else
    {
      ok = parse_value (t, &p, 0, &root);
      if (ok && root == NULL)
        root = json_object_new_boolean (FALSE);
    }
  if (!ok)
    return NULL;
  p = skip_blank (t, p);
  if (p < t->length)
    {
      json_object_put (root);
      after_value_error (t, "", start, p);
      return NULL;
    }
  return root;
}

/* Read again from the start, validating (see the top of this part). */
static gboolean
find_syntax_error (QdFileText *t)
{
  json_object *root;

  t->validate = TRUE;
  t->failed = FALSE;
  root = parse_text (t);
  json_object_put (root);
  return t->failed;
}

static void report_syntax_error (Loader     *loader,
                                 QdFileText *t,
                                 char       *what);

gboolean
qd_file_array_foreach (Loader      *loader,
                       json_object *array,
                       QdFileEach   each,
                       gpointer     data)
{
  QdFileSpan *span = json_object_get_userdata (array);
  QdFileText *t = loader->text;
  ArrayReader r;
  gsize index = 0;

  if (span == NULL)
    {
      for (gsize i = 0; i < json_object_array_length (array); i++)
        if (!each (loader, i, json_object_array_get_idx (array, i), data))
          return FALSE;
      return TRUE;
    }

  r = (ArrayReader) { span->start, span->start, span->depth, FALSE };
  for (;;)
    {
      json_object *element;
      gboolean done, ok;

      /* The error is said here; the file read again from the start may
       * find an earlier one (load_text()). */
      if (!array_next (t, &r, &element, &done))
        {
          report_syntax_error (loader, t, NULL);
          return FALSE;
        }
      if (done)
        break;
      ok = each (loader, index++, element, data);
      json_object_put (element);
      if (!ok)
        return FALSE;
    }
  if (r.pos != span->end)
    {
      syntax_error (t, json_tokener_error_parse_unexpected, r.pos);
      report_syntax_error (loader, t, NULL);
      return FALSE;
    }
  t->n_read++;
  return TRUE;
}

static void
report_syntax_error (Loader     *loader,
                     QdFileText *t,
                     char       *what)
{
  guint line, column;
  gsize offset = t->jerr == json_tokener_continue ? t->length : t->offset;

  offset_to_line_column (t->data, t->length, offset, &line, &column);
  if (what == NULL)
    what = describe_syntax_error (t->jerr, t->data, t->length, offset);
  g_set_error (loader->error, QD_ERROR, QD_ERROR_SYNTAX,
               _("%s:%u:%u: JSON syntax error: %s"),
               loader->name, line, column, what);
  g_free (what);
}

/* What json-c lets through in a text that parsed: text that is not
 * UTF-8, and escapes that make none (see above). */
static gboolean
check_text (Loader     *loader,
            QdFileText *t)
{
  char *what = NULL;
  gsize offset = invalid_utf8_offset (t->data, t->length);

  if (offset < t->length)
    t->jerr = json_tokener_error_parse_utf8_string;
  else
    offset = bad_escape_offset (t->data, t->length, &what);
  if (offset == t->length)
    return TRUE;
  /* A syntax error anywhere comes first, as everywhere. */
  if (find_syntax_error (t))
    g_clear_pointer (&what, g_free);
  else
    t->offset = offset;
  report_syntax_error (loader, t, what);
  return FALSE;
}

static QdDocument *
load_text (Loader     *loader,
           QdFileText *t)
{
  json_object *json;
  QdDocument *doc;

  json = parse_text (t);
  if (json == NULL)
    {
      /* The first error in the file, which the step over the large
       * arrays may have passed. */
      find_syntax_error (t);
      report_syntax_error (loader, t, NULL);
      return NULL;
    }
  if (!check_text (loader, t))
    {
      json_object_put (json);
      return NULL;
    }

  loader->block_ids = g_hash_table_new (g_str_hash, g_str_equal);
  loader->link_ids = g_hash_table_new (g_str_hash, g_str_equal);
  doc = qd_file_load_tree (loader, json);
  g_hash_table_unref (loader->block_ids);
  g_hash_table_unref (loader->link_ids);
  json_object_put (json);

  /* An error in what the file means, or an array left unread: the file
   * is read again for a syntax error, which comes first. */
  if ((doc == NULL || t->n_read != t->n_spans) && find_syntax_error (t))
    {
      g_clear_object (&doc);
      if (loader->error != NULL)
        g_clear_error (loader->error);
      report_syntax_error (loader, t, NULL);
    }
  return doc;
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
  QdFileText text = { 0, };
  QdDocument *doc;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  loader.name = name != NULL ? name : "<data>";
  loader.error = error;
  loader.problems = problems;
  loader.text = &text;
  text.data = data != NULL ? data : "";
  text.length = length;

  doc = load_text (&loader, &text);
  for (guint i = 0; i < G_N_ELEMENTS (text.toks); i++)
    if (text.toks[i] != NULL)
      json_tokener_free (text.toks[i]);
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

