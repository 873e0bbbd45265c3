/* qd-inspector-form.c: the inspector's form and its fields' events
 *
 * The form is generated into one GtkGrid: for a block, from its type's
 * parameter schema (a masked subsystem's own parameters, a subsystem's
 * ports); for the model, from the document's settings, the solver's
 * settings and the model variables. Each field's editor (an entry, a
 * drop-down, a switch, a script editor) reports its events here; the
 * checks and the applying of a field's text are in qd-inspector-check.c.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-inspector-private.h"
#include "qd-inspector-vector.h"
#include "qd-mask.h"
#include "qd-script-editor.h"

static void
field_free (gpointer data)
{
  Field *field = data;

  g_free (field->key);
  g_free (field->arg);
  g_clear_pointer (&field->values, g_ptr_array_unref);
  g_free (field);
}


/* Events */

static void
on_entry_changed (GtkEditable *editable,
                  Field       *field)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (field->dead || field->self->refreshing)
    return;
  field->dirty = TRUE;
  text = qd_inspector_field_get_text (field);
  /* Checked as typed; applied only on Enter or focus-out. */
  if (qd_inspector_field_check (field, text, &error))
    qd_inspector_field_show_error (field, NULL);
  else
    qd_inspector_field_show_error (field, error->message);
}

static void
on_entry_activate (GtkEntry *entry,
                   Field    *field)
{
  qd_inspector_field_apply (field);
}

/* Tab, Up or Down out of a field: GTK is in the middle of moving the
 * focus, to a widget of this form, when the field applies. A change that
 * reshapes the form (a renamed variable) must not destroy that widget
 * under GTK's feet: on_document_changed() rebuilds later. */
static void
on_focus_leave (GtkEventControllerFocus *controller,
                Field                   *field)
{
  QdInspector *self = field->self;

  if (!field->dirty || field->dead)
    return;
  self->focus_moving = TRUE;
  qd_inspector_field_apply (field);
  self->focus_moving = FALSE;
}

/* Escape takes back what was typed. */
static gboolean
on_entry_key_pressed (GtkEventControllerKey *controller,
                      guint                  keyval,
                      guint                  keycode,
                      GdkModifierType        state,
                      Field                 *field)
{
  g_autofree char *text = NULL;

  if (keyval != GDK_KEY_Escape || field->dead || !field->dirty)
    return FALSE;
  text = qd_inspector_field_document_text (field);
  field->self->refreshing = TRUE;
  qd_inspector_field_set_text (field, text);
  field->self->refreshing = FALSE;
  field->dirty = FALSE;
  qd_inspector_field_show_error (field, NULL);
  return TRUE;
}

static void
on_dropdown_selected (GObject    *object,
                      GParamSpec *pspec,
                      Field      *field)
{
  qd_inspector_field_apply (field);
}

static void
on_switch_active (GObject    *object,
                  GParamSpec *pspec,
                  Field      *field)
{
  qd_inspector_field_apply (field);
}

static void
on_text_changed (GtkTextBuffer *buffer,
                 Field         *field)
{
  if (!field->self->refreshing)
    field->dirty = TRUE;
}

/* Building the form */

void
qd_inspector_form_clear (QdInspector *self)
{
  GtkWidget *child;

  for (guint i = 0; i < self->order->len; i++)
    ((Field *) g_ptr_array_index (self->order, i))->dead = TRUE;
  g_ptr_array_set_size (self->order, 0);
  g_hash_table_remove_all (self->fields);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->form))))
    gtk_grid_remove (self->form, child);
  self->row = 0;
}

static void
add_section (QdInspector *self,
             const char  *title)
{
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_widget_add_css_class (label, "qd-inspector-section");
  gtk_grid_attach (self->form, label, 0, self->row++, 3, 1);
}

static GtkWidget *
new_error_label (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 30);
  gtk_widget_add_css_class (label, "qd-inspector-error");
  gtk_widget_add_css_class (label, "error");
  gtk_widget_set_visible (label, FALSE);
  return label;
}

static Field *
field_new (QdInspector *self,
           const char  *key,
           FieldRole    role,
           WidgetKind   kind,
           const char  *arg)
{
  Field *field = g_new0 (Field, 1);

  field->self = self;
  field->key = g_strdup (key);
  field->role = role;
  field->kind = kind;
  field->arg = g_strdup (arg);
  return field;
}

