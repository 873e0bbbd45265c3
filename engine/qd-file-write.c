/* qd-file-write.c: writing .qdevs files
 *
 * Saving goes through the canonical writer (qd-json-writer.c), so an
 * unchanged document saves to the same bytes: keys in a fixed order,
 * optional sections (breakpoints, notes, a mask) only when there are
 * some, so that a diagram without them is written as before them. The
 * file is replaced atomically.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <string.h>

#include "qd-debug.h"
#include "qd-file.h"
#include "qd-json-writer.h"
#include "qd-mask.h"
#include "qd-notes.h"
#include "qd-registry.h"

/* Writing */

/* Only when there are some: a diagram without breakpoints is written as
 * before them. */
static void
write_breakpoints (QdJsonWriter *w,
                   GPtrArray    *breakpoints)
{
  if (breakpoints->len == 0)
    return;
  qd_json_writer_key (w, "breakpoints");
  qd_json_writer_begin_array (w, FALSE);
  for (guint k = 0; k < breakpoints->len; k++)
    {
      const QdBreakpoint *bp = g_ptr_array_index (breakpoints, k);

      qd_json_writer_begin_object (w, TRUE);
      qd_json_writer_key (w, "kind");
      qd_json_writer_string (w, qd_break_kind_to_string (bp->kind));
      if (bp->block != NULL)
        {
          qd_json_writer_key (w, "block");
          qd_json_writer_string (w, bp->block);
        }
      if (bp->kind == QD_BREAK_CROSSING)
        {
          qd_json_writer_key (w, "port");
          qd_json_writer_uint (w, bp->port);
        }
      if (bp->kind == QD_BREAK_TIME || bp->kind == QD_BREAK_CROSSING)
        {
          qd_json_writer_key (w, "value");
          qd_json_writer_number (w, bp->value);
        }
      qd_json_writer_end_object (w);
    }
  qd_json_writer_end_array (w);
}

static void
write_block (QdJsonWriter  *w,
             const QdBlock *block);

/* Only when there are some, as for breakpoints. */
static void
write_notes (QdJsonWriter *w,
             GPtrArray    *notes)
{
  if (notes->len == 0)
    return;
  qd_json_writer_key (w, "notes");
  qd_json_writer_begin_array (w, FALSE);
  for (guint k = 0; k < notes->len; k++)
    {
      const QdNote *note = g_ptr_array_index (notes, k);

      qd_json_writer_begin_object (w, TRUE);
      qd_json_writer_key (w, "position");
      qd_json_writer_point (w, note->x, note->y);
      qd_json_writer_key (w, "text");
      qd_json_writer_string (w, note->text);
      qd_json_writer_end_object (w);
    }
  qd_json_writer_end_array (w);
}

/* Only for a masked subsystem: other blocks are written as before. */
static void
write_mask (QdJsonWriter *w,
            const QdMask *mask)
{
  qd_json_writer_key (w, "mask");
  qd_json_writer_begin_object (w, FALSE);
  if (mask->icon != NULL)
    {
      qd_json_writer_key (w, "icon");
      qd_json_writer_string (w, mask->icon);
    }
  qd_json_writer_key (w, "params");
  qd_json_writer_begin_array (w, FALSE);
  for (guint i = 0; i < mask->params->len; i++)
    {
      const QdMaskParam *param = g_ptr_array_index (mask->params, i);

      qd_json_writer_begin_object (w, TRUE);
      qd_json_writer_key (w, "name");
      qd_json_writer_string (w, param->name);
      qd_json_writer_key (w, "default");
      qd_json_writer_string (w, param->default_value);
      if (param->description[0] != '\0')
        {
          qd_json_writer_key (w, "description");
          qd_json_writer_string (w, param->description);
        }
      if (param->value != NULL)
        {
          qd_json_writer_key (w, "value");
          qd_json_writer_string (w, param->value);
        }
      qd_json_writer_end_object (w);
    }
  qd_json_writer_end_array (w);
  qd_json_writer_end_object (w);
}

