/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writing a capture in the capture-file format the original viewer reads. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-capture-private.h"
#include "tks-error.h"
#include "tks-events-private.h"

/* ------------------------------------------------------------------------------------------ */
/* Saving                                                                                       */

/* A float the way the original viewer (Python's str()) writes it: the shortest digits that
 * read back the same, in plain notation from 1e-4 to 1e16, always with a decimal point. */
static void
append_float (GString *out,
              double   v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 32];
  double mag;

  if (!isfinite (v))
    v = 0.0;
  mag = fabs (v);
  if (mag == 0.0 || (mag >= 1e-4 && mag < 1e16))
    {
      for (int decimals = 0; decimals <= 20; decimals++)
        {
          char fmt[8];

          g_snprintf (fmt, sizeof fmt, "%%.%df", decimals);
          g_ascii_formatd (buf, sizeof buf, fmt, v);
          if (g_ascii_strtod (buf, NULL) == v)
            break;
        }
    }
  else
    {
      for (int precision = 1; precision <= 17; precision++)
        {
          char fmt[8];

          g_snprintf (fmt, sizeof fmt, "%%.%dg", precision);
          g_ascii_formatd (buf, sizeof buf, fmt, v);
          if (g_ascii_strtod (buf, NULL) == v)
            break;
        }
    }
  g_string_append (out, buf);
  if (strpbrk (buf, ".e") == NULL)
    g_string_append (out, ".0");
  g_string_append_c (out, '\n');
}

/* Extra lines must not contain what the original loader searches for. */
static gboolean
safe_meta (const char *value)
{
  return value != NULL && strstr (value, "threads_list") == NULL &&
         strstr (value, "threads_timestamps") == NULL &&
         strstr (value, "Saved position") == NULL && strchr (value, '\n') == NULL &&
         strchr (value, '\r') == NULL && *value != '\0';
}

/* A warning of the reader about the input, as a line the original loader ignores: none of
 * the texts it searches for, no prompt, on one line. */
static void
append_damage (GString    *out,
               const char *warning)
{
  GString *line = g_string_new ("Tickscope damage ");

  for (const char *p = warning; *p != '\0'; p++)
    {
      if (*p == '\r' || *p == '\n')
        g_string_append_printf (line, "\\x%02x", *p);
      else if (g_str_has_prefix (p, "ch>"))
        {
          /* Not a prompt, which would end the lines the loaders skip. */
          g_string_append (line, "ch\\x3e");
          p += 2;
        }
      else if (g_str_has_prefix (p, "threads_") || g_str_has_prefix (p, "Saved position"))
        {
          /* "threads\x5f", "Saved\x20position": shown, not searched for. */
          g_string_append_len (line, p, *p == 't' ? 7 : 5);
          g_string_append (line, *p == 't' ? "\\x5f" : "\\x20");
          p += *p == 't' ? 7 : 5;
        }
      else
        g_string_append_c (line, *p);
    }
  g_string_append_c (line, '\n');
  g_string_append_len (out, line->str, line->len);
  g_string_free (line, TRUE);
}

static void
append_entry (GString            *out,
              const TksListEntry *entry)
{
  g_string_append_printf (out, "Thread number %2d : Prio = %3d, Log = %3s, Name = %s\n",
                          entry->number, entry->priority, entry->logged ? "Yes" : "No",
                          entry->name);
}

/* Tickscope's own lines: the tick rate, the source, the trigger's name, what the input lost
 * (unreadable lines, a damaged transfer: it stays visible in the copy), and the holes in the
 * log, placed among the records written below. */
static void
append_meta (TksCapture *self,
             GString    *out,
             double      tick_hz)
{
  TksParsed *parsed = self->parsed;

  if (tick_hz != TKS_TICK_HZ_DEFAULT)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (out, "Tickscope tick-hz %s\n",
                              g_ascii_dtostr (buf, sizeof buf, tick_hz));
    }
  if (safe_meta (self->source))
    g_string_append_printf (out, "Tickscope source %s\n", self->source);
  if (safe_meta (parsed->trigger_name))
    g_string_append_printf (out, "Tickscope trigger-name %s\n", parsed->trigger_name);
  for (guint w = 0; w < parsed->warnings->len; w++)
    append_damage (out, (const char *) g_ptr_array_index (parsed->warnings, w) +
                        g_array_index (parsed->warnings_saved, guint, w));
  if (parsed->n_warnings > parsed->warnings->len)
    g_string_append_printf (out, "Tickscope damage %u more warnings about the input not shown\n",
                            parsed->n_warnings - parsed->warnings->len);
  for (guint g = 0; g < self->n_gaps; g++)
    g_string_append_printf (out, "Tickscope gap before record %u, ticks %u to %u, "
                            "%" G_GUINT64_FORMAT " switches dropped\n",
                            self->saved_gaps[g].index, self->saved_gaps[g].begin,
                            self->saved_gaps[g].end, self->saved_gaps[g].dropped);
}

/* The entries kept (the switches the rebuild dropped are left out) among @entries from *@j up
 * to @entry, added to *@n_kept_entries. */
