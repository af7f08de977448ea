/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Paraver and VCD exports: their structure read back, their counts against the CSV export
 * of the same capture, their files written whole or not at all, and the VCD through GTKWave's
 * own reader (vcd2fst) when it is installed. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tks-capture.h"
#include "tks-error.h"
#include "tks-events.h"
#include "tks-export.h"
#include "tks-test-csv.h"
#include "tks-test-data.h"
#include "tks-test-fixtures.h"

/* Captures with events (handlers, markers, wake-ups): the simulated board's recording and a
 * board's dump; without: boards' captures. */
static const char *captures[] = {
  "simboard-record-events.raw.txt",
  "board-events-v2.raw.txt",
  "simboard-record-wrap-events.raw.txt",
  "board-run-mode.raw.txt",
  "board-trigger-exits.raw.txt",
  "board-partly-logged-trigger.raw.txt",
  "board-tick-wrap.raw.txt",
};

/* ------------------------------------------------------------------------------------------ */
/* The CSV export, as rows                                                                     */

/* The rows after the header, each a GStrv. */
static GPtrArray *
csv_rows (TksCapture *capture)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) parsed = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  g_assert_true (tks_export_write (capture, TKS_EXPORT_CSV, 0, text, &error));
  g_assert_no_error (error);
  parsed = tks_test_csv_parse (text->str);
  for (guint r = 1; r < parsed->len; r++)
    {
      GPtrArray *fields = parsed->pdata[r];

      g_ptr_array_add (fields, NULL);
      g_ptr_array_add (rows, g_ptr_array_steal (fields, NULL));
    }
  return rows;
}

/* Rows of @kind; with @order (creation order) or @name when not NULL. */
static guint
csv_count (GPtrArray  *rows,
           const char *kind,
           int         order,
           const char *name)
{
  guint n = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      char **f = rows->pdata[i];

      if (g_str_equal (f[0], kind) && (order < 0 || atoi (f[3]) == order) &&
          (name == NULL || g_str_equal (f[1], name)))
        n++;
    }
  return n;
}

/* The threads that have a row in every export, in creation order. */
static GArray *
exported_threads (TksCapture *capture)
{
  GArray *threads = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    if (!(tks_capture_get_thread (capture, i)->flags & TKS_THREAD_EXITED_BEFORE_LOG))
      g_array_append_val (threads, i);
  return threads;
}

/* A handler's runs as its wire or state shows them: slices that overlap (nested, or left open
 * by a hole of the log) are one; so are two that touch, with @touching (a wire does not fall
 * between them, where a trace's states are two, end to end). */
static guint
slice_groups (const TksTrack *track,
              gboolean        touching)
{
  guint groups = 0;
  double end = -INFINITY;

  for (guint i = 0; i < track->n_slices; i++)
    {
      if (track->slices[i].begin.pos < end || (touching && track->slices[i].begin.pos == end))
        end = MAX (end, track->slices[i].end.pos);
      else
        {
          groups++;
          end = track->slices[i].end.pos;
        }
    }
  return groups;
}

/* ------------------------------------------------------------------------------------------ */
/* Paraver                                                                                     */

typedef struct
{
  int     type;     /* 1 state, 2 event */
  int     cpu;
  guint   thread;
  gint64  begin;
  gint64  end;      /* states */
  guint64 value;    /* state, or event value */
  guint   event;    /* event type */
} PrvRecord;

typedef struct
{
  gint64      ftime;
  guint       n_threads;
  GArray     *records;      /* PrvRecord */
  GPtrArray  *row_names;    /* the thread level's */
  GHashTable *states;       /* declared state values */
  GHashTable *event_types;  /* declared event types */
} Prv;

static void
prv_clear (Prv *prv)
{
  g_clear_pointer (&prv->records, g_array_unref);
  g_clear_pointer (&prv->row_names, g_ptr_array_unref);
  g_clear_pointer (&prv->states, g_hash_table_unref);
  g_clear_pointer (&prv->event_types, g_hash_table_unref);
}

