/* qd-window-palette.c: the main window's palette of blocks
 *
 * One row per block type of the registry, under a header per category;
 * a row drags onto the canvas or, activated, adds its block. The search
 * filters the rows, Enter adds the first block found.
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-window-private.h"

static void
palette_header_func (GtkListBoxRow *row,
                     GtkListBoxRow *before,
                     gpointer       user_data)
{
  const QdBlockType *type = g_object_get_data (G_OBJECT (row), "qd-block-type");
  const QdBlockType *prev = NULL;
  GtkWidget *header;

  if (before != NULL)
    prev = g_object_get_data (G_OBJECT (before), "qd-block-type");

  /* The registry sorts by category, so a header goes where it changes. */
  if (prev != NULL && g_strcmp0 (prev->category, type->category) == 0)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }

  header = gtk_label_new (_(type->category));
  gtk_label_set_xalign (GTK_LABEL (header), 0.0f);
  gtk_widget_add_css_class (header, "qd-category");
  gtk_list_box_row_set_header (row, header);
}

static GdkContentProvider *
on_palette_drag_prepare (GtkDragSource *source,
                         double         x,
                         double         y,
                         GtkWidget     *row)
{
  const QdBlockType *type = g_object_get_data (G_OBJECT (row), "qd-block-type");

  return gdk_content_provider_new_typed (G_TYPE_STRING, type->id);
}

static void
on_palette_drag_begin (GtkDragSource *source,
                       GdkDrag       *drag,
                       GtkWidget     *row)
{
  /* The row itself follows the pointer: it shows what will be dropped. */
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (row);

  gtk_drag_source_set_icon (source, paintable, 12, 12);
}

static GtkWidget *
create_palette_row (const QdBlockType *type)
{
  GtkDragSource *source;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *glyph = gtk_label_new (type->glyph != NULL ? type->glyph : "");
  GtkWidget *name = gtk_label_new (_(type->name));

  gtk_widget_add_css_class (glyph, "qd-glyph");
  gtk_widget_set_valign (glyph, GTK_ALIGN_CENTER);
  gtk_label_set_width_chars (GTK_LABEL (glyph), 3);
  gtk_label_set_xalign (GTK_LABEL (name), 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_box_append (GTK_BOX (box), glyph);
  gtk_box_append (GTK_BOX (box), name);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  if (type->doc != NULL && type->doc[0] != '\0')
    gtk_widget_set_tooltip_text (row, _(type->doc));
  g_object_set_data (G_OBJECT (row), "qd-block-type", (gpointer) type);
  /* For the end-to-end tests (qd-test-geometry.c). */
  {
    g_autofree char *widget_name = g_strconcat ("palette:", type->id, NULL);

    gtk_widget_set_name (row, widget_name);
  }

  /* Rows drag onto the canvas, carrying the block type id. */
  source = gtk_drag_source_new ();
  gtk_drag_source_set_actions (source, GDK_ACTION_COPY);
  g_signal_connect (source, "prepare", G_CALLBACK (on_palette_drag_prepare), row);
  g_signal_connect (source, "drag-begin", G_CALLBACK (on_palette_drag_begin), row);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (source));

  return row;
}

void
qd_window_populate_palette (QdWindow *self)
{
  const QdBlockType *const *types;
  guint n_types = 0;

  types = qd_registry_list (&n_types);
  for (guint i = 0; i < n_types; i++)
    /* A placeholder only comes from an imported model. */
    if ((types[i]->flags & QD_BLOCK_PLACEHOLDER) == 0)
      gtk_list_box_append (self->palette_list, create_palette_row (types[i]));
  gtk_list_box_set_header_func (self->palette_list, palette_header_func,
                                NULL, NULL);
  /* A single click only focuses a row (it may start a drag); Enter or a
   * double click inserts the block. */
  gtk_list_box_set_activate_on_single_click (self->palette_list, FALSE);
}

void
qd_window_on_palette_row_activated (GtkListBox    *list,
                                    GtkListBoxRow *row,
                                    QdWindow      *self)
{
  const QdBlockType *type = g_object_get_data (G_OBJECT (row), "qd-block-type");

  if (type == NULL)
    return;
  if (self->document == NULL)
    {
      qd_window_show_message (self, GTK_MESSAGE_INFO,
                              _("Open a diagram first, then add blocks to it."));
      return;
    }
  qd_canvas_insert_block (self->canvas, type->id);
}

/* Palette search: a row stays when its name (as shown), type id or
 * category contains the text, ignoring case, so "int" finds Integrator
 * and "sink" a whole category. */
gboolean
qd_window_palette_filter_func (GtkListBoxRow *row,
                               gpointer       user_data)
{
  QdWindow *self = user_data;
  const QdBlockType *type = g_object_get_data (G_OBJECT (row), "qd-block-type");
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->palette_search));
  g_autofree char *needle = NULL;
  const char *haystacks[3];

  if (text == NULL || text[0] == '\0' || type == NULL)
    return TRUE;
  needle = g_utf8_casefold (text, -1);
  haystacks[0] = _(type->name);
  haystacks[1] = type->id;
  haystacks[2] = _(type->category);
  for (guint i = 0; i < G_N_ELEMENTS (haystacks); i++)
    {
      g_autofree char *folded = g_utf8_casefold (haystacks[i], -1);

      if (strstr (folded, needle) != NULL)
        return TRUE;
    }
  return FALSE;
}

void
qd_window_on_palette_search_changed (QdWindow *self)
{
  gtk_list_box_invalidate_filter (self->palette_list);
  gtk_list_box_invalidate_headers (self->palette_list);
}

/* Enter in the search adds the first block found, as in a launcher. */
void
qd_window_on_palette_search_activate (QdWindow *self)
{
  for (int i = 0;; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->palette_list, i);

      if (row == NULL)
        return;
      if (gtk_widget_get_child_visible (GTK_WIDGET (row)) &&
          qd_window_palette_filter_func (row, self))
        {
          g_signal_emit_by_name (self->palette_list, "row-activated", row);
          return;
        }
    }
}

void
qd_window_on_palette_search_stop (QdWindow *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->palette_search), "");
}
