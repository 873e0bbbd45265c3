/* qd-json-writer.c: a small canonical JSON writer for .qdevs files
 *
 * See qd-json-writer.h for why it exists. The writer keeps a stack of open
 * containers; each knows whether it is an object or an array, whether it
 * is written on one line, and how many members it has so far, which is all
 * it takes to put commas, line breaks and indents in the same places every
 * time.
 */
#include "qd-json-writer.h"

#include <math.h>
#include <string.h>

typedef struct
{
  gboolean is_object;
  gboolean is_inline;
  guint    count;
} Frame;

struct _QdJsonWriter
{
  GString  *out;
  GArray   *stack;      /* Frame */
  gboolean  after_key;  /* a key was written; its value comes next */
};

QdJsonWriter *
qd_json_writer_new (void)
{
  QdJsonWriter *writer = g_new0 (QdJsonWriter, 1);

  writer->out = g_string_sized_new (4096);
  writer->stack = g_array_new (FALSE, FALSE, sizeof (Frame));

  return writer;
}

void
qd_json_writer_free (QdJsonWriter *writer)
{
  if (writer == NULL)
    return;
  g_string_free (writer->out, TRUE);
  g_array_unref (writer->stack);
  g_free (writer);
}

char *
qd_json_writer_free_to_data (QdJsonWriter *writer,
                             gsize        *length)
{
  char *data;

  g_warn_if_fail (writer->stack->len == 0);

  g_string_append_c (writer->out, '\n');
  if (length != NULL)
    *length = writer->out->len;
  data = g_string_free (writer->out, FALSE);
  writer->out = NULL;
  g_array_unref (writer->stack);
  g_free (writer);

  return data;
}

/* Decimal digits of @value into @buf (at least 21 bytes). printf would
 * do, but saving a large diagram writes hundreds of thousands of
 * integers, and this is several times cheaper. */
