/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tks-error.h"
#include "tks-export-private.h"

gboolean
tks_export_flush (TksExportWriter *w,
                  gboolean         force)
{
  gsize written = 0;

  if (w->stream == NULL || w->error != NULL)
    return w->error == NULL;

  if (!force && w->out->len < TKS_EXPORT_FLUSH_THRESHOLD)
    return TRUE;

  if (g_cancellable_set_error_if_cancelled (w->cancellable, &w->error))
    return FALSE;

  if (w->out->len > 0 &&
      !g_output_stream_write_all (w->stream, w->out->str, w->out->len, &written,
                                  w->cancellable, &w->error))
    return FALSE;

  g_string_truncate (w->out, 0);
  return TRUE;
}

static const guint64 powers_of_ten[] = {
  1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

void
tks_export_append_uint (GString *out,
                        guint64  value)
{
  char buf[24];
  guint i = sizeof buf;

  do
    {
      buf[--i] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);

  g_string_append_len (out, buf + i, sizeof buf - i);
}

void
tks_export_append_int (GString *out,
                       gint64   value)
{
  if (value < 0)
    {
      g_string_append_c (out, '-');
      tks_export_append_uint (out, (guint64) 0 - (guint64) value);
    }
  else
    tks_export_append_uint (out, (guint64) value);
}

/*
 * Appends @value rounded to @decimals decimals with '.' as the decimal point whatever the
 * locale; without trailing zeros unless @fixed. Exports write millions of numbers, so the
 * usual case avoids printf.
 */
void
tks_export_append_decimal (GString  *out,
                           double    value,
                           int       decimals,
                           gboolean  fixed)
{
  guint64 scale;
  double scaled;

  decimals = CLAMP (decimals, 0, 9);
  scale = powers_of_ten[decimals];

  if (!isfinite (value))
    value = 0;

  scaled = value * (double) scale;
  if (fabs (scaled) < 9e15)
    {
      gint64 q = llround (scaled);
      guint64 mag = q < 0 ? (guint64) 0 - (guint64) q : (guint64) q;
      guint64 frac = mag % scale;
      int digits = decimals;

      if (q < 0)
        g_string_append_c (out, '-');
      tks_export_append_uint (out, mag / scale);

      if (!fixed)
        while (digits > 0 && frac % 10 == 0)
          {
            frac /= 10;
            digits--;
          }

      if (digits > 0)
        {
          char buf[16];

          for (int i = digits - 1; i >= 0; i--)
            {
              buf[i] = (char) ('0' + frac % 10);
              frac /= 10;
            }
          g_string_append_c (out, '.');
          g_string_append_len (out, buf, digits);
        }
    }
  else
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      char fmt[8];

      g_snprintf (fmt, sizeof fmt, "%%.%df", decimals);
      g_string_append (out, g_ascii_formatd (buf, sizeof buf, fmt, value));
    }
}
char *
tks_export_capped_name (const char *name)
{
  gsize len = strlen (name);
  char *valid = g_utf8_make_valid (name, MIN (len, TKS_EXPORT_NAME_MAX_BYTES + 1));
  const char *p = valid;
  char *capped;

  while (*p != '\0' && (gsize) (g_utf8_next_char (p) - valid) <= TKS_EXPORT_NAME_MAX_BYTES)
    p = g_utf8_next_char (p);
  if (*p == '\0' && len <= TKS_EXPORT_NAME_MAX_BYTES)
    return valid;
  capped = g_strdup_printf ("%.*s…", (int) (p - valid), valid);
  g_free (valid);
  return capped;
}

char *
tks_export_thread_name (const TksThread *thread)
{
  if (thread->name == NULL || thread->name[0] == '\0')
    return g_strdup_printf ("thread %d", thread->number);

  return tks_export_capped_name (thread->name);
}

gboolean
tks_export_priority_known (const TksThread *thread)
{
  return (thread->flags & TKS_THREAD_NOT_LISTED) == 0;
}