/* Reads the three files back, checking what the format asks of each. */
static void
prv_parse (const char *prv_text,
           const char *pcf_text,
           const char *row_text,
           Prv        *prv)
{
  g_autoptr(GRegex) header_re = g_regex_new ("^#Paraver \\((\\d\\d)/(\\d\\d)/(\\d\\d) at "
                                             "(\\d\\d):(\\d\\d)\\):(\\d+)_ns:1\\(1\\):1:1\\((\\d+):1\\)$",
                                             0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_auto(GStrv) lines = g_strsplit (prv_text, "\n", -1);
  g_auto(GStrv) pcf = g_strsplit (pcf_text, "\n", -1);
  g_auto(GStrv) row = g_strsplit (row_text, "\n", -1);
  g_autofree char *ftime = NULL;
  g_autofree char *n_threads = NULL;
  gint64 last = 0;
  const char *section = "";
  guint i;

  g_assert_true (g_regex_match (header_re, lines[0], 0, &match));
  ftime = g_match_info_fetch (match, 6);
  n_threads = g_match_info_fetch (match, 7);
  prv->ftime = g_ascii_strtoll (ftime, NULL, 10);
  prv->n_threads = (guint) g_ascii_strtoull (n_threads, NULL, 10);
  g_assert_cmpuint (prv->n_threads, >, 0);

  prv->records = g_array_new (FALSE, TRUE, sizeof (PrvRecord));
  for (i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = NULL;
      PrvRecord r = { 0 };

      if (lines[i][0] == '\0')
        {
          g_assert_null (lines[i + 1]);  /* only the file's last newline */
          break;
        }
      f = g_strsplit (lines[i], ":", -1);
      g_assert_cmpuint (g_strv_length (f), ==, 8);
      r.type = atoi (f[0]);
      r.cpu = atoi (f[1]);
      g_assert_cmpstr (f[2], ==, "1");  /* application */
      g_assert_cmpstr (f[3], ==, "1");  /* task */
      r.thread = (guint) atoi (f[4]);
      r.begin = g_ascii_strtoll (f[5], NULL, 10);
      g_assert_cmpuint (r.thread, >=, 1);
      g_assert_cmpuint (r.thread, <=, prv->n_threads);
      g_assert_cmpint (r.begin, >=, last);  /* in time order */
      g_assert_cmpint (r.begin, <=, prv->ftime);
      last = r.begin;
      if (r.type == 1)
        {
          r.end = g_ascii_strtoll (f[6], NULL, 10);
          r.value = g_ascii_strtoull (f[7], NULL, 10);
          g_assert_cmpint (r.end, >=, r.begin);
          g_assert_cmpint (r.end, <=, prv->ftime);
          /* on the CPU while it runs, on none otherwise */
          g_assert_cmpint (r.cpu, ==, r.value == 1 ? 1 : 0);
        }
      else
        {
          g_assert_cmpint (r.type, ==, 2);
          g_assert_cmpint (r.cpu, ==, 1);
          r.event = (guint) atoi (f[6]);
          r.value = g_ascii_strtoull (f[7], NULL, 10);
        }
      g_array_append_val (prv->records, r);
    }

  /* .pcf: the states, their colours, the event types */
  prv->states = g_hash_table_new (NULL, NULL);
  prv->event_types = g_hash_table_new (NULL, NULL);
  for (i = 0; pcf[i] != NULL; i++)
    {
      const char *l = pcf[i];

      if (l[0] == '\0')
        continue;
      if (g_ascii_isupper (l[0]))
        {
          section = l;
          continue;
        }
      if (g_str_equal (section, "STATES"))
        g_hash_table_add (prv->states, GINT_TO_POINTER (atoi (l)));
      else if (g_str_equal (section, "STATES_COLOR"))
        {
          g_assert_true (g_hash_table_contains (prv->states, GINT_TO_POINTER (atoi (l))));
          g_assert_nonnull (strchr (l, '{'));
        }
      else if (g_str_equal (section, "EVENT_TYPE"))
        {
          char *end = NULL;
          guint64 type;

          g_assert_cmpint (atoi (l), ==, 0);  /* the gradient */
          type = g_ascii_strtoull (strchr (l, ' '), &end, 10);
          g_assert_cmpuint (type, >, 0);
          g_assert_true (*end == ' ' && end[strspn (end, " ")] != '\0');  /* a name */
          g_hash_table_add (prv->event_types, GUINT_TO_POINTER ((guint) type));
        }
    }
  for (guint s = 1; s <= 4; s++)
    g_assert_true (g_hash_table_contains (prv->states, GUINT_TO_POINTER (s)));
  for (i = 0; i < prv->records->len; i++)
    {
      const PrvRecord *r = &g_array_index (prv->records, PrvRecord, i);

      if (r->type == 1)
        g_assert_true (g_hash_table_contains (prv->states, GUINT_TO_POINTER ((guint) r->value)));
      else
        g_assert_true (g_hash_table_contains (prv->event_types, GUINT_TO_POINTER (r->event)));
    }

  /* .row: the thread level lists every thread of the header, a name each */
  prv->row_names = g_ptr_array_new_with_free_func (g_free);
  for (i = 0; row[i] != NULL; i++)
    if (g_str_has_prefix (row[i], "LEVEL THREAD SIZE "))
      {
        guint n = (guint) atoi (row[i] + strlen ("LEVEL THREAD SIZE "));

        g_assert_cmpuint (n, ==, prv->n_threads);
        for (guint k = 1; k <= n; k++)
          {
            g_assert_nonnull (row[i + k]);
            g_assert_cmpstr (row[i + k], !=, "");
            g_ptr_array_add (prv->row_names, g_strdup (row[i + k]));
          }
      }
  g_assert_cmpuint (prv->row_names->len, ==, prv->n_threads);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Prv, prv_clear)

static void
prv_export (TksCapture *capture,
            Prv        *prv)
{
  g_autoptr(GString) prv_text = g_string_new (NULL);
  g_autoptr(GString) pcf = g_string_new (NULL);
  g_autoptr(GString) row = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (tks_export_write_paraver (capture, 0, prv_text, pcf, row, &error));
  g_assert_no_error (error);
  prv_parse (prv_text->str, pcf->str, row->str, prv);
}

static gint64
ns_of (TksCapture *capture,
       double      pos)
{
  return llround ((pos - tks_capture_get_start (capture)) * 1e9 / tks_capture_get_tick_hz (capture));
}

static void
test_paraver (gconstpointer data)
{
  g_autoptr(TksCapture) capture = tks_test_load_data (data);
  g_autoptr(GPtrArray) csv = csv_rows (capture);
  g_autoptr(GArray) threads = exported_threads (capture);
  TksEvents *events = tks_capture_get_events (capture);
  const TksTrack *irqs = NULL, *markers = NULL;
  guint n_irqs = 0, n_markers = 0, n_marker_events = 0, n_ready = 0, n_waiting = 0;
  g_auto(Prv) prv = { 0 };

  prv_export (capture, &prv);
  g_assert_cmpint (prv.ftime, ==, ns_of (capture, tks_capture_get_end (capture)));
  if (events != NULL)
    {
      irqs = tks_events_get_tracks (events, TKS_TRACK_IRQ, &n_irqs);
      markers = tks_events_get_tracks (events, TKS_TRACK_MARKER, &n_markers);
    }
  /* the threads, a row per handler, the capture's */
  g_assert_cmpuint (prv.n_threads, ==, threads->len + n_irqs + 1);
  g_assert_cmpstr (prv.row_names->pdata[prv.n_threads - 1], ==, "capture");

  for (guint t = 0; t < prv.n_threads; t++)
    {
      gboolean is_thread = t < threads->len;
      const TksThread *th = is_thread ? tks_capture_get_thread (capture,
                                                                g_array_index (threads, guint, t))
                                      : NULL;
      guint running = 0, enters = 0, leaves = 0;
      gint64 state_end = 0;

      if (th != NULL && th->name != NULL && th->name[0] != '\0' &&
          g_utf8_validate (th->name, -1, NULL) && strlen (th->name) < 64 &&
          strpbrk (th->name, "\\\x1b\n") == NULL)
        g_assert_cmpstr (prv.row_names->pdata[t], ==, th->name);
      for (guint i = 0; i < prv.records->len; i++)
        {
          const PrvRecord *r = &g_array_index (prv.records, PrvRecord, i);

          if (r->thread != t + 1)
            continue;
          if (r->type == 1)
            {
              /* a row's states do not overlap */
              g_assert_cmpint (r->begin, >=, state_end);
              state_end = r->end;
              running += r->value == 1;
              n_ready += r->value == 2;
              n_waiting += r->value == 3;
              if (events == NULL)
                g_assert_true (r->value == 1 || r->value == 4);
            }
          else if (r->event == 1000)
            {
              enters += r->value != 0;
              leaves += r->value == 0;
            }
          else if (r->event >= 2000 && r->event < 3000)
            n_marker_events++;
        }
      if (is_thread)
        /* a running state per run, as the CSV has them */
        g_assert_cmpuint (running, ==, csv_count (csv, "run", (int) th->index, NULL));
      else if (t < threads->len + n_irqs)
        {
          const TksTrack *track = &irqs[t - threads->len];
          guint n = csv_count (csv, "irq", -1, track->name);
          g_autofree char *label = g_strconcat ("irq ", track->name, NULL);
          guint groups = slice_groups (track, FALSE);

          g_assert_cmpstr (prv.row_names->pdata[t], ==, label);
          g_assert_cmpuint (running, ==, groups);
          g_assert_cmpuint (groups, <=, n);
          g_assert_cmpuint (enters, ==, n);
          g_assert_cmpuint (leaves, ==, n);
        }
    }
  g_assert_cmpuint (n_marker_events, ==, csv_count (csv, "marker", -1, NULL));
  if (n_markers > 0)
    g_assert_cmpuint (n_marker_events, >, 0);
  (void) markers;

  if (events != NULL && tks_events_count (events, TKS_EVENT_READY) > 0)
    {
      /* every wake-up that ended in a switch-in later is a Ready state from its Ready entry to
       * its run, on its thread's row */
      guint n_wakeups;
      const TksWakeup *wakeups = tks_events_get_wakeups (events, &n_wakeups);
      guint n_gaps;
      const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);
      g_autoptr(GHashTable) ready = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      guint found = 0, closed = 0;

      for (guint i = 0; i < prv.records->len; i++)
        {
          const PrvRecord *r = &g_array_index (prv.records, PrvRecord, i);

          if (r->type == 1 && r->value == 2)
            g_hash_table_add (ready, g_strdup_printf ("%u:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
                                                      r->thread, r->begin, r->end));
        }
      g_assert_cmpuint (n_ready, >, 0);
      g_assert_cmpuint (n_waiting, >, 0);
      for (guint w = 0; w < n_wakeups; w++)
        {
          g_autofree char *key = NULL;
          guint row = G_MAXUINT;

          gboolean cut = FALSE;

          /* (a wake-up switched in at once has no Ready state: it lasts no time; nothing is
           * said inside a hole of the log) */
          if (wakeups[w].open || wakeups[w].thread >= tks_capture_get_n_threads (capture) ||
              ns_of (capture, wakeups[w].ready.pos) == ns_of (capture, wakeups[w].run.pos))
            continue;
          for (guint g = 0; g < n_gaps; g++)
            cut |= gaps[g].begin < wakeups[w].run.pos && gaps[g].end > wakeups[w].ready.pos;
          if (cut)
            continue;
          for (guint t = 0; t < threads->len; t++)
            if (g_array_index (threads, guint, t) == wakeups[w].thread)
              row = t + 1;
          closed++;
          key = g_strdup_printf ("%u:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, row,
                                 ns_of (capture, wakeups[w].ready.pos),
                                 ns_of (capture, wakeups[w].run.pos));
          found += g_hash_table_contains (ready, key);
        }
      g_assert_cmpuint (closed, >, 0);
      g_assert_cmpuint (found, ==, closed);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* VCD                                                                                         */

typedef struct
{
  char  *scope;
  char  *name;
  char  *type;
  guint  rises;    /* changes to 1 (wires) */
  guint  changes;  /* value changes after the initial values */
  char   value[40];
} VcdVar;

typedef struct
{
  char       *timescale;
  GHashTable *vars;      /* id -> VcdVar */
  GPtrArray  *ids;       /* in declaration order */
  guint       n_changes;
} Vcd;

static void
vcd_var_free (gpointer data)
{
  VcdVar *var = data;

  g_free (var->scope);
  g_free (var->name);
  g_free (var->type);
  g_free (var);
}

static void
vcd_clear (Vcd *vcd)
{
  g_clear_pointer (&vcd->timescale, g_free);
  g_clear_pointer (&vcd->vars, g_hash_table_unref);
  g_clear_pointer (&vcd->ids, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Vcd, vcd_clear)

/* Reads a VCD back: every declaration well formed (identifier codes of printable ASCII,
 * unique; references of letters, digits and '_', unique in their scope), times that increase,
 * every value change on a declared code. */
static void
vcd_parse (const char *text,
           Vcd        *vcd)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GRegex) name_re = g_regex_new ("^[A-Za-z_][A-Za-z0-9_]*$", 0, 0, NULL);
  g_autoptr(GPtrArray) scopes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean definitions = TRUE, in_dumpvars = FALSE, in_comment = FALSE;
  gint64 time = -1;
  guint i;

  vcd->vars = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, vcd_var_free);
  vcd->ids = g_ptr_array_new_with_free_func (g_free);
  for (i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      g_auto(GStrv) f = NULL;

      if (l[0] == '\0')
        continue;
      if (in_comment)
        {
          in_comment = !g_str_equal (l, "$end");
          g_assert_null (strstr (l, "$end") != l ? strstr (l, "$end") : NULL);
          continue;
        }
      if (definitions)
        {
          f = g_strsplit (l, " ", -1);
          if (g_str_equal (l, "$date") || g_str_equal (l, "$version") || g_str_equal (l, "$comment"))
            in_comment = TRUE;
          else if (g_str_has_prefix (l, "$timescale "))
            {
              g_assert_cmpuint (g_strv_length (f), ==, 4);
              g_assert_cmpstr (f[3], ==, "$end");
              vcd->timescale = g_strdup_printf ("%s %s", f[1], f[2]);
            }
          else if (g_str_has_prefix (l, "$scope "))
            {
              g_assert_cmpuint (g_strv_length (f), ==, 4);
              g_assert_true (g_regex_match (name_re, f[2], 0, NULL));
              g_ptr_array_add (scopes, g_strdup (f[2]));
            }
          else if (g_str_equal (l, "$upscope $end"))
            {
              g_assert_cmpuint (scopes->len, >, 0);
              g_ptr_array_remove_index (scopes, scopes->len - 1);
            }
          else if (g_str_has_prefix (l, "$var "))
            {
              VcdVar *var = g_new0 (VcdVar, 1);
              g_autofree char *scoped = NULL;

              g_assert_cmpuint (g_strv_length (f), ==, 6);
              g_assert_cmpstr (f[5], ==, "$end");
              g_assert_true (g_str_equal (f[1], "wire") || g_str_equal (f[1], "integer"));
              g_assert_cmpstr (f[2], ==, g_str_equal (f[1], "wire") ? "1" : "32");
              for (const char *c = f[3]; *c != '\0'; c++)
                g_assert_true (*c >= '!' && *c <= '~');
              g_assert_true (g_regex_match (name_re, f[4], 0, NULL));
              g_assert_cmpuint (scopes->len, >, 0);
              scoped = g_strdup_printf ("%s.%s", (char *) scopes->pdata[scopes->len - 1], f[4]);
              g_assert_false (g_hash_table_contains (names, scoped));
              g_hash_table_add (names, g_steal_pointer (&scoped));
              g_assert_false (g_hash_table_contains (vcd->vars, f[3]));
              var->scope = g_strdup (scopes->pdata[scopes->len - 1]);
              var->name = g_strdup (f[4]);
              var->type = g_strdup (f[1]);
              g_strlcpy (var->value, "x", sizeof var->value);
              g_hash_table_insert (vcd->vars, g_strdup (f[3]), var);
              g_ptr_array_add (vcd->ids, g_strdup (f[3]));
            }
          else
            {
              g_assert_cmpstr (l, ==, "$enddefinitions $end");
              g_assert_cmpuint (scopes->len, ==, 0);
              definitions = FALSE;
            }
          continue;
        }

      if (l[0] == '#')
        {
          gint64 t = g_ascii_strtoll (l + 1, NULL, 10);

          g_assert_cmpint (t, >, time);  /* times increase */
          time = t;
        }
      else if (g_str_equal (l, "$dumpvars"))
        {
          g_assert_cmpint (time, ==, 0);
          in_dumpvars = TRUE;
        }
      else if (g_str_equal (l, "$end"))
        {
          g_assert_true (in_dumpvars);
          in_dumpvars = FALSE;
        }
      else
        {
          const char *id;
          g_autofree char *value = NULL;
          VcdVar *var;

          g_assert_cmpint (time, >=, 0);
          if (l[0] == 'b')
            {
              const char *space = strchr (l, ' ');

              g_assert_nonnull (space);
              value = g_strndup (l + 1, space - l - 1);
              g_assert_cmpuint (strspn (value, "01"), ==, strlen (value));
              g_assert_cmpuint (strlen (value), <=, 32);
              id = space + 1;
            }
          else
            {
              g_assert_nonnull (strchr ("01xz", l[0]));
              value = g_strndup (l, 1);
              id = l + 1;
            }
          var = g_hash_table_lookup (vcd->vars, id);
          g_assert_nonnull (var);  /* a declared code */
          g_assert_cmpstr (var->type, ==, l[0] == 'b' ? "integer" : "wire");
          if (!in_dumpvars)
            {
              var->changes++;
              vcd->n_changes++;
              if (g_str_equal (value, "1") && !g_str_equal (var->value, "1"))
                var->rises++;
            }
          g_strlcpy (var->value, value, sizeof var->value);
        }
    }
  g_assert_false (definitions);
  g_assert_nonnull (vcd->timescale);
}