static char *
format_uint64 (char    *buf,
               guint64  value,
               gboolean negative)
{
  char digits[21];
  guint n = 0;
  char *p = buf;

  do
    {
      digits[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  if (negative)
    *p++ = '-';
  while (n > 0)
    *p++ = digits[--n];
  *p = '\0';

  return buf;
}

static char *
format_int64 (char   *buf,
              gint64  value)
{
  /* Negate in unsigned arithmetic: -G_MININT64 does not fit a gint64. */
  if (value < 0)
    return format_uint64 (buf, (guint64) 0 - (guint64) value, TRUE);
  return format_uint64 (buf, (guint64) value, FALSE);
}

static Frame *
top_frame (QdJsonWriter *writer)
{
  if (writer->stack->len == 0)
    return NULL;
  return &g_array_index (writer->stack, Frame, writer->stack->len - 1);
}

static void
newline_indent (QdJsonWriter *writer,
                guint         depth)
{
  g_string_append_c (writer->out, '\n');
  for (guint i = 0; i < depth; i++)
    g_string_append (writer->out, "  ");
}

/* Puts the separator and line break that come before a value. Inside an
 * object the key already did that. */
static void
before_value (QdJsonWriter *writer)
{
  Frame *frame = top_frame (writer);

  if (frame == NULL)
    return;
  if (frame->is_object)
    {
      g_warn_if_fail (writer->after_key);
      writer->after_key = FALSE;
      return;
    }
  if (frame->count > 0)
    g_string_append_c (writer->out, ',');
  if (frame->is_inline)
    {
      if (frame->count > 0)
        g_string_append_c (writer->out, ' ');
    }
  else
    newline_indent (writer, writer->stack->len);
  frame->count++;
}

static void
begin_container (QdJsonWriter *writer,
                 gboolean      is_object,
                 gboolean      is_inline)
{
  Frame *parent;
  Frame frame = { is_object, is_inline, 0 };

  before_value (writer);
  /* Everything inside a one-line container stays on that line. */
  parent = top_frame (writer);
  if (parent != NULL && parent->is_inline)
    frame.is_inline = TRUE;
  g_string_append_c (writer->out, is_object ? '{' : '[');
  g_array_append_val (writer->stack, frame);
}

static void
end_container (QdJsonWriter *writer,
               gboolean      is_object)
{
  Frame frame;

  g_return_if_fail (writer->stack->len > 0);
  frame = *top_frame (writer);
  g_return_if_fail (frame.is_object == is_object);
  g_array_set_size (writer->stack, writer->stack->len - 1);

  if (frame.count > 0)
    {
      if (!frame.is_inline)
        newline_indent (writer, writer->stack->len);
      else if (is_object)
        g_string_append_c (writer->out, ' ');
    }
  g_string_append_c (writer->out, is_object ? '}' : ']');
}

void
qd_json_writer_begin_object (QdJsonWriter *writer,
                             gboolean      is_inline)
{
  begin_container (writer, TRUE, is_inline);
}

void
qd_json_writer_end_object (QdJsonWriter *writer)
{
  end_container (writer, TRUE);
}

void
qd_json_writer_begin_array (QdJsonWriter *writer,
                            gboolean      is_inline)
{
  begin_container (writer, FALSE, is_inline);
}

void
qd_json_writer_end_array (QdJsonWriter *writer)
{
  end_container (writer, FALSE);
}

void
qd_json_writer_key (QdJsonWriter *writer,
                    const char   *key)
{
  Frame *frame = top_frame (writer);

  g_return_if_fail (frame != NULL && frame->is_object && !writer->after_key);

  if (frame->count > 0)
    g_string_append_c (writer->out, ',');
  if (frame->is_inline)
    g_string_append_c (writer->out, ' ');
  else
    newline_indent (writer, writer->stack->len);
  frame->count++;

  qd_json_append_string (writer->out, key);
  g_string_append (writer->out, ": ");
  writer->after_key = TRUE;
}

void
qd_json_writer_string (QdJsonWriter *writer,
                       const char   *value)
{
  before_value (writer);
  qd_json_append_string (writer->out, value != NULL ? value : "");
}

void
qd_json_writer_number (QdJsonWriter *writer,
                       double        value)
{
  char buf[QD_JSON_NUMBER_BUFSIZE];

  before_value (writer);
  g_string_append (writer->out, qd_json_format_number (value, buf));
}

void
qd_json_writer_int (QdJsonWriter *writer,
                    gint64        value)
{
  char buf[24];

  before_value (writer);
  g_string_append (writer->out, format_int64 (buf, value));
}

void
qd_json_writer_uint (QdJsonWriter *writer,
                     guint64       value)
{
  char buf[24];

  before_value (writer);
  g_string_append (writer->out, format_uint64 (buf, value, FALSE));
}

void
qd_json_writer_boolean (QdJsonWriter *writer,
                        gboolean      value)
{
  before_value (writer);
  g_string_append (writer->out, value ? "true" : "false");
}

void
qd_json_writer_point (QdJsonWriter *writer,
                      double        x,
                      double        y)
{
  qd_json_writer_begin_array (writer, TRUE);
  qd_json_writer_number (writer, x);
  qd_json_writer_number (writer, y);
  qd_json_writer_end_array (writer);
}

/* printf writes at least two exponent digits and a '+' ("1e-05",
 * "1e+20"); both are noise in a file meant to be read, and JSON reads
 * "1e-5" and "1e20" as the same numbers. */
static void
trim_exponent (char *buf)
{
  char *e = strchr (buf, 'e');
  char *digits;
  char *src;

  if (e == NULL)
    return;
  digits = e + 1;
  if (*digits == '+')
    memmove (digits, digits + 1, strlen (digits + 1) + 1);
  else if (*digits == '-')
    digits++;
  src = digits;
  while (src[0] == '0' && src[1] != '\0')
    src++;
  if (src != digits)
    memmove (digits, src, strlen (src) + 1);
}

char *
qd_json_format_number (double value,
                       char   buf[QD_JSON_NUMBER_BUFSIZE])
{
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };

  if (!isfinite (value))
    {
      strcpy (buf, "null");
      return buf;
    }
  /* The sign of zero carries nothing in a diagram, and json-c reads "-0"
   * as the integer 0, so writing it would not be stable. */
  if (value == 0.0)
    {
      strcpy (buf, "0");
      return buf;
    }

  /* Whole numbers (most coordinates and sizes) are exact as integers,
   * and printing them so is much cheaper than the search below. */
  if (fabs (value) < 1e15 && value == (double) (gint64) value)
    {
      return format_int64 (buf, (gint64) value);
    }

  /* %.17g always reads back exactly; the shorter forms usually do and
   * keep 0.1 from becoming 0.10000000000000001. */
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (buf, QD_JSON_NUMBER_BUFSIZE, formats[i], value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  trim_exponent (buf);

  return buf;
}

void
qd_json_append_string (GString    *out,
                       const char *value)
{
  char *valid = NULL;
  const char *p;

  if (!g_utf8_validate (value, -1, NULL))
    value = valid = g_utf8_make_valid (value, -1);

  g_string_append_c (out, '"');
  for (p = value; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;
      const char *run = p;

      /* Copy runs of plain characters at once. */
      while (c >= 0x20 && c != '"' && c != '\\')
        c = (guchar) *++p;
      if (p > run)
        g_string_append_len (out, run, p - run);
      if (c == '\0')
        break;

      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\b':
          g_string_append (out, "\\b");
          break;
        case '\f':
          g_string_append (out, "\\f");
          break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
          break;
        }
    }
  g_string_append_c (out, '"');

  g_free (valid);
}