/* A Lua script (QD_PARAM_SCRIPT): edited in a QdScriptEditor, a
 * GtkTextView, so that it reads and writes as a text field. */
gboolean
qd_inspector_field_is_script (const Field *field)
{
  return field->spec != NULL && field->spec->kind == QD_PARAM_STRING
         && (field->spec->flags & QD_PARAM_SCRIPT);
}

/* The script's own check (syntax, header) in the field's error line. */
static void
on_script_error (QdScriptEditor *editor,
                 GParamSpec     *pspec,
                 Field          *field)
{
  if (!field->dead)
    qd_inspector_field_show_error (field, qd_script_editor_get_error (editor, NULL));
}

/* Creates the editing widget of @field (the values of a drop-down must be
 * set already) and connects it. */
static void
field_create_editor (Field       *field,
                     const char  *const *labels)
{
  GtkEventController *focus;

  switch (field->kind)
    {
    case WIDGET_ENTRY:
      field->editor = gtk_entry_new ();
      gtk_editable_set_width_chars (GTK_EDITABLE (field->editor), 8);
      g_signal_connect (field->editor, "changed", G_CALLBACK (on_entry_changed), field);
      g_signal_connect (field->editor, "activate", G_CALLBACK (on_entry_activate), field);
      {
        GtkEventController *keys = gtk_event_controller_key_new ();

        g_signal_connect (keys, "key-pressed", G_CALLBACK (on_entry_key_pressed), field);
        gtk_widget_add_controller (field->editor, keys);
      }
      break;
    case WIDGET_DROPDOWN:
      field->editor = gtk_drop_down_new_from_strings (labels);
      g_signal_connect (field->editor, "notify::selected",
                        G_CALLBACK (on_dropdown_selected), field);
      break;
    case WIDGET_SWITCH:
      field->editor = gtk_switch_new ();
      gtk_widget_set_halign (field->editor, GTK_ALIGN_START);
      g_signal_connect (field->editor, "notify::active",
                        G_CALLBACK (on_switch_active), field);
      break;
    case WIDGET_TEXT:
      if (qd_inspector_field_is_script (field))
        {
          field->editor = qd_script_editor_new ();
          g_signal_connect_swapped (field->editor, "commit",
                                    G_CALLBACK (qd_inspector_field_apply), field);
          g_signal_connect (field->editor, "notify::error",
                            G_CALLBACK (on_script_error), field);
        }
      else
        {
          field->editor = gtk_text_view_new ();
          gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (field->editor), GTK_WRAP_WORD_CHAR);
          gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (field->editor), FALSE);
        }
      g_signal_connect (gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->editor)),
                        "changed", G_CALLBACK (on_text_changed), field);
      break;
    default:
      g_assert_not_reached ();
    }
  gtk_widget_set_hexpand (field->editor, TRUE);
  if (field->kind != WIDGET_TEXT)
    gtk_widget_set_valign (field->editor, GTK_ALIGN_CENTER);
  if (field->kind != WIDGET_SWITCH)
    gtk_widget_set_size_request (field->editor, 80, -1);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "leave", G_CALLBACK (on_focus_leave), field);
  gtk_widget_add_controller (field->editor, focus);

  /* The field's data lives as long as its widget, which may outlive the
   * form by the length of a signal emission. */
  g_object_set_data_full (G_OBJECT (field->editor), "qd-field", field, field_free);
  field->error_label = new_error_label ();
  field->container = field->editor;
  if (qd_inspector_field_is_script (field))
    field->container = qd_script_editor_wrap (QD_SCRIPT_EDITOR (field->editor));
  else if (field->kind == WIDGET_TEXT)
    {
      /* A long description scrolls instead of pushing the form away. */
      field->container = gtk_scrolled_window_new ();
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (field->container),
                                      GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
      gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (field->container), 60);
      gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (field->container), 140);
      gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (field->container), TRUE);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (field->container), field->editor);
      gtk_widget_add_css_class (field->container, "qd-inspector-text");
    }
}

static void
register_field (QdInspector *self,
                Field       *field)
{
  g_autofree char *widget_name = g_strconcat ("field:", field->key, NULL);

  /* For the end-to-end tests (qd-test-geometry.c). */
  gtk_widget_set_name (field->editor, widget_name);
  g_hash_table_replace (self->fields, field->key, field);
  g_ptr_array_add (self->order, field);
}