static void
write_system (QdJsonWriter   *w,
              const QdSystem *system)
{
  qd_json_writer_key (w, "blocks");
  qd_json_writer_begin_array (w, FALSE);
  for (guint i = 0; i < system->blocks->len; i++)
    write_block (w, g_ptr_array_index (system->blocks, i));
  qd_json_writer_end_array (w);

  qd_json_writer_key (w, "links");
  qd_json_writer_begin_array (w, FALSE);
  for (guint i = 0; i < system->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (system->links, i);

      qd_json_writer_begin_object (w, FALSE);
      qd_json_writer_key (w, "id");
      qd_json_writer_string (w, link->id);

      qd_json_writer_key (w, "from");
      qd_json_writer_begin_object (w, TRUE);
      qd_json_writer_key (w, "block");
      qd_json_writer_string (w, link->src.block);
      qd_json_writer_key (w, "port");
      qd_json_writer_uint (w, link->src.port);
      qd_json_writer_end_object (w);

      /* One target per line: adding a branch adds a line to the diff. */
      qd_json_writer_key (w, "to");
      qd_json_writer_begin_array (w, FALSE);
      for (guint j = 0; j < link->n_targets; j++)
        {
          const QdLinkTarget *target = link->targets[j];

          qd_json_writer_begin_object (w, TRUE);
          qd_json_writer_key (w, "block");
          qd_json_writer_string (w, target->dst.block);
          qd_json_writer_key (w, "port");
          qd_json_writer_uint (w, target->dst.port);
          if (target->points != NULL && target->points->len > 0)
            {
              qd_json_writer_key (w, "points");
              qd_json_writer_begin_array (w, TRUE);
              for (guint k = 0; k < target->points->len; k++)
                {
                  const QdPoint *p = &g_array_index (target->points, QdPoint, k);

                  qd_json_writer_point (w, p->x, p->y);
                }
              qd_json_writer_end_array (w);
            }
          qd_json_writer_end_object (w);
        }
      qd_json_writer_end_array (w);
      qd_json_writer_end_object (w);
    }
  qd_json_writer_end_array (w);
}

static void
write_block (QdJsonWriter  *w,
             const QdBlock *block)
{
  const QdBlockType *type = qd_block_get_type_info (block);

  qd_json_writer_begin_object (w, FALSE);
  qd_json_writer_key (w, "id");
  qd_json_writer_string (w, block->id);
  qd_json_writer_key (w, "type");
  qd_json_writer_string (w, block->type);
  qd_json_writer_key (w, "name");
  qd_json_writer_string (w, block->name);
  qd_json_writer_key (w, "position");
  qd_json_writer_point (w, block->x, block->y);
  qd_json_writer_key (w, "size");
  qd_json_writer_point (w, block->width, block->height);
  if (block->rotation != 0)
    {
      qd_json_writer_key (w, "rotation");
      qd_json_writer_int (w, block->rotation);
    }
  if (block->flip)
    {
      qd_json_writer_key (w, "flip");
      qd_json_writer_boolean (w, TRUE);
    }

  if (block->params->len > 0)
    {
      qd_json_writer_key (w, "params");
      qd_json_writer_begin_object (w, FALSE);
      /* Schema order, so that the file does not depend on the order in
       * which parameters were edited. */
      for (guint i = 0; type != NULL && i < type->n_params; i++)
        {
          const char *value = qd_block_get_param (block, type->params[i].name);

          if (value != NULL)
            {
              qd_json_writer_key (w, type->params[i].name);
              qd_json_writer_string (w, value);
            }
        }
      /* A loaded document has no others, but never drop data silently. */
      for (guint i = 0; i < block->params->len; i++)
        {
          const QdParam *param = &g_array_index (block->params, QdParam, i);

          if (type == NULL || qd_block_type_find_param (type, param->name) < 0)
            {
              qd_json_writer_key (w, param->name);
              qd_json_writer_string (w, param->value);
            }
        }
      qd_json_writer_end_object (w);
    }

  if (block->inner != NULL && block->inner->mask != NULL)
    write_mask (w, block->inner->mask);
  if (block->inner != NULL)
    write_system (w, block->inner);

  qd_json_writer_end_object (w);
}