static char *
vcd_export (TksCapture *capture,
            double      tick_hz)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (tks_export_write (capture, TKS_EXPORT_VCD, tick_hz, text, &error));
  g_assert_no_error (error);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The variables of @scope, in declaration order. */
static GPtrArray *
vcd_scope (Vcd        *vcd,
           const char *scope)
{
  GPtrArray *vars = g_ptr_array_new ();

  for (guint i = 0; i < vcd->ids->len; i++)
    {
      VcdVar *var = g_hash_table_lookup (vcd->vars, vcd->ids->pdata[i]);

      if (g_str_equal (var->scope, scope))
        g_ptr_array_add (vars, var);
    }
  return vars;
}

static void
test_vcd (gconstpointer data)
{
  g_autoptr(TksCapture) capture = tks_test_load_data (data);
  g_autoptr(GPtrArray) csv = csv_rows (capture);
  g_autoptr(GArray) threads = exported_threads (capture);
  g_autofree char *text = vcd_export (capture, 0);
  g_autoptr(GPtrArray) thread_vars = NULL;
  g_autoptr(GPtrArray) handler_vars = NULL;
  g_autoptr(GPtrArray) marker_vars = NULL;
  TksEvents *events = tks_capture_get_events (capture);
  g_auto(Vcd) vcd = { 0 };

  vcd_parse (text, &vcd);
  thread_vars = vcd_scope (&vcd, "threads");
  handler_vars = vcd_scope (&vcd, "handlers");
  marker_vars = vcd_scope (&vcd, "markers");

  /* a wire per thread, rising once per run */
  g_assert_cmpuint (thread_vars->len, ==, threads->len);
  for (guint t = 0; t < threads->len; t++)
    {
      const VcdVar *var = thread_vars->pdata[t];
      const TksThread *th = tks_capture_get_thread (capture, g_array_index (threads, guint, t));

      g_assert_cmpstr (var->type, ==, "wire");
      g_assert_cmpuint (var->rises, ==, csv_count (csv, "run", (int) th->index, NULL));
    }
  if (events != NULL)
    {
      guint n_irqs, n_markers;
      const TksTrack *irqs = tks_events_get_tracks (events, TKS_TRACK_IRQ, &n_irqs);
      const TksTrack *markers = tks_events_get_tracks (events, TKS_TRACK_MARKER, &n_markers);

      /* the counter's resolution */
      if (tks_events_has_counter (events) && tks_events_get_info (events)->counter_hz > 100000000)
        g_assert_cmpstr (vcd.timescale, ==, "1 ns");
      g_assert_cmpuint (handler_vars->len, ==, n_irqs);
      for (guint i = 0; i < n_irqs; i++)
        {
          const VcdVar *var = handler_vars->pdata[i];

          g_assert_cmpuint (var->rises, ==, slice_groups (&irqs[i], TRUE));
          g_assert_cmpuint (var->rises, <=, csv_count (csv, "irq", -1, irqs[i].name));
          g_assert_cmpuint (var->rises, >, 0);
        }
      g_assert_cmpuint (marker_vars->len, ==, n_markers);
      for (guint i = 0; i < n_markers; i++)
        {
          const VcdVar *var = marker_vars->pdata[i];

          g_assert_cmpstr (var->type, ==, "integer");
          g_assert_cmpuint (var->changes, ==, csv_count (csv, "marker", -1, markers[i].name));
        }
    }
  else
    {
      g_assert_cmpuint (handler_vars->len, ==, 0);
      g_assert_cmpuint (marker_vars->len, ==, 0);
    }
}