/* Where the log ended, when before the capture's end (only exits were written after it). */
gboolean
tks_export_log_end_before_end (TksCapture *capture,
                               double     *log_end)
{
  *log_end = tks_capture_get_log_end (capture, NULL);
  return *log_end < tks_capture_get_end (capture) && isfinite (*log_end);
}


/* ------------------------------------------------------------------------------------------ */

/**
 * tks_export_format_from_string:
 * @name: "perfetto" (or "json", "chrome"), "csv", "ftrace", "paraver" (or "prv") or "vcd"
 * @format: (out): the format
 *
 * Returns: %TRUE if @name names a format
 */
gboolean
tks_export_format_from_string (const char      *name,
                               TksExportFormat *format)
{
  g_return_val_if_fail (format != NULL, FALSE);

  if (name == NULL)
    return FALSE;

  if (g_ascii_strcasecmp (name, "perfetto") == 0 ||
      g_ascii_strcasecmp (name, "json") == 0 ||
      g_ascii_strcasecmp (name, "chrome") == 0)
    *format = TKS_EXPORT_PERFETTO;
  else if (g_ascii_strcasecmp (name, "csv") == 0)
    *format = TKS_EXPORT_CSV;
  else if (g_ascii_strcasecmp (name, "ftrace") == 0)
    *format = TKS_EXPORT_FTRACE;
  else if (g_ascii_strcasecmp (name, "paraver") == 0 || g_ascii_strcasecmp (name, "prv") == 0)
    *format = TKS_EXPORT_PARAVER;
  else if (g_ascii_strcasecmp (name, "vcd") == 0)
    *format = TKS_EXPORT_VCD;
  else
    return FALSE;

  return TRUE;
}

const char *
tks_export_format_to_string (TksExportFormat format)
{
  switch (format)
    {
    case TKS_EXPORT_PERFETTO:
      return "perfetto";
    case TKS_EXPORT_CSV:
      return "csv";
    case TKS_EXPORT_FTRACE:
      return "ftrace";
    case TKS_EXPORT_PARAVER:
      return "paraver";
    case TKS_EXPORT_VCD:
      return "vcd";
    default:
      return NULL;
    }
}

static gboolean
resolve_tick_hz (TksCapture *capture,
                 double     *tick_hz,
                 GError    **error)
{
  if (*tick_hz == 0)
    {
      *tick_hz = tks_capture_get_tick_hz (capture);
      if (!(*tick_hz > 0) || !isfinite (*tick_hz))
        *tick_hz = TKS_EXPORT_DEFAULT_TICK_HZ;
    }

  if (!(*tick_hz > 0) || !isfinite (*tick_hz))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   _("The tick rate must be a positive number of hertz, not %g"), *tick_hz);
      return FALSE;
    }

  return TRUE;
}

static gboolean
export_run (TksCapture      *capture,
            TksExportFormat  format,
            double           tick_hz,
            TksExportWriter *w,
            GError         **error)
{
  gboolean ok;

  switch (format)
    {
    case TKS_EXPORT_PERFETTO:
      ok = tks_export_perfetto (capture, tick_hz, w);
      break;

    case TKS_EXPORT_CSV:
      ok = tks_export_csv (capture, w);
      break;

    case TKS_EXPORT_FTRACE:
      ok = tks_export_ftrace (capture, tick_hz, w);
      break;

    case TKS_EXPORT_VCD:
      ok = tks_export_vcd (capture, tick_hz, w);
      break;

    case TKS_EXPORT_PARAVER:
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   _("A Paraver trace is three files (NAME.prv, NAME.pcf and NAME.row): "
                     "give a file name to write them to"));
      return FALSE;

    default:
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE, _("Unknown export format %d"),
                   (int) format);
      return FALSE;
    }

  if (ok)
    ok = tks_export_flush (w, TRUE);

  if (!ok && w->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&w->error));
      return FALSE;
    }

  return ok;
}

/**
 * tks_export_write:
 * @capture: a capture
 * @format: the format to write
 * @tick_hz: ticks per second for formats using real time units, or 0 for the capture's own
 *   rate (1000 Hz when it has none)
 * @out: the string to append the export to
 * @error: return location for an error
 *
 * Appends the whole export of @capture to @out.
 *
 * Returns: %TRUE on success
 */