char *
qd_document_to_data (QdDocument *self,
                     gsize      *length)
{
  QdJsonWriter *w;
  const QdSettings *settings;
  GPtrArray *variables;
  const char *text;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  w = qd_json_writer_new ();
  qd_json_writer_begin_object (w, FALSE);
  qd_json_writer_key (w, "format");
  qd_json_writer_string (w, QD_FORMAT_NAME);
  qd_json_writer_key (w, "version");
  qd_json_writer_int (w, QD_FORMAT_VERSION);

  /* Every top-level key is always written, empty or not, so that a
   * reader of the file sees the whole shape of the format. */
  text = qd_document_get_title (self);
  qd_json_writer_key (w, "title");
  qd_json_writer_string (w, text != NULL ? text : "");
  text = qd_document_get_description (self);
  qd_json_writer_key (w, "description");
  qd_json_writer_string (w, text != NULL ? text : "");

  settings = qd_document_get_settings (self);
  qd_json_writer_key (w, "simulation");
  qd_json_writer_begin_object (w, FALSE);
  qd_json_writer_key (w, "start");
  qd_json_writer_number (w, settings->start_time);
  qd_json_writer_key (w, "final");
  qd_json_writer_number (w, settings->final_time);
  qd_json_writer_key (w, "method");
  qd_json_writer_string (w, settings->method);
  qd_json_writer_key (w, "dqmin");
  qd_json_writer_number (w, settings->dqmin);
  qd_json_writer_key (w, "dqrel");
  qd_json_writer_number (w, settings->dqrel);
  qd_json_writer_key (w, "illegitimacy_limit");
  qd_json_writer_uint (w, settings->illegitimacy_limit);
  /* Only under a classic solver: QSS files stay as they were. */
  if (settings->solver != NULL && strcmp (settings->solver, "qss") != 0)
    {
      qd_json_writer_key (w, "solver");
      qd_json_writer_string (w, settings->solver);
      qd_json_writer_key (w, "rtol");
      qd_json_writer_number (w, settings->rtol);
      qd_json_writer_key (w, "atol");
      qd_json_writer_number (w, settings->atol);
      qd_json_writer_key (w, "max_step");
      qd_json_writer_number (w, settings->max_step);
      qd_json_writer_key (w, "h");
      qd_json_writer_number (w, settings->h);
    }
  qd_json_writer_end_object (w);

  variables = qd_document_get_variables (self);
  qd_json_writer_key (w, "variables");
  qd_json_writer_begin_object (w, FALSE);
  for (guint i = 0; variables != NULL && i < variables->len; i++)
    {
      const QdVariable *var = g_ptr_array_index (variables, i);

      qd_json_writer_key (w, var->name);
      qd_json_writer_string (w, var->value);
    }
  qd_json_writer_end_object (w);

  write_system (w, qd_document_get_root (self));
  write_breakpoints (w, qd_document_get_breakpoints (self));
  write_notes (w, qd_document_get_notes (self));
  qd_json_writer_end_object (w);

  return qd_json_writer_free_to_data (w, length);
}

/* GLib's message names the temporary file ("Failed to create file
 * “x.qdevs.ABC123”: No such file or directory"), which means nothing to
 * the user; the reason is the part after the last ": ". */
static const char *
save_reason (const GError *error)
{
  const char *colon = g_strrstr (error->message, ": ");

  if (colon != NULL && colon[2] != '\0')
    return colon + 2;
  return error->message;
}

gboolean
qd_document_save (QdDocument  *self,
                  const char  *path,
                  GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *display = NULL;
  g_autofree char *data = NULL;
  g_autofree char *real_path = NULL;
  const char *target;
  GStatBuf st;
  int mode = 0644;
  gsize length;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  display = g_filename_display_name (path);
  data = qd_document_to_data (self, &length);

  /* The rename would replace a symbolic link by a plain file; write
   * through it to the file it points at instead, as editors do. */
  real_path = realpath (path, NULL);
  target = real_path != NULL ? real_path : path;

  /* The new file replaces the old one by a rename, so it would take the
   * default mode; keep the permissions the user gave the old file. */
  if (g_stat (target, &st) == 0 && S_ISREG (st.st_mode))
    mode = st.st_mode & 0777;

  if (!g_file_set_contents_full (target, data, (gssize) length,
                                 G_FILE_SET_CONTENTS_CONSISTENT, mode,
                                 &local_error))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO, _("%s: cannot save: %s"),
                   display, save_reason (local_error));
      return FALSE;
    }

  qd_document_set_saved (self);
  return TRUE;
}