/* Puts a labelled field on a row of its own, with its unit after it and
 * its error below it. */
static void
attach_field (QdInspector *self,
              Field       *field,
              const char  *label_text,
              const char  *unit,
              const char  *doc)
{
  GtkWidget *label = gtk_label_new (label_text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  /* The panel is narrow: long labels wrap rather than lose their end. */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
  gtk_label_set_width_chars (GTK_LABEL (label), 9);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 12);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), field->editor);
  gtk_widget_set_valign (label, field->kind == WIDGET_TEXT ? GTK_ALIGN_START
                                                           : GTK_ALIGN_CENTER);
  if (doc != NULL && doc[0] != '\0')
    {
      gtk_widget_set_tooltip_text (label, doc);
      gtk_widget_set_tooltip_text (field->editor, doc);
    }
  gtk_grid_attach (self->form, label, 0, self->row, 1, 1);
  if (unit != NULL && unit[0] != '\0')
    {
      GtkWidget *unit_label = gtk_label_new (unit);

      gtk_widget_add_css_class (unit_label, "dim-label");
      gtk_grid_attach (self->form, field->container, 1, self->row, 1, 1);
      gtk_grid_attach (self->form, unit_label, 2, self->row, 1, 1);
    }
  else
    gtk_grid_attach (self->form, field->container, 1, self->row, 2, 1);
  self->row++;
  gtk_grid_attach (self->form, field->error_label, 1, self->row++, 2, 1);
  register_field (self, field);
}

/* What an inherited parameter falls back to, for its placeholder. */
static char *
model_default_text (QdInspector *self,
                    const char  *name)
{
  const QdSettings *settings = qd_document_get_settings (self->document);
  g_autofree char *value = NULL;

  if (strcmp (name, "method") == 0)
    value = g_strdup (settings->method);
  else if (strcmp (name, "dqmin") == 0)
    value = qd_inspector_format_double (settings->dqmin);
  else if (strcmp (name, "dqrel") == 0)
    value = qd_inspector_format_double (settings->dqrel);
  else
    return NULL;
  /* TRANSLATORS: a parameter left empty takes the model's setting, e.g.
   * "QSS2 (model default)" */
  return g_strdup_printf (_("%s (model default)"), value);
}

void
qd_inspector_update_placeholder (Field *field)
{
  g_autofree char *text = NULL;

  if (field->role != ROLE_PARAM)
    return;
  if (field->spec->flags & QD_PARAM_INHERIT)
    text = model_default_text (field->self, field->arg);
  else
    text = g_strdup (field->spec->default_value);

  if (field->kind == WIDGET_ENTRY)
    gtk_entry_set_placeholder_text (GTK_ENTRY (field->editor), text);
  else if (field->kind == WIDGET_DROPDOWN && field->inherit && text != NULL)
    {
      GtkStringList *list = GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (field->editor)));
      const char *first = gtk_string_list_get_string (list, 0);
      const char *items[] = { text, NULL };
      guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (field->editor));

      if (g_strcmp0 (first, text) == 0)
        return;
      /* Replacing the item would move the selection: keep it. */
      field->self->refreshing = TRUE;
      gtk_string_list_splice (list, 0, 1, items);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (field->editor), selected);
      field->self->refreshing = FALSE;
    }
}