gboolean
tks_export_write (TksCapture      *capture,
                  TksExportFormat  format,
                  double           tick_hz,
                  GString         *out,
                  GError         **error)
{
  TksExportWriter w = { 0 };

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!resolve_tick_hz (capture, &tick_hz, error))
    return FALSE;

  w.out = out;

  return export_run (capture, format, tick_hz, &w, error);
}

/**
 * tks_export_to_stream:
 * @capture: a capture
 * @format: the format to write
 * @tick_hz: as for tks_export_write()
 * @stream: where to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Writes the export of @capture to @stream in chunks. The stream is not closed.
 *
 * Returns: %TRUE on success
 */
gboolean
tks_export_to_stream (TksCapture      *capture,
                      TksExportFormat  format,
                      double           tick_hz,
                      GOutputStream   *stream,
                      GCancellable    *cancellable,
                      GError         **error)
{
  return tks_export_to_stream_in_unit (capture, format, tick_hz, TKS_EXPORT_UNIT_TICKS, stream,
                                       cancellable, error);
}

gboolean
tks_export_unit_from_string (const char    *name,
                             TksExportUnit *unit)
{
  static const char * const names[] = { "ticks", "s", "ms", "us", "ns" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (name != NULL && g_str_equal (name, names[i]))
      {
        *unit = (TksExportUnit) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
tks_export_to_stream_in_unit (TksCapture      *capture,
                              TksExportFormat  format,
                              double           tick_hz,
                              TksExportUnit    unit,
                              GOutputStream   *stream,
                              GCancellable    *cancellable,
                              GError         **error)
{
  /* per second, and the decimals that keep a nanosecond */
  static const double per_second[] = { 0, 1, 1e3, 1e6, 1e9 };
  static const int decimals[] = { 6, 9, 6, 3, 0 };
  g_autoptr(GString) buffer = NULL;
  TksExportWriter w = { 0 };

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!resolve_tick_hz (capture, &tick_hz, error))
    return FALSE;

  buffer = g_string_sized_new (TKS_EXPORT_FLUSH_THRESHOLD * 2);
  w.out = buffer;
  w.stream = stream;
  w.cancellable = cancellable;
  w.unit_per_tick = per_second[unit] / tick_hz;
  w.unit_decimals = decimals[unit];

  return export_run (capture, format, tick_hz, &w, error);
}

/* ------------------------------------------------------------------------------------------ */
/* Files                                                                                       */

gboolean
tks_export_write_paraver (TksCapture  *capture,
                          double       tick_hz,
                          GString     *prv,
                          GString     *pcf,
                          GString     *row,
                          GError     **error)
{
  TksExportWriter w = { 0 };

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), FALSE);
  g_return_val_if_fail (prv != NULL && pcf != NULL && row != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!resolve_tick_hz (capture, &tick_hz, error))
    return FALSE;
  w.out = prv;
  return tks_export_paraver (capture, tick_hz, &w, pcf, row);
}

char **
tks_export_get_paths (TksExportFormat  format,
                      const char      *path)
{
  g_autoptr(GStrvBuilder) paths = g_strv_builder_new ();

  g_return_val_if_fail (path != NULL, NULL);

  if (format == TKS_EXPORT_PARAVER)
    {
      gsize len = strlen (path);
      g_autofree char *base = len > 4 && g_ascii_strcasecmp (path + len - 4, ".prv") == 0
                              ? g_strndup (path, len - 4) : g_strdup (path);
      static const char * const suffixes[] = { ".prv", ".pcf", ".row" };

      for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
        {
          g_autofree char *name = g_strconcat (base, suffixes[i], NULL);

          g_strv_builder_add (paths, name);
        }
    }
  else
    g_strv_builder_add (paths, path);
  return g_strv_builder_end (paths);
}

/* A file being written: a temporary file beside it, renamed over it at the end. */
typedef struct
{
  const char    *path;
  char          *tmp;
  GOutputStream *stream;
} OutFile;