/* One record per tick. */
static const char one_per_tick_transcript[] =
  "threads_list\r\n"
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
  "ch> threads_timestamps\r\n"
  "From  1 to  2 at     100\r\n"
  "From  2 to  1 at     102\r\n"
  "From  1 to  2 at     107\r\n"
  "ch> ";

/* The largest unit that counts a tick whole and keeps records of one tick apart. */
static void
test_vcd_timescale (void)
{
  static const struct
  {
    const char *text;
    double      tick_hz;
    const char *timescale;
  } cases[] = {
    { one_per_tick_transcript, 10000, "100 us" },
    { one_per_tick_transcript, 1000, "1 ms" },
    { one_per_tick_transcript, 1, "1 s" },
    { one_per_tick_transcript, 1024, "100 ps" },  /* 976.5625 us */
    { one_per_tick_transcript, 32768, "1 ps" },   /* 30.517578125 us: rounded */
    /* two records in a tick: at least 2 units a tick */
    { tks_test_simple_transcript, 1000, "100 us" },
    { tks_test_simple_transcript, 10000, "10 us" },
    { tks_test_mixed_transcript, 1000, "100 us" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TksCapture) capture = tks_test_capture_of_text (cases[i].text, -1);
      g_autofree char *text = vcd_export (capture, cases[i].tick_hz);
      g_autoptr(GPtrArray) csv = csv_rows (capture);
      g_autoptr(GPtrArray) vars = NULL;
      g_auto(Vcd) vcd = { 0 };

      vcd_parse (text, &vcd);
      g_assert_cmpstr (vcd.timescale, ==, cases[i].timescale);
      vars = vcd_scope (&vcd, "threads");
      for (guint t = 0; t < vars->len; t++)
        if (g_str_equal (((VcdVar *) vars->pdata[t])->name, "main"))
          /* main's runs apart, whatever the unit */
          g_assert_cmpuint (((VcdVar *) vars->pdata[t])->rises, ==,
                            csv_count (csv, "run", -1, "main"));
    }
  {
    /* times in the unit: main runs from tick 102 to 107, the capture starts at tick 100 */
    g_autoptr(TksCapture) capture = tks_test_capture_of_text (one_per_tick_transcript, -1);
    g_autofree char *text = vcd_export (capture, 10000);

    g_assert_nonnull (strstr (text, "\n#2\n"));
    g_assert_nonnull (strstr (text, "\n#7\n"));
  }
}