static void
build_param_field (QdInspector       *self,
                   const QdParamSpec *spec)
{
  WidgetKind kind;
  Field *field;
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  switch (spec->kind)
    {
    case QD_PARAM_BOOLEAN:
      kind = WIDGET_SWITCH;
      break;
    case QD_PARAM_CHOICE:
      kind = spec->choices != NULL ? WIDGET_DROPDOWN : WIDGET_ENTRY;
      break;
    case QD_PARAM_STRING:
      kind = spec->flags & QD_PARAM_SCRIPT ? WIDGET_TEXT : WIDGET_ENTRY;
      break;
    case QD_PARAM_NUMBER:
    case QD_PARAM_INTEGER:
    case QD_PARAM_VECTOR:
    case QD_PARAM_FUNCTION:
    default:
      kind = WIDGET_ENTRY;
      break;
    }

  field = field_new (self, spec->name, ROLE_PARAM, kind, spec->name);
  field->spec = spec;
  if (kind == WIDGET_DROPDOWN)
    {
      field->values = g_ptr_array_new_with_free_func (g_free);
      if (spec->flags & QD_PARAM_INHERIT)
        {
          /* First the way back to the model's setting. */
          field->inherit = TRUE;
          g_ptr_array_add (field->values, g_strdup (""));
          g_ptr_array_add (labels, model_default_text (self, spec->name));
        }
      for (guint i = 0; spec->choices[i] != NULL; i++)
        {
          g_ptr_array_add (field->values, g_strdup (spec->choices[i]));
          g_ptr_array_add (labels, g_strdup (spec->choices[i]));
        }
    }
  g_ptr_array_add (labels, NULL);
  field_create_editor (field, (const char *const *) labels->pdata);
  attach_field (self, field, _(spec->label), spec->unit,
                spec->doc != NULL ? _(spec->doc) : NULL);
  if (qd_inspector_vector_applies (qd_inspector_current_block (self), spec))
    {
      field->summary = qd_inspector_vector_summary_new ();
      gtk_grid_attach (self->form, field->summary, 1, self->row++, 2, 1);
    }
  qd_inspector_update_placeholder (field);
  if (qd_inspector_field_is_script (field) && qd_inspector_current_block (self) != NULL)
    {
      guint n_in = 0, n_out = 0;

      if (qd_block_count_ports (qd_inspector_current_block (self), &n_in, &n_out, NULL))
        qd_script_editor_set_ports (QD_SCRIPT_EDITOR (field->editor), n_in, n_out);
    }
}

typedef struct
{
  double       number;
  guint        order;
  const char  *text;
  const char  *name;
} PortEntry;

static int
compare_ports (gconstpointer a,
               gconstpointer b)
{
  const PortEntry *pa = a, *pb = b;

  if (pa->number != pb->number)
    return pa->number < pb->number ? -1 : 1;
  return pa->order < pb->order ? -1 : pa->order > pb->order;
}

/* The ports of subsystem @block as its Inport (or Outport) blocks make
 * them, in port order: "1 In 1, 2 In 2", or NULL when it has none. Sets
 * @duplicate to a port number two of them share (a mistake: the
 * subsystem would show a port that leads nowhere), or NULL. */