static void
count_kept_entries (const TksParsed *parsed,
                    const GArray    *entries,
                    guint            entry,
                    guint           *j,
                    guint           *n_kept_entries)
{
  const TksRecord *r = (const TksRecord *) (gconstpointer) parsed->records->data;

  for (; *j < entry && *j < entries->len; (*j)++)
    {
      const TksParsedEntry *e = &g_array_index (entries, TksParsedEntry, *j);

      *n_kept_entries += e->kind != TKS_EVENT_SWITCH ||
                         (e->record < parsed->records->len &&
                          !(r[e->record].flags & TKS_RECORD_DROPPED));
    }
}

/* The width of the record tick, and a recording's heartbeats, placed among the records
 * written below. */
static void
append_beats (const TksParsed *parsed,
              GString         *out)
{
  const TksRecord *r = (const TksRecord *) (gconstpointer) parsed->records->data;

  if (parsed->tick_bits != 0)
    g_string_append_printf (out, "Tickscope tick-bits %u\n", parsed->tick_bits);
  for (guint b = 0, i = 0, n_kept = 0, j = 0, n_kept_entries = 0; b < parsed->beats->len; b++)
    {
      const TksParsedBeat *beat = &g_array_index (parsed->beats, TksParsedBeat, b);

      for (; i < beat->index && i < parsed->records->len; i++)
        n_kept += !(r[i].flags & TKS_RECORD_DROPPED);
      g_string_append_printf (out, "Tickscope beat before record %u, ", n_kept);
      if (parsed->events != NULL && beat->entry != G_MAXUINT)
        {
          /* among the entries written */
          count_kept_entries (parsed, parsed->events->entries, beat->entry, &j, &n_kept_entries);
          g_string_append_printf (out, "entry %u, ", n_kept_entries);
        }
      g_string_append_printf (out, "tick %u\n", beat->tick);
    }
}

/* The thread list and the log, as the board's shell prints them. */
static void
append_list_and_log (const TksParsed *parsed,
                     GString         *out)
{
  const TksRecord *r = (const TksRecord *) (gconstpointer) parsed->records->data;

  g_string_append (out, "threads_list\n");
  for (guint i = 0; i < parsed->live->len; i++)
    append_entry (out, g_ptr_array_index (parsed->live, i));
  g_string_append (out, "Deleted threads: \n");
  for (guint i = 0; i < parsed->deleted->len; i++)
    append_entry (out, g_ptr_array_index (parsed->deleted, i));
  g_string_append (out, "ch> \n");

  g_string_append (out, "threads_timestamps\n");
  if (parsed->has_trigger)
    g_string_append_printf (out, "Triggered at %7u\n", parsed->trigger_tick);
  for (guint i = 0; i < parsed->records->len; i++)
    if (!(r[i].flags & TKS_RECORD_DROPPED))
      g_string_append_printf (out, "From %2u to %2u at %7u\n", r[i].out, r[i].in, r[i].tick);
  g_string_append (out, "ch> \n");
}

gboolean
tks_capture_write (TksCapture         *self,
                   GString            *out,
                   const TksSavedView *view,
                   double              tick_hz)
{
  TksParsed *parsed;
  TksSavedView whole;

  g_return_val_if_fail (TKS_IS_CAPTURE (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  if (tick_hz == 0)
    tick_hz = self->tick_hz;
  g_return_val_if_fail (tks_tick_hz_is_sane (tick_hz), FALSE);

  parsed = self->parsed;
  if (view == NULL && !tks_capture_get_saved_view (self, &whole))
    {
      whole.x0 = self->start;
      whole.x1 = self->end;
      whole.y0 = tks_capture_lane_to_legacy_y (self, TRUE, self->n_lanes);
      whole.y1 = tks_capture_lane_to_legacy_y (self, TRUE, 0);
    }
  if (view == NULL)
    view = &whole;

  g_string_append (out, "Saved position\n");
  append_float (out, view->x0);
  append_float (out, view->x1);
  append_float (out, view->y0);
  append_float (out, view->y1);

  /* Tickscope's own lines: the original loader reads four floats here and ignores the rest. */
  g_string_append (out, "Tickscope capture 1\n");
  append_meta (self, out, tick_hz);
  append_beats (parsed, out);
  /* The events of a dump version 2, on lines of their own. */
  if (parsed->events != NULL)
    tks_parsed_events_write (parsed->events, parsed->records, out);

  append_list_and_log (parsed, out);
  return TRUE;
}

gboolean
tks_capture_save (TksCapture         *self,
                  const char         *path,
                  const TksSavedView *view,
                  double              tick_hz,
                  GError            **error)
{
  g_autoptr(GString) out = NULL;
  GError *local_error = NULL;

  g_return_val_if_fail (TKS_IS_CAPTURE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (tick_hz == 0 || tks_tick_hz_is_sane (tick_hz), FALSE);

  out = g_string_sized_new (64 + self->parsed->records->len * 26);
  tks_capture_write (self, out, view, tick_hz);

  /* A temporary file renamed over the target: an existing file is never left half written. */
  if (!g_file_set_contents_full (path, out->str, out->len, G_FILE_SET_CONTENTS_CONSISTENT,
                                 0666, &local_error))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, "%s", local_error->message);
      g_error_free (local_error);
      return FALSE;
    }
  return TRUE;
}