/* Any name gives a valid, unique reference: spaces, escapes, UTF-8, leading digits, names
 * the threads share, a name like a keyword. */
static void
test_vcd_names (void)
{
  static const char text[] =
    "threads_list\r\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = my thread\r\n"
    "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
    "Thread number  3 : Prio =  20, Log = Yes, Name = capteur \xc3\xa0 5 \xc2\xb0" "C\r\n"
    "Thread number  4 : Prio =  20, Log = Yes, Name = esc\x1b[31mred\x07\r\n"
    "Thread number  5 : Prio =  20, Log = Yes, Name = my_thread\r\n"
    "Thread number  6 : Prio =  20, Log = Yes, Name = 2nd\r\n"
    "Thread number  7 : Prio =  20, Log = Yes, Name = $end\r\n"
    "Thread number  8 : Prio =  20, Log = Yes, Name = my thread\r\n"
    "Thread number  9 : Prio =  20, Log = Yes, Name = a[3]:b\r\n"
    "ch> threads_timestamps\r\n"
    "From  1 to  2 at     100\r\n"
    "From  2 to  3 at     101\r\n"
    "From  3 to  4 at     102\r\n"
    "From  4 to  5 at     103\r\n"
    "From  5 to  6 at     104\r\n"
    "From  6 to  7 at     105\r\n"
    "From  7 to  8 at     106\r\n"
    "From  8 to  9 at     107\r\n"
    "From  9 to  1 at     108\r\n"
    "ch> ";
  g_autoptr(TksCapture) capture = tks_test_capture_of_text (text, -1);
  g_autofree char *vcd_text = vcd_export (capture, 0);
  g_autoptr(GPtrArray) vars = NULL;
  g_auto(Vcd) vcd = { 0 };

  vcd_parse (vcd_text, &vcd);  /* valid and unique */
  vars = vcd_scope (&vcd, "threads");
  g_assert_cmpuint (vars->len, ==, 9);
  g_assert_cmpstr (((VcdVar *) vars->pdata[0])->name, ==, "my_thread");
  g_assert_cmpstr (((VcdVar *) vars->pdata[4])->name, ==, "my_thread_2");
  g_assert_cmpstr (((VcdVar *) vars->pdata[5])->name, ==, "_2nd");
  g_assert_cmpstr (((VcdVar *) vars->pdata[7])->name, ==, "my_thread_3");
  for (guint t = 0; t < vars->len; t++)
    g_assert_cmpuint (((VcdVar *) vars->pdata[t])->rises, ==, 1);
}