static gboolean
out_file_open (OutFile     *f,
               const char  *path,
               GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp_name = g_strdup_printf (".%s.XXXXXX", base);
  g_autoptr(GFile) tmp = NULL;
  GStatBuf st;
  int fd, saved;

  f->path = path;
  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Cannot write “%s”: not a regular file"),
                   path);
      return FALSE;
    }
  f->tmp = g_build_filename (dir, tmp_name, NULL);
  fd = g_mkstemp_full (f->tmp, O_RDWR, 0666);
  if (fd < 0)
    {
      saved = errno;
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Cannot write “%s”: %s"), path,
                   g_strerror (saved));
      g_clear_pointer (&f->tmp, g_free);
      return FALSE;
    }
  g_close (fd, NULL);
  tmp = g_file_new_for_path (f->tmp);
  f->stream = G_OUTPUT_STREAM (g_file_append_to (tmp, G_FILE_CREATE_NONE, NULL, error));
  return f->stream != NULL;
}

/* Closes the file; unless @keep, its temporary file is removed. */
static gboolean
out_file_close (OutFile   *f,
                gboolean   keep,
                GError   **error)
{
  gboolean ok = TRUE;

  if (f->stream != NULL)
    {
      ok = g_output_stream_close (f->stream, NULL, keep ? error : NULL);
      g_clear_object (&f->stream);
    }
  if (f->tmp != NULL && (!keep || !ok))
    {
      g_unlink (f->tmp);
      g_clear_pointer (&f->tmp, g_free);
    }
  return ok && keep;
}

static gboolean
out_file_rename (OutFile  *f,
                 GError  **error)
{
  if (g_rename (f->tmp, f->path) != 0)
    {
      int saved = errno;

      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Cannot write “%s”: %s"), f->path,
                   g_strerror (saved));
      g_unlink (f->tmp);
      g_clear_pointer (&f->tmp, g_free);
      return FALSE;
    }
  g_clear_pointer (&f->tmp, g_free);
  return TRUE;
}

gboolean
tks_export_to_file (TksCapture      *capture,
                    TksExportFormat  format,
                    double           tick_hz,
                    TksExportUnit    unit,
                    const char      *path,
                    GCancellable    *cancellable,
                    GError         **error)
{
  g_auto(GStrv) paths = NULL;
  OutFile files[3] = { { 0 } };
  guint n_files, i;
  gboolean ok = TRUE;

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!resolve_tick_hz (capture, &tick_hz, error))
    return FALSE;
  paths = tks_export_get_paths (format, path);
  n_files = g_strv_length (paths);
  for (i = 0; ok && i < n_files; i++)
    ok = out_file_open (&files[i], paths[i], error);

  if (ok && format == TKS_EXPORT_PARAVER)
    {
      g_autoptr(GString) prv = g_string_sized_new (TKS_EXPORT_FLUSH_THRESHOLD * 2);
      g_autoptr(GString) pcf = g_string_new (NULL);
      g_autoptr(GString) row = g_string_new (NULL);
      TksExportWriter w = { .out = prv, .stream = files[0].stream, .cancellable = cancellable };

      ok = tks_export_paraver (capture, tick_hz, &w, pcf, row) && tks_export_flush (&w, TRUE);
      if (!ok && w.error != NULL)
        g_propagate_error (error, g_steal_pointer (&w.error));
      ok = ok && g_output_stream_write_all (files[1].stream, pcf->str, pcf->len, NULL,
                                            cancellable, error);
      ok = ok && g_output_stream_write_all (files[2].stream, row->str, row->len, NULL,
                                            cancellable, error);
    }
  else if (ok)
    ok = tks_export_to_stream_in_unit (capture, format, tick_hz, unit, files[0].stream,
                                       cancellable, error);

  /* Every file complete before any replaces what was there. */
  for (i = 0; i < n_files; i++)
    if (!out_file_close (&files[i], ok, ok ? error : NULL))
      ok = FALSE;
  for (i = 0; ok && i < n_files; i++)
    ok = out_file_rename (&files[i], error);
  for (; i < n_files; i++)
    out_file_close (&files[i], FALSE, NULL);
  return ok;
}
