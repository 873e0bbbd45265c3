/* qd-import-pdm-parse.c: the lines of a .pdm file as a tree of sections
 *
 * Line oriented: each line is trimmed, "//" starts a comment, a section is
 * its keyword, "{", its contents and "}" on lines of their own (or
 * "Keyword {" on one), and a field is "Key = value". Lines end with LF,
 * CRLF or a lone CR. Nothing about PowerDEVS's blocks is known here; every
 * error is "FILE:LINE:COLUMN: message".
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qd-error.h"
#include "qd-import-pdm-private.h"

static const char *const section_names[] = {
  "Coupled", "Atomic", "Inport", "Outport", "Point", "Line", "Graphic",
  "Parameters", "System", NULL
};

static void
field_free (Field *field)
{
  g_free (field->key);
  g_free (field->value);
  g_free (field);
}

void
qd_pdm_section_free (Section *section)
{
  g_free (section->kind);
  g_ptr_array_unref (section->fields);
  g_ptr_array_unref (section->children);
  g_free (section);
}

static Section *
section_new (const char *kind,
             guint       line)
{
  Section *section = g_new0 (Section, 1);

  section->kind = g_strdup (kind);
  section->line = line;
  section->fields = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);
  section->children = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_pdm_section_free);
  return section;
}

static gboolean
syntax_error (GError    **error,
              const char *file,
              guint       line,
              guint       column,
              const char *format,
              ...) G_GNUC_PRINTF (5, 6);

static gboolean
syntax_error (GError    **error,
              const char *file,
              guint       line,
              guint       column,
              const char *format,
              ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX, "%s:%u:%u: %s", file, line,
               column, message);
  return FALSE;
}

/* Handles one trimmed, non-empty line. @pending is the keyword waiting
 * for its '{'. */
static gboolean
parse_line (GPtrArray   *stack,
            char       **pending,
            guint       *pending_line,
            char        *text,
            guint        line,
            guint        column,
            const char  *file,
            GError     **error)
{
  Section *top = g_ptr_array_index (stack, stack->len - 1);
  char *eq;

  if (*pending != NULL)
    {
      Section *section;

      if (strcmp (text, "{") != 0)
        return syntax_error (error, file, line, column,
                             _("expected '{' after '%s' (line %u)"),
                             *pending, *pending_line);
      section = section_new (*pending, *pending_line);
      g_ptr_array_add (top->children, section);
      g_ptr_array_add (stack, section);
      g_clear_pointer (pending, g_free);
      return TRUE;
    }
  if (strcmp (text, "}") == 0)
    {
      if (stack->len == 1)
        return syntax_error (error, file, line, column,
                             _("'}' closes no section"));
      g_ptr_array_remove_index (stack, stack->len - 1);
      return TRUE;
    }
  if (g_str_has_suffix (text, "{"))
    {
      /* "Coupled {" on one line */
      text[strlen (text) - 1] = '\0';
      g_strchomp (text);
      if (!g_strv_contains (section_names, text))
        return syntax_error (error, file, line, column,
                             _("unknown section '%s'"), text);
      *pending = g_strdup (text);
      *pending_line = line;
      return parse_line (stack, pending, pending_line, (char *) "{", line,
                         column, file, error);
    }
  if (g_strv_contains (section_names, text))
    {
      *pending = g_strdup (text);
      *pending_line = line;
      return TRUE;
    }
  eq = strchr (text, '=');
  if (eq == NULL || eq == text)
    return syntax_error (error, file, line, column,
                         _("expected 'Key = value', a section name or a brace, "
                           "not '%s'"), text);
  if (stack->len == 1)
    return syntax_error (error, file, line, column,
                         _("a field outside any section"));
  {
    Field *field = g_new0 (Field, 1);

    field->key = g_strchomp (g_strndup (text, eq - text));
    field->value = g_strstrip (g_strdup (eq + 1));
    field->line = line;
    g_ptr_array_add (top->fields, field);
  }
  return TRUE;
}

/* The file as a tree under a nameless top section. Lines end with LF,
 * CRLF or a lone CR. */