char *
qd_inspector_dup_port_summary (const QdBlock  *block,
                               const char     *port_type,
                               char          **duplicate)
{
  g_autoptr(GArray) ports = g_array_new (FALSE, FALSE, sizeof (PortEntry));
  GString *text;

  *duplicate = NULL;
  for (guint i = 0; i < block->inner->blocks->len; i++)
    {
      const QdBlock *inner = g_ptr_array_index (block->inner->blocks, i);
      PortEntry entry = { 0, i, qd_block_get_param (inner, "port"), inner->name };

      if (g_strcmp0 (inner->type, port_type) != 0)
        continue;
      if (entry.text == NULL || entry.text[0] == '\0')
        entry.text = "1";
      entry.number = g_ascii_strtod (entry.text, NULL);
      g_array_append_val (ports, entry);
    }
  if (ports->len == 0)
    return NULL;
  g_array_sort (ports, compare_ports);
  text = g_string_new (NULL);
  for (guint i = 0; i < ports->len; i++)
    {
      const PortEntry *entry = &g_array_index (ports, PortEntry, i);

      if (i > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%s %s", entry->text, entry->name);
      if (i > 0 && *duplicate == NULL &&
          g_array_index (ports, PortEntry, i - 1).number == entry->number)
        *duplicate = g_strdup (entry->text);
    }
  return g_string_free (text, FALSE);
}

static void
on_open_subsystem_clicked (GtkButton   *button,
                           QdInspector *self)
{
  /* The window shows the subsystem (the inspector has no canvas). */
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-subsystem", NULL);
}

/* What a subsystem has instead of parameters: the ports its Inport and
 * Outport blocks make, which are edited inside it. */
static void
build_subsystem_ports (QdInspector *self,
                       QdBlock     *block)
{
  static const struct
  {
    const char *type;
    const char *label;
  } kinds[] = {
    { QD_TYPE_INPORT, N_("Inputs") },
    { QD_TYPE_OUTPORT, N_("Outputs") },
  };
  GtkWidget *button, *hint;

  add_section (self, _("Ports"));
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *duplicate = NULL;
      g_autofree char *summary = qd_inspector_dup_port_summary (block, kinds[k].type, &duplicate);
      GtkWidget *label = gtk_label_new (_(kinds[k].label));
      GtkWidget *value = gtk_label_new (summary != NULL ? summary : _("none"));

      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_label_set_xalign (GTK_LABEL (value), 0.0f);
      gtk_label_set_wrap (GTK_LABEL (value), TRUE);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      gtk_widget_set_focusable (value, FALSE);
      gtk_widget_set_hexpand (value, TRUE);
      gtk_widget_set_name (value, kinds[k].type);
      gtk_grid_attach (self->form, label, 0, self->row, 1, 1);
      gtk_grid_attach (self->form, value, 1, self->row++, 2, 1);
      if (duplicate != NULL)
        {
          g_autofree char *text = NULL;

          if (k == 0)
            text = g_strdup_printf (_("Two Inports are numbered %s: give each "
                                      "input its own number"), duplicate);
          else
            text = g_strdup_printf (_("Two Outports are numbered %s: give each "
                                      "output its own number"), duplicate);
          GtkWidget *error = new_error_label ();

          gtk_label_set_text (GTK_LABEL (error), text);
          gtk_widget_set_visible (error, TRUE);
          gtk_grid_attach (self->form, error, 1, self->row++, 2, 1);
        }
    }
  hint = gtk_label_new (_("Add Inport and Outport blocks inside the subsystem "
                          "to give it inputs and outputs."));
  gtk_label_set_xalign (GTK_LABEL (hint), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 40);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_grid_attach (self->form, hint, 0, self->row++, 3, 1);
  button = gtk_button_new_with_mnemonic (_("_Open Subsystem"));
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_set_margin_top (button, 6);
  g_signal_connect (button, "clicked", G_CALLBACK (on_open_subsystem_clicked), self);
  gtk_grid_attach (self->form, button, 0, self->row++, 3, 1);
}

/* A masked subsystem's own parameters, set here as a block's are. */
static void
build_mask_fields (QdInspector  *self,
                   const QdMask *mask)
{
  if (mask->params->len == 0)
    return;
  add_section (self, _("Mask Parameters"));
  for (guint i = 0; i < mask->params->len; i++)
    {
      const QdMaskParam *param = g_ptr_array_index (mask->params, i);
      g_autofree char *key = g_strconcat ("mask:", param->name, NULL);
      Field *field = field_new (self, key, ROLE_MASK_VALUE, WIDGET_ENTRY, param->name);

      field_create_editor (field, NULL);
      gtk_entry_set_placeholder_text (GTK_ENTRY (field->editor), param->default_value);
      attach_field (self, field, param->name, NULL, param->description);
    }
}

void
qd_inspector_build_block_form (QdInspector *self,
                               QdBlock     *block)
{
  const QdBlockType *type = qd_block_get_type_info (block);
  Field *field;

  if (type != NULL)
    {
      gtk_label_set_text (self->heading, _(type->name));
      gtk_label_set_text (self->doc_label, type->doc != NULL ? _(type->doc) : "");
    }
  else
    {
      g_autofree char *text = g_strdup_printf (_("Unknown block type “%s”"), block->type);

      gtk_label_set_text (self->heading, text);
      gtk_label_set_text (self->doc_label,
                          _("QDevs has no block of this type; replace the "
                            "block or install what provides it."));
    }
  /* A masked subsystem is a block of its own (qd-mask.h). */
  if (qd_block_get_mask (block) != NULL)
    {
      gtk_label_set_text (self->heading, _("Masked Subsystem"));
      gtk_label_set_text (self->doc_label,
                          _("A subsystem with parameters of its own, which the "
                            "blocks inside use in their expressions. Right-click "
                            "it for Edit Mask… and Look Under Mask."));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->doc_label), TRUE);

  field = field_new (self, "name", ROLE_NAME, WIDGET_ENTRY, NULL);
  field_create_editor (field, NULL);
  attach_field (self, field, _("Name"), NULL, _("The block’s name, unique in its system"));

  if (qd_block_get_mask (block) != NULL)
    build_mask_fields (self, qd_block_get_mask (block));
  if (block->inner != NULL)
    build_subsystem_ports (self, block);
  if (type == NULL || type->n_params == 0)
    return;
  add_section (self, _("Parameters"));
  for (guint i = 0; i < type->n_params; i++)
    build_param_field (self, &type->params[i]);
}