/* Past 94 signals, identifier codes take two characters and stay unique (the parse checks
 * it): a board listing 120 threads. */
static void
test_vcd_many_signals (void)
{
  g_autoptr(GString) text = g_string_new ("threads_list\r\n");
  g_autoptr(TksCapture) capture = NULL;
  g_autofree char *vcd_text = NULL;
  g_autoptr(GPtrArray) vars = NULL;
  g_auto(Vcd) vcd = { 0 };

  for (guint i = 1; i <= 120; i++)
    g_string_append_printf (text, "Thread number %3u : Prio = %3u, Log = Yes, Name = t%u\r\n", i,
                            i, i);
  g_string_append (text, "ch> threads_timestamps\r\n");
  for (guint i = 1; i < 60; i++)
    g_string_append_printf (text, "From %2u to %2u at %7u\r\n", i, i + 1, 100 + i);
  g_string_append (text, "ch> ");
  capture = tks_test_capture_of_text (text->str, -1);
  vcd_text = vcd_export (capture, 0);
  vcd_parse (vcd_text, &vcd);
  g_assert_cmpuint (vcd.ids->len, >, 94);
  vars = vcd_scope (&vcd, "threads");
  g_assert_cmpuint (vars->len, ==, 120);
  for (guint t = 1; t < 59; t++)
    g_assert_cmpuint (((VcdVar *) vars->pdata[t])->rises, ==, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Files                                                                                       */

static char *
contents (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* The names in @dir, sorted, joined by spaces. */
static char *
listing (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static void
remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        remove_tree (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}

/* NAME or NAME.prv: NAME.prv, NAME.pcf and NAME.row, each written whole; a failure leaves
 * every file as it was and no temporary file behind. */
static void
test_files (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-events-v2.raw.txt");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tks-export-XXXXXX", &error);
  g_autofree char *bare = g_build_filename (dir, "trace", NULL);
  g_autofree char *named = g_build_filename (dir, "named.PRV", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad", NULL);
  g_autofree char *bad_prv = g_build_filename (dir, "bad.prv", NULL);
  g_autofree char *bad_pcf = g_build_filename (dir, "bad.pcf", NULL);
  g_autofree char *vcd_path = g_build_filename (dir, "wave.vcd", NULL);
  g_autofree char *missing = g_build_filename (dir, "no", "such", "dir", "x", NULL);
  g_auto(GStrv) paths = tks_export_get_paths (TKS_EXPORT_PARAVER, named);
  g_autofree char *names = NULL;
  g_auto(Prv) prv = { 0 };

  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (paths), ==, 3);
  g_assert_true (g_str_has_suffix (paths[0], "/named.prv"));
  g_assert_true (g_str_has_suffix (paths[1], "/named.pcf"));
  g_assert_true (g_str_has_suffix (paths[2], "/named.row"));

  g_assert_true (tks_export_to_file (capture, TKS_EXPORT_PARAVER, 0, TKS_EXPORT_UNIT_TICKS, bare,
                                     NULL, &error));
  g_assert_no_error (error);
  g_assert_true (tks_export_to_file (capture, TKS_EXPORT_PARAVER, 0, TKS_EXPORT_UNIT_TICKS, named,
                                     NULL, &error));
  g_assert_no_error (error);
  {
    g_autofree char *prv_path = g_strconcat (bare, ".prv", NULL);
    g_autofree char *pcf_path = g_strconcat (bare, ".pcf", NULL);
    g_autofree char *row_path = g_strconcat (bare, ".row", NULL);
    g_autofree char *prv_text = contents (prv_path);
    g_autofree char *pcf_text = contents (pcf_path);
    g_autofree char *row_text = contents (row_path);

    prv_parse (prv_text, pcf_text, row_text, &prv);
  }

  /* NAME.pcf cannot be written (a folder has its name): nothing changes */
  g_assert_true (g_file_set_contents (bad_prv, "old", -1, NULL));
  g_assert_cmpint (g_mkdir (bad_pcf, 0755), ==, 0);
  g_assert_false (tks_export_to_file (capture, TKS_EXPORT_PARAVER, 0, TKS_EXPORT_UNIT_TICKS, bad,
                                      NULL, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "bad.pcf"));
  g_clear_error (&error);
  {
    g_autofree char *old = contents (bad_prv);

    g_assert_cmpstr (old, ==, "old");
  }
  g_assert_false (tks_export_to_file (capture, TKS_EXPORT_VCD, 0, TKS_EXPORT_UNIT_TICKS, missing,
                                      NULL, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_IO);
  g_clear_error (&error);

  /* a single file the same way */
  g_assert_true (tks_export_to_file (capture, TKS_EXPORT_VCD, 0, TKS_EXPORT_UNIT_TICKS, vcd_path,
                                     NULL, &error));
  g_assert_no_error (error);
  {
    g_autofree char *text = contents (vcd_path);
    g_auto(Vcd) vcd = { 0 };

    vcd_parse (text, &vcd);
    g_assert_cmpuint (vcd.n_changes, >, 0);
  }

  names = listing (dir);
  g_assert_cmpstr (names, ==, "bad.pcf bad.prv named.pcf named.prv named.row trace.pcf trace.prv "
                              "trace.row wave.vcd");
  remove_tree (dir);
}

/* Paraver is three files: a stream of one cannot hold it. */
static void
test_paraver_stream_refused (void)
{
  g_autoptr(TksCapture) capture = tks_test_capture_of_text (tks_test_simple_transcript, -1);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  TksExportFormat format;

  g_assert_false (tks_export_write (capture, TKS_EXPORT_PARAVER, 0, out, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
  g_assert_true (tks_export_format_from_string ("paraver", &format));
  g_assert_cmpint (format, ==, TKS_EXPORT_PARAVER);
  g_assert_true (tks_export_format_from_string ("VCD", &format));
  g_assert_cmpint (format, ==, TKS_EXPORT_VCD);
  g_assert_cmpstr (tks_export_format_to_string (TKS_EXPORT_PARAVER), ==, "paraver");
  g_assert_cmpstr (tks_export_format_to_string (TKS_EXPORT_VCD), ==, "vcd");
}

/* A capture without events: running and not running only, unlogged threads' switches and
 * the exit as events, the trigger on the capture's row. */
static void
test_paraver_mixed (void)
{
  g_autoptr(TksCapture) capture = tks_test_capture_of_text (tks_test_mixed_transcript, -1);
  g_auto(Prv) prv = { 0 };
  guint unlogged = 0, exits = 0, triggers = 0;

  prv_export (capture, &prv);
  g_assert_cmpuint (prv.n_threads, ==, 5);
  g_assert_cmpstr (prv.row_names->pdata[2], ==, "odd, \"name\"");
  g_assert_cmpstr (prv.row_names->pdata[4], ==, "capture");
  for (guint i = 0; i < prv.records->len; i++)
    {
      const PrvRecord *r = &g_array_index (prv.records, PrvRecord, i);

      if (r->type == 1)
        g_assert_true (r->value == 1 || r->value == 4);
      else if (r->event == 3001)
        {
          g_assert_cmpuint (r->thread, ==, 3);
          unlogged++;
        }
      else if (r->event == 3000)
        {
          g_assert_cmpuint (r->thread, ==, 4);
          exits++;
        }
      else if (r->event == 3002)
        {
          g_assert_cmpuint (r->thread, ==, 5);
          g_assert_cmpint (r->begin, ==, 5000000);  /* tick 205, from 200 at 1 kHz */
          triggers++;
        }
    }
  g_assert_cmpuint (unlogged, ==, 2);
  g_assert_cmpuint (exits, ==, 1);
  g_assert_cmpuint (triggers, ==, 1);
}

/* GTKWave's own reader takes the export: vcd2fst converts it, and fst2vcd gives back every
 * signal with as many value changes. */
static void
test_vcd_gtkwave (gconstpointer data)
{
  g_autofree char *vcd2fst = g_find_program_in_path ("vcd2fst");
  g_autofree char *fst2vcd = g_find_program_in_path ("fst2vcd");
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *vcd_path = NULL;
  g_autofree char *fst_path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *text = NULL;
  g_auto(Vcd) vcd = { 0 };
  int status;

  if (vcd2fst == NULL)
    {
      g_test_skip ("vcd2fst not found: install Debian's gtkwave (tools/install-deps.sh) to "
                   "check the VCD export with GTKWave's reader");
      return;
    }
  capture = tks_test_load_data (data);
  dir = g_dir_make_tmp ("tks-vcd-XXXXXX", &error);
  g_assert_no_error (error);
  vcd_path = g_build_filename (dir, "wave.vcd", NULL);
  fst_path = g_build_filename (dir, "wave.fst", NULL);
  g_assert_true (tks_export_to_file (capture, TKS_EXPORT_VCD, 0, TKS_EXPORT_UNIT_TICKS, vcd_path,
                                     NULL, &error));
  g_assert_no_error (error);
  {
    const char *argv[] = { vcd2fst, vcd_path, fst_path, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                 &err, &status, &error));
    g_assert_no_error (error);
    if (!g_spawn_check_wait_status (status, NULL))
      g_error ("vcd2fst failed on the export: %s", err);
  }
  g_assert_true (g_file_test (fst_path, G_FILE_TEST_IS_REGULAR));
  text = contents (vcd_path);
  vcd_parse (text, &vcd);
  if (fst2vcd != NULL)
    {
      const char *argv[] = { fst2vcd, fst_path, NULL };

      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                   &err, &status, &error));
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      /* fst2vcd writes its timescale on lines of its own: only the variables count here */
      {
        g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
        guint n_vars = 0, n_values = 0;
        gboolean body = FALSE, dump = FALSE;

        for (guint i = 0; lines[i] != NULL; i++)
          {
            const char *l = lines[i];

            if (g_str_has_prefix (l, "$var "))
              n_vars++;
            else if (g_str_has_prefix (l, "$enddefinitions"))
              body = TRUE;
            else if (body && g_str_equal (l, "$dumpvars"))
              dump = TRUE;
            else if (body && g_str_equal (l, "$end"))
              dump = FALSE;
            else if (body && !dump && l[0] != '#' && l[0] != '\0')
              n_values++;
          }
        g_assert_cmpuint (n_vars, ==, vcd.ids->len);
        /* at one time, fst2vcd keeps a signal's last value: a change undone in the same
         * instant counts once or not at all */
        g_assert_cmpuint (n_values, <=, vcd.n_changes);
        g_assert_cmpuint (n_values + vcd.n_changes / 100, >=, vcd.n_changes);
      }
    }
  remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (captures); i++)
    {
      g_autofree char *prv = g_strdup_printf ("/export/paraver/%s", captures[i]);
      g_autofree char *vcd = g_strdup_printf ("/export/vcd/%s", captures[i]);

      g_test_add_data_func (prv, captures[i], test_paraver);
      g_test_add_data_func (vcd, captures[i], test_vcd);
    }
  g_test_add_func ("/export/paraver/mixed", test_paraver_mixed);
  g_test_add_func ("/export/paraver/stream-refused", test_paraver_stream_refused);
  g_test_add_func ("/export/vcd/timescale", test_vcd_timescale);
  g_test_add_func ("/export/vcd/names", test_vcd_names);
  g_test_add_func ("/export/vcd/many-signals", test_vcd_many_signals);
  g_test_add_func ("/export/files", test_files);
  g_test_add_data_func ("/export/vcd/gtkwave/simboard", "simboard-record-events.raw.txt",
                        test_vcd_gtkwave);
  g_test_add_data_func ("/export/vcd/gtkwave/board", "board-run-mode.raw.txt", test_vcd_gtkwave);

  return g_test_run ();
}
