/* qd-json-writer.h: a small canonical JSON writer (private to the engine)
 *
 * The .qdevs writer needs output that is identical byte for byte whenever
 * the document is: two-space indent, keys in the order the caller gives,
 * short containers on one line ("position": [120, 80]), numbers in the
 * shortest text that reads back to the same double, strings escaped the
 * same way every time. json-c's printer cannot promise any of that, so
 * this writer builds the text itself.
 *
 * Calls follow the structure of the document: begin a container, for an
 * object give a key before each value, end the container. A container
 * begun "inline" is written on one line together with everything in it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _QdJsonWriter QdJsonWriter;

/* Large enough for any double qd_json_format_number() writes. */
#define QD_JSON_NUMBER_BUFSIZE 32

QdJsonWriter *qd_json_writer_new          (void);
/* Frees the writer and returns the text, with a final newline. */
char         *qd_json_writer_free_to_data (QdJsonWriter *writer,
                                           gsize        *length);
void          qd_json_writer_free         (QdJsonWriter *writer);

void          qd_json_writer_begin_object (QdJsonWriter *writer,
                                           gboolean      is_inline);
void          qd_json_writer_end_object   (QdJsonWriter *writer);
void          qd_json_writer_begin_array  (QdJsonWriter *writer,
                                           gboolean      is_inline);
void          qd_json_writer_end_array    (QdJsonWriter *writer);

void          qd_json_writer_key          (QdJsonWriter *writer,
                                           const char   *key);
void          qd_json_writer_string       (QdJsonWriter *writer,
                                           const char   *value);
void          qd_json_writer_number       (QdJsonWriter *writer,
                                           double        value);
void          qd_json_writer_int          (QdJsonWriter *writer,
                                           gint64        value);
void          qd_json_writer_uint         (QdJsonWriter *writer,
                                           guint64       value);
void          qd_json_writer_boolean      (QdJsonWriter *writer,
                                           gboolean      value);
/* A one-line array of numbers: [120, 80]. */
void          qd_json_writer_point        (QdJsonWriter *writer,
                                           double        x,
                                           double        y);

/* The shortest of %.15g, %.16g and %.17g that reads back as @value, in
 * the C locale, with the exponent trimmed ("1e-12", not "1e-012"); -0 is
 * written "0" and a non-finite value "null", which JSON has no number for.
 * Returns @buf. */
char         *qd_json_format_number       (double        value,
                                           char          buf[QD_JSON_NUMBER_BUFSIZE]);
/* Appends @value as a quoted JSON string. UTF-8 is kept; '"' and '\\' are
 * escaped, control characters use \n, \t, \r, \b, \f or \u00XX. Invalid
 * UTF-8 becomes U+FFFD so that the output is always valid JSON. */
void          qd_json_append_string       (GString      *out,
                                           const char   *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdJsonWriter, qd_json_writer_free)

G_END_DECLS