static void
on_remove_variable (GtkButton   *button,
                    QdInspector *self)
{
  const char *name = g_object_get_data (G_OBJECT (button), "qd-variable");
  g_autoptr(GError) error = NULL;

  if (self->document == NULL || name == NULL)
    return;
  if (!qd_document_set_variable (self->document, name, NULL, &error))
    g_warning ("%s", error->message);
}

static void
on_add_variable (GtkButton   *button,
                 QdInspector *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup ("k");
  Field *field;

  if (self->document == NULL)
    return;
  for (guint i = 2; qd_document_get_variable (self->document, name) != NULL; i++)
    {
      g_free (name);
      name = g_strdup_printf ("k%u", i);
    }
  if (!qd_document_set_variable (self->document, name, "1", &error))
    {
      g_warning ("%s", error->message);
      return;
    }
  /* The form is rebuilt by now: go on with the new variable's name. */
  {
    g_autofree char *key = g_strconcat ("varname:", name, NULL);

    field = g_hash_table_lookup (self->fields, key);
    if (field != NULL)
      gtk_widget_grab_focus (field->editor);
  }
}

static void
build_variable_row (QdInspector      *self,
                    const QdVariable *variable)
{
  g_autofree char *name_key = g_strconcat ("varname:", variable->name, NULL);
  g_autofree char *value_key = g_strconcat ("var:", variable->name, NULL);
  Field *name_field = field_new (self, name_key, ROLE_VAR_NAME, WIDGET_ENTRY, variable->name);
  Field *value_field = field_new (self, value_key, ROLE_VAR_VALUE, WIDGET_ENTRY, variable->name);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *equals = gtk_label_new ("=");
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  g_autofree char *tooltip = NULL;

  field_create_editor (name_field, NULL);
  field_create_editor (value_field, NULL);
  gtk_widget_set_hexpand (name_field->editor, FALSE);
  gtk_editable_set_width_chars (GTK_EDITABLE (name_field->editor), 5);
  gtk_widget_set_size_request (name_field->editor, 50, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (name_field->editor),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Variable name"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (value_field->editor),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Variable value"), -1);
  gtk_widget_set_tooltip_text (value_field->editor,
                               _("An expression; it may use the variables above it"));
  gtk_widget_add_css_class (remove, "flat");
  tooltip = g_strdup_printf (_("Remove the variable “%s”"), variable->name);
  gtk_widget_set_tooltip_text (remove, tooltip);
  g_object_set_data_full (G_OBJECT (remove), "qd-variable",
                          g_strdup (variable->name), g_free);
  g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_variable), self);

  gtk_box_append (GTK_BOX (box), equals);
  gtk_box_append (GTK_BOX (box), value_field->editor);
  gtk_grid_attach (self->form, name_field->editor, 0, self->row, 1, 1);
  gtk_grid_attach (self->form, box, 1, self->row, 1, 1);
  gtk_grid_attach (self->form, remove, 2, self->row++, 1, 1);
  gtk_grid_attach (self->form, name_field->error_label, 0, self->row++, 3, 1);
  gtk_grid_attach (self->form, value_field->error_label, 0, self->row++, 3, 1);
  register_field (self, name_field);
  register_field (self, value_field);
}

static void
build_setting (QdInspector *self,
               const char  *key,
               const char  *label,
               const char  *unit,
               const char  *doc)
{
  Field *field = field_new (self, key, ROLE_SETTING, WIDGET_ENTRY, key);

  field_create_editor (field, NULL);
  attach_field (self, field, label, unit, doc);
}