Section *
qd_pdm_parse (const char  *data,
       gsize        length,
       const char  *file,
       GError     **error)
{
  g_autoptr(Section) top = section_new ("", 0);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  g_autofree char *pending = NULL;
  guint pending_line = 0, line = 0;
  const char *p = data, *end = data + length;

  if (memchr (data, '\0', length) != NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                   _("%s: not a text file (it holds a NUL byte)"), file);
      return NULL;
    }
  g_ptr_array_add (stack, top);
  while (p < end)
    {
      const char *eol = p, *comment;
      g_autofree char *text = NULL;
      char *trimmed;
      guint column;

      while (eol < end && *eol != '\n' && *eol != '\r')
        eol++;
      line++;
      text = g_strndup (p, eol - p);
      p = eol;
      /* CRLF is one line end; a lone CR or LF is one too. */
      if (p < end && *p == '\r')
        {
          p++;
          if (p < end && *p == '\n')
            p++;
        }
      else if (p < end)
        p++;
      comment = strstr (text, "//");
      if (comment != NULL)
        text[comment - text] = '\0';
      trimmed = text;
      while (*trimmed == ' ' || *trimmed == '\t')
        trimmed++;
      g_strchomp (trimmed);
      if (*trimmed == '\0')
        continue;
      if (!g_utf8_validate (trimmed, -1, NULL))
        {
          syntax_error (error, file, line, 1, _("the line is not UTF-8 text"));
          return NULL;
        }
      column = (guint) (trimmed - text) + 1;
      if (!parse_line (stack, &pending, &pending_line, trimmed, line, column,
                       file, error))
        return NULL;
    }
  if (pending != NULL)
    {
      syntax_error (error, file, pending_line, 1,
                    _("'%s' is not followed by '{'"), pending);
      return NULL;
    }
  if (stack->len > 1)
    {
      Section *open = g_ptr_array_index (stack, stack->len - 1);

      syntax_error (error, file, line + 1, 1,
                    _("the file ends inside '%s' opened at line %u; a '}' is "
                      "missing"), open->kind, open->line);
      return NULL;
    }
  return g_steal_pointer (&top);
}

const char *
qd_pdm_get_field (const Section *section,
           const char    *key)
{
  for (guint i = 0; i < section->fields->len; i++)
    {
      const Field *field = g_ptr_array_index (section->fields, i);

      if (strcmp (field->key, key) == 0)
        return field->value;
    }
  return NULL;
}

Section *
qd_pdm_get_child (const Section *section,
           const char    *kind)
{
  for (guint i = 0; i < section->children->len; i++)
    {
      Section *child = g_ptr_array_index (section->children, i);

      if (strcmp (child->kind, kind) == 0)
        return child;
    }
  return NULL;
}

/* The parts of "a ; b ; c", trimmed; "\;" stands for ';'. */
char **
qd_pdm_split (const char *value)
{
  GPtrArray *parts = g_ptr_array_new ();
  GString *part = g_string_new (NULL);

  for (const char *p = value; ; p++)
    {
      if (*p == '\\' && p[1] == ';')
        {
          g_string_append_c (part, ';');
          p++;
        }
      else if (*p == ';' || *p == '\0')
        {
          g_ptr_array_add (parts, g_strstrip (g_strdup (part->str)));
          g_string_truncate (part, 0);
          if (*p == '\0')
            break;
        }
      else
        g_string_append_c (part, *p);
    }
  g_string_free (part, TRUE);
  g_ptr_array_add (parts, NULL);
  return (char **) g_ptr_array_free (parts, FALSE);
}

gboolean
qd_pdm_parse_int (const char *text,
           gint64     *value)
{
  char *end = NULL;

  errno = 0;
  *value = g_ascii_strtoll (text, &end, 10);
  return errno == 0 && end != text && *end == '\0';
}

/* "x ; y" as two numbers. */
gboolean
qd_pdm_parse_pair (const char *value,
            double     *a,
            double     *b)
{
  g_auto(GStrv) parts = NULL;
  char *end;

  if (value == NULL)
    return FALSE;
  parts = qd_pdm_split (value);
  if (g_strv_length (parts) < 1)
    return FALSE;
  *a = g_ascii_strtod (parts[0], &end);
  if (end == parts[0])
    return FALSE;
  *b = *a;
  if (parts[1] != NULL)
    {
      *b = g_ascii_strtod (parts[1], &end);
      if (end == parts[1])
        return FALSE;
    }
  return isfinite (*a) && isfinite (*b);
}