/* The solver family and a classic solver's options (qd-classic.h). */
static void
build_solver_settings (QdInspector *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const QdClassicMethod *methods;
  guint n_methods;
  Field *field;

  methods = qd_classic_methods (&n_methods);
  g_ptr_array_add (names, (gpointer) "qss");
  for (guint i = 0; i < n_methods; i++)
    g_ptr_array_add (names, (gpointer) methods[i].name);
  g_ptr_array_add (names, NULL);
  add_section (self, _("Solver"));
  field = field_new (self, "solver", ROLE_SETTING, WIDGET_DROPDOWN, "solver");
  field->values = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i + 1 < names->len; i++)
    g_ptr_array_add (field->values, g_strdup (g_ptr_array_index (names, i)));
  field_create_editor (field, (const char *const *) names->pdata);
  attach_field (self, field, _("Solver"), NULL,
                _("qss: each integrator runs its quantized-state method. "
                  "The others are classic ODE solvers (SUNDIALS CVODE and "
                  "ARKODE) that advance all integrators together; the "
                  "options below are theirs"));
  build_setting (self, "rtol", _("Relative tolerance"), NULL, NULL);
  build_setting (self, "atol", _("Absolute tolerance"), NULL, NULL);
  build_setting (self, "max_step", _("Maximum step"), "s",
                 _("0 for no limit"));
  build_setting (self, "h", _("Fixed step"), "s",
                 _("A Runge-Kutta method's step; 0 for adaptive steps "
                   "(rk4 needs one, the CVODE methods take none)"));
}

void
qd_inspector_build_model_form (QdInspector *self)
{
  const QdParamSpec *method = qd_registry_find_setting_param ("method");
  GPtrArray *variables = qd_document_get_variables (self->document);
  GtkWidget *add;
  Field *field;

  gtk_label_set_text (self->heading, _("Model"));
  gtk_label_set_text (self->doc_label,
                      _("The settings and variables of the whole diagram. "
                        "Select a block to edit its parameters."));
  gtk_widget_set_visible (GTK_WIDGET (self->doc_label), TRUE);

  field = field_new (self, "title", ROLE_TITLE, WIDGET_ENTRY, NULL);
  field_create_editor (field, NULL);
  attach_field (self, field, _("Title"), NULL, NULL);

  field = field_new (self, "description", ROLE_DESCRIPTION, WIDGET_TEXT, NULL);
  field_create_editor (field, NULL);
  attach_field (self, field, _("Description"), NULL, NULL);

  add_section (self, _("Variables"));
  for (guint i = 0; variables != NULL && i < variables->len; i++)
    build_variable_row (self, g_ptr_array_index (variables, i));
  if (variables == NULL || variables->len == 0)
    {
      GtkWidget *none = gtk_label_new (_("No variables yet. A variable names "
                                         "a value that block parameters can "
                                         "use, like “k” in “2*k”."));

      gtk_label_set_xalign (GTK_LABEL (none), 0.0f);
      gtk_label_set_wrap (GTK_LABEL (none), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (none), 30);
      gtk_widget_add_css_class (none, "dim-label");
      gtk_widget_add_css_class (none, "qd-inspector-doc");
      gtk_grid_attach (self->form, none, 0, self->row++, 3, 1);
    }
  add = gtk_button_new_with_mnemonic (_("_Add Variable"));
  gtk_widget_set_halign (add, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (add, _("Variables can be used in the "
                                      "parameters of every block"));
  g_signal_connect (add, "clicked", G_CALLBACK (on_add_variable), self);
  gtk_grid_attach (self->form, add, 0, self->row++, 3, 1);

  add_section (self, _("Simulation"));
  build_setting (self, "start_time", _("Start time"), "s", NULL);
  build_setting (self, "final_time", _("Final time"), "s", NULL);
  if (method != NULL && method->choices != NULL)
    {
      const char *const *choices = method->choices;

      field = field_new (self, "method", ROLE_SETTING, WIDGET_DROPDOWN, "method");
      field->values = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; choices[i] != NULL; i++)
        g_ptr_array_add (field->values, g_strdup (choices[i]));
      field_create_editor (field, choices);
      attach_field (self, field, _("Method"), NULL,
                    _("The integration method of every integrator that "
                      "does not choose its own"));
    }
  else
    build_setting (self, "method", _("Method"), NULL, NULL);
  build_setting (self, "dqmin", _("Absolute quantum"), NULL,
                 _("The default smallest quantum of the integrators"));
  build_setting (self, "dqrel", _("Relative quantum"), NULL,
                 _("The default quantum relative to |x|"));
  build_setting (self, "illegitimacy_limit", _("Illegitimacy limit"), NULL,
                 _("How many transitions may happen without time advancing "
                   "before the run stops as illegitimate (Zeno)"));
  build_solver_settings (self);
}
