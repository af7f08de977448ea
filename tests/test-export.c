/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tks-capture.h"
#include "tks-error.h"
#include "tks-export.h"
#include "tks-test-csv.h"
#include "tks-test-data.h"
#include "tks-test-fixtures.h"

#if HAVE_JSON_GLIB
#include <json-glib/json-glib.h>
#endif


static const char *real_files[] = {
  "board-run-mode.raw.txt",
  "board-trigger-exits.raw.txt",
  "board-trigger-exits.saved.txt",
  "board-partly-logged-trigger.raw.txt",
  "board-tick-wrap.raw.txt",
};

static TksCapture *
load_text (const char *text)
{
  return tks_test_capture_of_text (text, -1);
}

static char *
export (TksCapture      *capture,
        TksExportFormat  format,
        double           tick_hz)
{
  g_autoptr(GError) error = NULL;
  GString *out = g_string_new (NULL);

  g_assert_true (tks_export_write (capture, format, tick_hz, out, &error));
  g_assert_no_error (error);
  return g_string_free (out, FALSE);
}

static void
count_capture (TksCapture *capture,
               guint      *n_runs,
               guint      *n_in,
               guint      *n_out,
               guint      *n_exits)
{
  *n_runs = *n_in = *n_out = *n_exits = 0;

  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *t = tks_capture_get_thread (capture, i);

      *n_runs += t->n_runs;
      for (guint m = 0; m < t->n_marks; m++)
        {
          if (t->marks[m].kind == TKS_MARK_IN)
            (*n_in)++;
          else
            (*n_out)++;
        }
      if (t->flags & TKS_THREAD_EXITED)
        (*n_exits)++;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* A strict JSON syntax check (RFC 8259), independent of any JSON library.                     */

typedef struct
{
  const char *p;
  const char *end;
  guint       depth;
} JsonCheck;

static gboolean json_value (JsonCheck *c);

static void
json_ws (JsonCheck *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static gboolean
json_literal (JsonCheck  *c,
              const char *word)
{
  gsize len = strlen (word);

  if ((gsize) (c->end - c->p) < len || memcmp (c->p, word, len) != 0)
    return FALSE;
  c->p += len;
  return TRUE;
}

static gboolean
json_string (JsonCheck *c)
{
  const char *start;

  if (c->p >= c->end || *c->p != '"')
    return FALSE;
  start = ++c->p;
  while (c->p < c->end && *c->p != '"')
    {
      guchar ch = (guchar) *c->p;

      if (ch < 0x20)
        return FALSE;
      if (ch == '\\')
        {
          c->p++;
          if (c->p >= c->end)
            return FALSE;
          if (*c->p == 'u')
            {
              for (int i = 1; i <= 4; i++)
                if (c->p + i >= c->end || !g_ascii_isxdigit (c->p[i]))
                  return FALSE;
              c->p += 4;
            }
          else if (strchr ("\"\\/bfnrt", *c->p) == NULL)
            return FALSE;
        }
      c->p++;
    }
  if (c->p >= c->end)
    return FALSE;
  if (!g_utf8_validate (start, c->p - start, NULL))
    return FALSE;
  c->p++;
  return TRUE;
}

static gboolean
json_number (JsonCheck *c)
{
  const char *start = c->p;

  if (c->p < c->end && *c->p == '-')
    c->p++;
  if (c->p >= c->end || !g_ascii_isdigit (*c->p))
    return FALSE;
  if (*c->p == '0')
    c->p++;
  else
    while (c->p < c->end && g_ascii_isdigit (*c->p))
      c->p++;
  if (c->p < c->end && *c->p == '.')
    {
      c->p++;
      if (c->p >= c->end || !g_ascii_isdigit (*c->p))
        return FALSE;
      while (c->p < c->end && g_ascii_isdigit (*c->p))
        c->p++;
    }
  if (c->p < c->end && (*c->p == 'e' || *c->p == 'E'))
    {
      c->p++;
      if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
        c->p++;
      if (c->p >= c->end || !g_ascii_isdigit (*c->p))
        return FALSE;
      while (c->p < c->end && g_ascii_isdigit (*c->p))
        c->p++;
    }
  return c->p > start;
}

static gboolean
json_container (JsonCheck *c,
                char       open,
                char       close)
{
  gboolean first = TRUE;

  if (++c->depth > 64)
    return FALSE;
  c->p++; /* open */
  json_ws (c);
  if (c->p < c->end && *c->p == close)
    {
      c->p++;
      c->depth--;
      return TRUE;
    }
  for (;;)
    {
      if (!first)
        {
          json_ws (c);
          if (c->p < c->end && *c->p == close)
            break;
          if (c->p >= c->end || *c->p != ',')
            return FALSE;
          c->p++;
        }
      first = FALSE;
      json_ws (c);
      if (open == '{')
        {
          if (!json_string (c))
            return FALSE;
          json_ws (c);
          if (c->p >= c->end || *c->p != ':')
            return FALSE;
          c->p++;
        }
      if (!json_value (c))
        return FALSE;
    }
  c->p++;
  c->depth--;
  return TRUE;
}

static gboolean
json_value (JsonCheck *c)
{
  json_ws (c);
  if (c->p >= c->end)
    return FALSE;
  switch (*c->p)
    {
    case '{':
      return json_container (c, '{', '}');
    case '[':
      return json_container (c, '[', ']');
    case '"':
      return json_string (c);
    case 't':
      return json_literal (c, "true");
    case 'f':
      return json_literal (c, "false");
    case 'n':
      return json_literal (c, "null");
    default:
      return json_number (c);
    }
}

static gboolean
json_is_valid (const char *text)
{
  JsonCheck c = { text, text + strlen (text), 0 };

  if (!json_value (&c))
    return FALSE;
  json_ws (&c);
  return c.p == c.end;
}

static void
test_json_checker (void)
{
  g_assert_true (json_is_valid ("{\"a\":[1,2.5,-3e2,true,null,\"x\\\"y\"]}"));
  g_assert_false (json_is_valid ("{\"a\":[1,2,]}"));
  g_assert_false (json_is_valid ("{\"a\":1,}"));
  g_assert_false (json_is_valid ("{\"a\":01}"));
  g_assert_false (json_is_valid ("{\"a\":\"tab\there\"}"));
  g_assert_false (json_is_valid ("{\"a\":1} x"));
  g_assert_false (json_is_valid ("{\"a\":1,5}"));
}

/* ------------------------------------------------------------------------------------------ */
/* Perfetto / Chrome trace-event JSON                                                          */

static void
check_perfetto (TksCapture *capture,
                const char *json,
                double      tick_hz)
{
  guint n_runs, n_in, n_out, n_exits;

  g_assert_true (json_is_valid (json));
  count_capture (capture, &n_runs, &n_in, &n_out, &n_exits);

#if HAVE_JSON_GLIB
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;
    JsonArray *events;
    guint n_x = 0, n_in_ev = 0, n_out_ev = 0, n_exit_ev = 0, n_trigger = 0;
    guint n_names = 0, n_sort = 0, n_process = 0, n_log_end = 0;
    double log_end = tks_capture_get_log_end (capture, NULL);
    g_autofree int *sort_index = NULL;
    g_autofree guint *runs_seen = NULL;
    guint n_threads = tks_capture_get_n_threads (capture);
    guint n_tracks = n_threads - tks_capture_get_n_exited_before_log (capture);
    const guint *lanes;
    guint n_lanes = 0;
    double trigger;

    g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
    g_assert_no_error (error);
    g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
    events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                           "traceEvents");
    g_assert_nonnull (events);

    sort_index = g_new0 (int, n_threads + 1);
    runs_seen = g_new0 (guint, n_threads + 1);
    for (guint i = 0; i <= n_threads; i++)
      sort_index[i] = -1;

    for (guint i = 0; i < json_array_get_length (events); i++)
      {
        JsonObject *ev = json_array_get_object_element (events, i);
        const char *ph = json_object_get_string_member (ev, "ph");
        const char *name = json_object_get_string_member (ev, "name");
        gint64 tid = json_object_get_int_member_with_default (ev, "tid", -1);

        g_assert_nonnull (ph);
        g_assert_nonnull (name);
        g_assert_cmpint (json_object_get_int_member (ev, "pid"), ==, 1);

        if (strcmp (ph, "M") == 0)
          {
            JsonObject *args = json_object_get_object_member (ev, "args");

            g_assert_nonnull (args);
            if (strcmp (name, "thread_name") == 0)
              {
                const TksThread *t;

                g_assert_cmpint (tid, >=, 1);
                g_assert_cmpint (tid, <=, n_threads);
                t = tks_capture_get_thread (capture, (guint) tid - 1);
                g_assert_false (t->flags & TKS_THREAD_EXITED_BEFORE_LOG);
                if (t->name != NULL && g_utf8_validate (t->name, -1, NULL))
                  g_assert_true (g_str_has_prefix (json_object_get_string_member (args, "name"),
                                                   t->name));
                n_names++;
              }
            else if (strcmp (name, "thread_sort_index") == 0)
              {
                g_assert_cmpint (tid, >=, 1);
                g_assert_cmpint (tid, <=, n_threads);
                sort_index[tid] = (int) json_object_get_int_member (args, "sort_index");
                n_sort++;
              }
            else if (strcmp (name, "process_name") == 0)
              n_process++;
          }
        else if (strcmp (ph, "X") == 0)
          {
            const TksThread *t;
            double ts = json_object_get_double_member (ev, "ts");
            double dur = json_object_get_double_member (ev, "dur");
            const TksRun *run;

            g_assert_cmpint (tid, >=, 1);
            g_assert_cmpint (tid, <=, n_threads);
            t = tks_capture_get_thread (capture, (guint) tid - 1);
            /* a run is a slice named after its thread */
            g_assert_cmpstr (json_object_get_string_member (ev, "cat"), ==, "run");
            if (t->name == NULL || t->name[0] == '\0')
              {
                g_autofree char *unnamed = g_strdup_printf ("thread %d", t->number);

                g_assert_cmpstr (name, ==, unnamed);
              }
            else if (strlen (t->name) < 64 && g_utf8_validate (t->name, -1, NULL))
              g_assert_cmpstr (name, ==, t->name);
            g_assert_cmpuint (runs_seen[tid], <, t->n_runs);
            run = &t->runs[runs_seen[tid]++];
            g_assert_cmpfloat (dur, >=, 0);
            g_assert_cmpfloat_with_epsilon (ts, run->begin * 1e6 / tick_hz, 1e-3);
            g_assert_cmpfloat_with_epsilon (ts + dur, run->end * 1e6 / tick_hz, 2e-3);
            n_x++;
          }
        else if (strcmp (ph, "i") == 0)
          {
            g_assert_true (json_object_has_member (ev, "ts"));
            if (strcmp (name, "in") == 0)
              n_in_ev++;
            else if (strcmp (name, "out") == 0)
              n_out_ev++;
            else if (strcmp (name, "exit") == 0)
              {
                const TksThread *t = tks_capture_get_thread (capture, (guint) tid - 1);

                g_assert_true (t->flags & TKS_THREAD_EXITED);
                g_assert_cmpfloat_with_epsilon (json_object_get_double_member (ev, "ts"),
                                                t->exit_time * 1e6 / tick_hz, 1e-3);
                g_assert_cmpint (json_object_has_member (ev, "args"), ==,
                                 !!(t->flags & TKS_THREAD_EXITED_AFTER_LOG_END));
                n_exit_ev++;
              }
            else if (strcmp (name, "log_end") == 0)
              {
                g_assert_cmpstr (json_object_get_string_member (ev, "s"), ==, "g");
                g_assert_cmpfloat_with_epsilon (json_object_get_double_member (ev, "ts"),
                                                log_end * 1e6 / tick_hz, 1e-3);
                g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (ev, "args"),
                                                             "exits_after"), ==,
                                 tks_capture_get_n_exits_after_log_end (capture));
                n_log_end++;
              }
            else if (strcmp (name, "trigger") == 0)
              {
                g_assert_cmpstr (json_object_get_string_member (ev, "s"), ==, "g");
                n_trigger++;
              }
            else
              g_assert_not_reached ();
          }
        else
          g_assert_not_reached ();
      }

    g_assert_cmpuint (n_process, ==, 1);
    g_assert_cmpuint (n_names, ==, n_tracks);
    g_assert_cmpuint (n_sort, ==, n_tracks);
    g_assert_cmpuint (n_log_end, ==, log_end < tks_capture_get_end (capture) ? 1 : 0);
    g_assert_cmpuint (n_x, ==, n_runs);
    g_assert_cmpuint (n_in_ev, ==, n_in);
    g_assert_cmpuint (n_out_ev, ==, n_out);
    g_assert_cmpuint (n_exit_ev, ==, n_exits);
    g_assert_cmpuint (n_trigger, ==, tks_capture_get_trigger (capture, &trigger) ? 1 : 0);

    /* Tracks are sorted like the lanes: top lane first. */
    lanes = tks_capture_get_lanes (capture, &n_lanes);
    g_assert_cmpuint (n_lanes, ==, n_threads);
    for (guint l = 0; l < n_lanes; l++)
      if (!(tks_capture_get_thread (capture, lanes[l])->flags & TKS_THREAD_EXITED_BEFORE_LOG))
        g_assert_cmpint (sort_index[lanes[l] + 1], ==, (int) l);
  }
#else
  (void) tick_hz;
  g_assert_cmpuint (n_runs, ==, n_runs);
#endif
}

/* A hole in the log (the board printed a reply from 103 to 150): a "not_recorded" row, slice
 * and mark, and the runs around it end and begin at its ends. */
static void
test_gap_exported (void)
{
  g_autoptr(TksCapture) capture = load_text (TKS_TEST_GAP_CAPTURE "ch> \n");
  g_autofree char *csv = export (capture, TKS_EXPORT_CSV, 1000);
  g_autofree char *json = export (capture, TKS_EXPORT_PERFETTO, 1000);
  g_autofree char *ftrace = export (capture, TKS_EXPORT_FTRACE, 1000);

  g_assert_nonnull (strstr (csv, "\r\nnot_recorded,40 switches dropped,,,103,150\r\n"));
  g_assert_nonnull (strstr (csv, "\r\nrun,idle,1,1,102,103\r\n"));
  g_assert_nonnull (strstr (csv, "\r\nrun,fast,140,2,150,152\r\n"));

  g_assert_true (json_is_valid (json));
  g_assert_nonnull (strstr (json, "{\"ph\":\"X\",\"pid\":1,\"tid\":0,\"name\":\"not_recorded\","
                                  "\"cat\":\"not_recorded\",\"ts\":103000,\"dur\":47000,"
                                  "\"args\":{\"dropped\":40}}"));

  g_assert_nonnull (strstr (ftrace, " 0.103000: tracing_mark_write: not_recorded dropped=40\n"));
  g_assert_nonnull (strstr (ftrace, " 0.103000: sched_switch: prev_comm=idle prev_pid=2"));
  g_assert_nonnull (strstr (ftrace, " 0.150000: tracing_mark_write: not_recorded_end\n"));
}

static void
test_perfetto_simple (void)
{
  g_autoptr(TksCapture) capture = load_text (tks_test_simple_transcript);
  g_autofree char *json = export (capture, TKS_EXPORT_PERFETTO, 0);
  g_autofree char *json_10k = export (capture, TKS_EXPORT_PERFETTO, 10000);

  check_perfetto (capture, json, 1000);
  check_perfetto (capture, json_10k, 10000);

  /* At 1 kHz a tick is 1000 us: worker's run [103.5, 106] starts at 103500 us for 2500 us. */
  g_assert_nonnull (strstr (json, "\"ts\":103500,\"dur\":2500"));
  /* At 10 kHz the same run starts at 10350 us for 250 us. */
  g_assert_nonnull (strstr (json_10k, "\"ts\":10350,\"dur\":250"));
  /* main's last run lasts to the end and says so. */
  g_assert_nonnull (strstr (json, "\"running_at_end\":true"));
}

static void
test_perfetto_mixed (void)
{
  g_autoptr(TksCapture) capture = load_text (tks_test_mixed_transcript);
  g_autofree char *json = export (capture, TKS_EXPORT_PERFETTO, 0);

  check_perfetto (capture, json, 1000);
  g_assert_nonnull (strstr (json, "odd, \\\"name\\\""));
  g_assert_nonnull (strstr (json, "\"name\":\"trigger\""));
  g_assert_nonnull (strstr (json, "\"name\":\"exit\""));
}

static void
test_perfetto_locale (void)
{
  g_autoptr(TksCapture) capture = load_text (tks_test_simple_transcript);
  g_autofree char *old = g_strdup (setlocale (LC_NUMERIC, NULL));
  g_autofree char *json = NULL;

  /* A locale with a decimal comma must not leak into the output. */
  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL &&
      setlocale (LC_NUMERIC, "fr_FR.UTF-8") == NULL)
    {
      g_test_skip ("no locale with a decimal comma installed");
      return;
    }

  json = export (capture, TKS_EXPORT_PERFETTO, 3000);
  setlocale (LC_NUMERIC, old);
  check_perfetto (capture, json, 3000);
}

/* ------------------------------------------------------------------------------------------ */
/* CSV                                                                                         */

static double
csv_number (const char *text)
{
  char *end = NULL;
  double v;

  g_assert_true (text[0] != '\0');
  v = g_ascii_strtod (text, &end);
  g_assert_true (*end == '\0');
  return v;
}

static void
check_csv (TksCapture *capture,
           const char *csv)
{
  g_autoptr(GPtrArray) rows = tks_test_csv_parse (csv);
  guint n_runs, n_in, n_out, n_exits;
  guint runs = 0, ins = 0, outs = 0, exits = 0, triggers = 0, at_end = 0, no_data = 0;
  guint log_ends = 0;
  guint expect_at_end = 0;
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);
  double log_end = tks_capture_get_log_end (capture, NULL);
  double trigger;
  g_autofree guint *runs_seen = g_new0 (guint, tks_capture_get_n_threads (capture));

  count_capture (capture, &n_runs, &n_in, &n_out, &n_exits);
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    if (tks_capture_get_thread (capture, i)->flags & TKS_THREAD_RUNNING_AT_END)
      expect_at_end++;

  g_assert_cmpuint (rows->len, >=, 1);
  {
    GPtrArray *header = rows->pdata[0];
    const char *expected[] = { "kind", "thread", "priority", "creation_order", "begin", "end" };

    g_assert_cmpuint (header->len, ==, 6);
    for (guint i = 0; i < 6; i++)
      g_assert_cmpstr (header->pdata[i], ==, expected[i]);
  }
  g_assert_true (g_str_has_prefix (csv, "kind,thread,priority,creation_order,begin,end\r\n"));

  for (guint r = 1; r < rows->len; r++)
    {
      GPtrArray *row = rows->pdata[r];
      const char *kind;
      double begin, row_end;

      g_assert_cmpuint (row->len, ==, 6);
      kind = row->pdata[0];
      begin = csv_number (row->pdata[4]);
      row_end = csv_number (row->pdata[5]);
      g_assert_cmpfloat (begin, <=, row_end);

      if (strcmp (kind, "trigger") == 0)
        {
          g_assert_true (tks_capture_get_trigger (capture, &trigger));
          g_assert_cmpfloat_with_epsilon (begin, trigger, 1e-6);
          g_assert_cmpstr (row->pdata[3], ==, "");
          triggers++;
          continue;
        }
      if (strcmp (kind, "log_end") == 0)
        {
          /* After it, only exits are known. */
          g_assert_cmpfloat_with_epsilon (begin, log_end, 1e-6);
          g_assert_cmpfloat_with_epsilon (row_end, end, 1e-6);
          g_assert_cmpstr (row->pdata[1], ==, "lone_exits");
          log_ends++;
          continue;
        }

      /* A thread's row: name, priority and creation order match the model. */
      {
        guint index = (guint) csv_number (row->pdata[3]);
        const TksThread *t;

        g_assert_cmpuint (index, <, tks_capture_get_n_threads (capture));
        t = tks_capture_get_thread (capture, index);
        /* A thread gone before the log began has no row: it did not run in it. */
        g_assert_false (t->flags & TKS_THREAD_EXITED_BEFORE_LOG);
        if (t->name != NULL && t->name[0] != '\0' && g_utf8_validate (t->name, -1, NULL))
          g_assert_cmpstr (row->pdata[1], ==, t->name);
        if (!(t->flags & TKS_THREAD_NOT_LISTED))
          g_assert_cmpint ((int) csv_number (row->pdata[2]), ==, t->priority);

        if (strcmp (kind, "run") == 0)
          {
            const TksRun *run;

            g_assert_cmpuint (runs_seen[index], <, t->n_runs);
            run = &t->runs[runs_seen[index]++];
            g_assert_cmpfloat_with_epsilon (begin, run->begin, 1e-6);
            g_assert_cmpfloat_with_epsilon (row_end, run->end, 1e-6);
            runs++;
          }
        else if (strcmp (kind, "in") == 0)
          ins++;
        else if (strcmp (kind, "out") == 0)
          outs++;
        else if (strcmp (kind, "exit") == 0 || strcmp (kind, "exit_after_log_end") == 0)
          {
            g_assert_cmpint (strcmp (kind, "exit") != 0, ==,
                             !!(t->flags & TKS_THREAD_EXITED_AFTER_LOG_END));
            g_assert_cmpfloat_with_epsilon (begin, t->exit_time, 1e-6);
            g_assert_cmpfloat_with_epsilon (row_end, end, 1e-6);
            exits++;
          }
        else if (strcmp (kind, "running_at_end") == 0)
          {
            g_assert_true (t->flags & TKS_THREAD_RUNNING_AT_END);
            g_assert_cmpfloat_with_epsilon (row_end, log_end, 1e-6);
            at_end++;
          }
        else if (strcmp (kind, "no_data") == 0)
          {
            g_assert_cmpfloat_with_epsilon (begin, start, 1e-6);
            g_assert_cmpfloat (row_end, <=, log_end);
            if (!isnan (t->first_event) && t->first_event <= log_end)
              g_assert_cmpfloat_with_epsilon (row_end, t->first_event, 1e-6);
            no_data++;
          }
        else
          g_assert_not_reached ();
      }
    }

  g_assert_cmpuint (runs, ==, n_runs);
  g_assert_cmpuint (ins, ==, n_in);
  g_assert_cmpuint (outs, ==, n_out);
  g_assert_cmpuint (exits, ==, n_exits);
  g_assert_cmpuint (at_end, ==, expect_at_end);
  g_assert_cmpuint (triggers, ==, tks_capture_get_trigger (capture, &trigger) ? 1 : 0);
  g_assert_cmpuint (log_ends, ==, log_end < end ? 1 : 0);
  (void) no_data;
}

static void
test_csv_simple (void)
{
  g_autoptr(TksCapture) capture = load_text (tks_test_simple_transcript);
  g_autofree char *csv = export (capture, TKS_EXPORT_CSV, 0);

  check_csv (capture, csv);
  g_assert_nonnull (strstr (csv, "\r\nrun,worker,130,2,103.5,106\r\n"));
  g_assert_nonnull (strstr (csv, "\r\nrun,idle,1,1,100,102\r\n"));
  /* worker's first event is at 102: no data before. */
  g_assert_nonnull (strstr (csv, "\r\nno_data,worker,130,2,100,102\r\n"));
}

static void
test_csv_mixed (void)
{
  g_autoptr(TksCapture) capture = load_text (tks_test_mixed_transcript);
  g_autofree char *csv = export (capture, TKS_EXPORT_CSV, 0);

  check_csv (capture, csv);
  /* The name with a comma and quotes is quoted, the quotes doubled. */
  g_assert_nonnull (strstr (csv, "\r\nin,\"odd, \"\"name\"\"\",20,2,207,207.5\r\n"));
  g_assert_nonnull (strstr (csv, "\r\nout,\"odd, \"\"name\"\"\",20,2,209,209.5\r\n"));
  g_assert_nonnull (strstr (csv, "\r\nexit,Exited dynamic thread,140,3,204,"));
  g_assert_nonnull (strstr (csv, "\r\ntrigger,"));
}

/* ------------------------------------------------------------------------------------------ */
/* ftrace                                                                                      */

typedef struct
{
  double ts;
  char  *prev_comm;
  int    prev_pid;
  char  *prev_state;
  char  *next_comm;
  int    next_pid;
} Switch;

static void
switch_clear (gpointer data)
{
  Switch *s = data;

  g_free (s->prev_comm);
  g_free (s->prev_state);
  g_free (s->next_comm);
}

/* Checks every line, returns the sched_switch events. */
static GArray *
check_ftrace (TksCapture *capture,
              const char *text)
{
  g_autoptr(GRegex) line_re = NULL;
  g_autoptr(GRegex) switch_re = NULL;
  g_autoptr(GRegex) mark_re = NULL;
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GArray *switches = g_array_new (FALSE, TRUE, sizeof (Switch));
  guint entries = 0;
  guint declared = G_MAXUINT;
  guint marks = 0;
  double last = -1;
  double trigger;
  double log_end = tks_capture_get_log_end (capture, NULL);
  gboolean log_ended = FALSE;
  int current = 0;
  gboolean all_logged = TRUE;

  g_array_set_clear_func (switches, switch_clear);
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    if (!(tks_capture_get_thread (capture, i)->flags & TKS_THREAD_LOGGED))
      all_logged = FALSE;

  /* The line layout text importers expect (Trace Compass's generic ftrace parser). */
  line_re = g_regex_new ("^\\s*(?<comm>.*)-(?<pid>\\d+)\\s+\\[(?<cpu>\\d{3})\\]\\s+\\S{4}\\s+"
                         "(?<ts>\\d+\\.\\d{6}): (?<event>\\w+): (?<data>[^()]*)$", 0, 0, NULL);
  switch_re = g_regex_new ("^prev_comm=(\\S+) prev_pid=(\\d+) prev_prio=(-?\\d+) prev_state=([RSX]) "
                           "==> next_comm=(\\S+) next_pid=(\\d+) next_prio=(-?\\d+)$", 0, 0, NULL);
  mark_re = g_regex_new ("^(trigger( set_by=\\S+)?|log_end reason=lone_exits|"
                         "exit_after_log_end comm=\\S+)$", 0, 0, NULL);
  g_assert_nonnull (line_re);
  g_assert_nonnull (switch_re);

  g_assert_true (g_str_has_prefix (text, "# tracer: nop\n"));

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      g_autoptr(GMatchInfo) d = NULL;
      g_autofree char *event = NULL;
      g_autofree char *data = NULL;
      g_autofree char *ts_text = NULL;
      g_autofree char *pid_text = NULL;
      double ts;

      if (lines[i][0] == '\0')
        {
          g_assert_null (lines[i + 1]);
          continue;
        }
      if (lines[i][0] == '#')
        {
          if (g_str_has_prefix (lines[i], "# entries-in-buffer/entries-written: "))
            declared = (guint) g_ascii_strtoull (lines[i] + strlen ("# entries-in-buffer/entries-written: "), NULL, 10);
          continue;
        }

      if (!g_regex_match (line_re, lines[i], 0, &m))
        g_error ("line %u does not parse: %s", i + 1, lines[i]);
      entries++;

      ts_text = g_match_info_fetch_named (m, "ts");
      ts = g_ascii_strtod (ts_text, NULL);
      g_assert_cmpfloat (ts, >=, last);
      last = ts;

      event = g_match_info_fetch_named (m, "event");
      data = g_match_info_fetch_named (m, "data");
      pid_text = g_match_info_fetch_named (m, "pid");

      if (strcmp (event, "tracing_mark_write") == 0)
        {
          g_assert_true (g_regex_match (mark_re, data, 0, NULL));
          log_ended |= g_str_has_prefix (data, "log_end ");
          marks++;
          continue;
        }

      g_assert_cmpstr (event, ==, "sched_switch");
      /* No switch is known after the log's end. */
      g_assert_false (log_ended);
      if (!g_regex_match (switch_re, data, 0, &d))
        g_error ("line %u: bad sched_switch fields: %s", i + 1, data);

      {
        Switch s = { 0 };
        g_autofree char *prev_pid = g_match_info_fetch (d, 2);
        g_autofree char *next_pid = g_match_info_fetch (d, 6);

        s.ts = ts;
        s.prev_comm = g_match_info_fetch (d, 1);
        s.prev_pid = atoi (prev_pid);
        s.prev_state = g_match_info_fetch (d, 4);
        s.next_comm = g_match_info_fetch (d, 5);
        s.next_pid = atoi (next_pid);

        /* The task column is the previous task; pids name threads in creation order. */
        g_assert_cmpint (atoi (pid_text), ==, s.prev_pid);
        g_assert_cmpint (s.prev_pid, !=, s.next_pid);
        g_assert_cmpint (s.next_pid, <=, (int) tks_capture_get_n_threads (capture));
        /* Only fully logged captures record every switch. */
        if (all_logged && s.prev_pid > 0 && current > 0 && strcmp (s.prev_state, "X") != 0)
          g_assert_cmpint (s.prev_pid, ==, current);
        current = s.next_pid;
        g_array_append_val (switches, s);
      }
    }

  g_assert_cmpuint (entries, ==, declared);
  g_assert_cmpuint (marks, ==, (tks_capture_get_trigger (capture, &trigger) ? 1 : 0) +
                               (log_end < tks_capture_get_end (capture) ? 1 : 0) +
                               tks_capture_get_n_exits_after_log_end (capture));
  g_assert_cmpuint (switches->len, >, 0);

  return switches;
}

static void
test_ftrace_simple (void)
{
  g_autoptr(TksCapture) capture = load_text (tks_test_simple_transcript);
  g_autofree char *text = export (capture, TKS_EXPORT_FTRACE, 0);
  g_autoptr(GArray) switches = check_ftrace (capture, text);
  /* main's leading OUT at 100 was dropped, so idle comes in from nothing known. */
  const struct { double ts; int prev; int next; const char *state; } expected[] = {
    { 0.100, 0, 2, "R" },
    { 0.102, 2, 3, "R" },   /* idle (1) → worker (130): idle was preempted */
    { 0.103, 3, 1, "S" },   /* worker (130) → main (128): worker blocked */
    { 0.1035, 1, 3, "R" },
    { 0.106, 3, 2, "S" },
    { 0.110, 2, 1, "R" },
  };

  g_assert_cmpuint (switches->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const Switch *s = &g_array_index (switches, Switch, i);

      g_assert_cmpfloat_with_epsilon (s->ts, expected[i].ts, 1e-9);
      g_assert_cmpint (s->prev_pid, ==, expected[i].prev);
      g_assert_cmpint (s->next_pid, ==, expected[i].next);
      g_assert_cmpstr (s->prev_state, ==, expected[i].state);
    }
  g_assert_cmpstr (g_array_index (switches, Switch, 0).prev_comm, ==, "swapper/0");
  g_assert_cmpstr (g_array_index (switches, Switch, 1).next_comm, ==, "worker");
  g_assert_nonnull (strstr (text, "<idle>-0     [000] d..2 0.100000: sched_switch: "));
}

static void
test_ftrace_mixed (void)
{
  g_autoptr(TksCapture) capture = load_text (tks_test_mixed_transcript);
  g_autofree char *text = export (capture, TKS_EXPORT_FTRACE, 0);
  g_autoptr(GArray) switches = check_ftrace (capture, text);
  gboolean saw_exit = FALSE;

  for (guint i = 0; i < switches->len; i++)
    {
      const Switch *s = &g_array_index (switches, Switch, i);

      if (strcmp (s->prev_state, "X") == 0)
        {
          /* The dynamic thread (4th in creation order) exits at tick 204. */
          g_assert_cmpint (s->prev_pid, ==, 4);
          /* Cut at 15 bytes, as the kernel's task names are. */
          g_assert_cmpstr (s->prev_comm, ==, "Exited_dynamic_");
          g_assert_cmpfloat_with_epsilon (s->ts, 0.204, 1e-9);
          saw_exit = TRUE;
        }
      /* Names are made safe for importers that split on blanks, commas and '='. */
      g_assert_null (strpbrk (s->next_comm, " ,=\"()[]:"));
    }
  g_assert_true (saw_exit);
  g_assert_nonnull (strstr (text, ": tracing_mark_write: trigger"));
}

/* A record names a thread the list does not have: its priority is unknown. */
static const char unlisted_transcript[] =
  "threads_list\r\n"
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
  "ch> threads_timestamps\r\n"
  "From  1 to  2 at     100\r\n"
  "From  2 to  3 at     102\r\n"
  "From  3 to  1 at     104\r\n"
  "ch> ";

static void
test_unlisted_thread (void)
{
  g_autoptr(TksCapture) capture = load_text (unlisted_transcript);
  g_autofree char *csv = export (capture, TKS_EXPORT_CSV, 0);
  g_autofree char *json = export (capture, TKS_EXPORT_PERFETTO, 0);
  g_autofree char *ftrace = export (capture, TKS_EXPORT_FTRACE, 0);
  g_autoptr(GArray) switches = NULL;
  int unlisted = -1;

  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    if (tks_capture_get_thread (capture, i)->flags & TKS_THREAD_NOT_LISTED)
      unlisted = (int) i;
  g_assert_cmpint (unlisted, ==, 2);

  check_csv (capture, csv);
  check_perfetto (capture, json, 1000);
  switches = check_ftrace (capture, ftrace);

  /* No priority in the CSV, none made up in the track name. */
  g_assert_nonnull (strstr (csv, ",,2,102,104\r\n"));
  g_assert_null (strstr (json, "prio 0"));
  /* Without a priority the state left behind is not guessed as sleeping. */
  g_assert_cmpuint (switches->len, ==, 3);
  g_assert_cmpstr (g_array_index (switches, Switch, 1).prev_state, ==, "R");
  g_assert_cmpint (g_array_index (switches, Switch, 1).next_pid, ==, 3);
}

/* ------------------------------------------------------------------------------------------ */

static void
test_real_capture (gconstpointer data)
{
  g_autoptr(TksCapture) capture = tks_test_load_data (data);
  g_autofree char *json = export (capture, TKS_EXPORT_PERFETTO, 0);
  g_autofree char *csv = export (capture, TKS_EXPORT_CSV, 0);
  g_autofree char *ftrace = export (capture, TKS_EXPORT_FTRACE, 0);
  g_autoptr(GArray) switches = NULL;

  check_perfetto (capture, json, tks_capture_get_tick_hz (capture) > 0
                                 ? tks_capture_get_tick_hz (capture) : 1000);
  check_csv (capture, csv);
  switches = check_ftrace (capture, ftrace);
}

/* A log frozen by a trigger and read late ends with lone exits: every format says where the
 * log ended, ends the running thread's run there, and has no switch after it. */
static void
test_log_end (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autofree char *json = export (capture, TKS_EXPORT_PERFETTO, 0);
  g_autofree char *csv = export (capture, TKS_EXPORT_CSV, 0);
  g_autofree char *ftrace = export (capture, TKS_EXPORT_FTRACE, 0);
  g_auto(GStrv) lines = g_strsplit (ftrace, "\n", -1);
  guint late_exits = 0, after = 0;
  gboolean ended = FALSE;

  g_assert_nonnull (strstr (csv, "\r\nlog_end,lone_exits,,,17991,20027\r\n"));
  g_assert_nonnull (strstr (csv, "\r\nrunning_at_end,idle,1,1,17990.8,17991\r\n"));
  g_assert_nonnull (strstr (csv, "\r\nexit_after_log_end,Exited dynamic thread,143,"));
  g_assert_nonnull (strstr (json, "\"name\":\"log_end\""));
  g_assert_nonnull (strstr (json, "\"after_log_end\":true"));
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (strstr (lines[i], "tracing_mark_write: log_end") != NULL)
        {
          g_assert_nonnull (strstr (lines[i], " 17.991000: "));
          ended = TRUE;
        }
      else if (strstr (lines[i], "tracing_mark_write: exit_after_log_end") != NULL)
        {
          g_assert_true (ended);
          late_exits++;
        }
      else if (ended && strstr (lines[i], "sched_switch") != NULL)
        after++;
    }
  g_assert_true (ended);
  g_assert_cmpuint (late_exits, ==, 9);
  g_assert_cmpuint (after, ==, 0);
}

/* Threads that exited before the log began (the board's history keeps up to 64) did not run
 * in it: no track, no row, no task; the other threads export exactly as before. */
static void
test_exited_before_log (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                 "board-trigger-exits.raw.txt", NULL);
  g_autofree char *text = NULL;
  g_autofree char *stale = tks_test_read_with_stale_history (path, 44, &text);
  g_autoptr(TksCapture) plain = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autofree char *csv_plain = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *json = NULL;
  g_autofree char *ftrace = NULL;

  plain = load_text (text);
  capture = load_text (stale);
  g_assert_cmpuint (tks_capture_get_n_exited_before_log (capture), ==, 44);

  csv_plain = export (plain, TKS_EXPORT_CSV, 0);
  csv = export (capture, TKS_EXPORT_CSV, 0);
  json = export (capture, TKS_EXPORT_PERFETTO, 0);
  ftrace = export (capture, TKS_EXPORT_FTRACE, 0);
  check_csv (capture, csv);
  check_perfetto (capture, json, 1000);
  g_array_unref (check_ftrace (capture, ftrace));
  /* Their names (priorities 100 to 143) appear nowhere. */
  g_assert_null (strstr (csv, "Exited dynamic thread,100,"));
  g_assert_null (strstr (json, "(prio 100)"));
  /* Creation orders move by the threads put back; every row else is the same. */
  {
    g_auto(GStrv) a = g_strsplit (csv_plain, "\r\n", -1);
    g_auto(GStrv) b = g_strsplit (csv, "\r\n", -1);

    g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
    for (guint i = 0; a[i] != NULL; i++)
      {
        g_auto(GStrv) fa = g_strsplit (a[i], ",", -1);
        g_auto(GStrv) fb = g_strsplit (b[i], ",", -1);

        g_assert_cmpuint (g_strv_length (fa), ==, g_strv_length (fb));
        for (guint f = 0; fa[f] != NULL; f++)
          if (f != 3)
            g_assert_cmpstr (fa[f], ==, fb[f]);
      }
  }
}

static void
test_stream_matches_string (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");

  for (TksExportFormat f = TKS_EXPORT_PERFETTO; f <= TKS_EXPORT_FTRACE; f++)
    {
      g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
      g_autoptr(GError) error = NULL;
      g_autofree char *expected = export (capture, f, 0);
      gsize len;

      g_assert_true (tks_export_to_stream (capture, f, 0, stream, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (g_output_stream_close (stream, NULL, &error));
      len = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (stream));
      g_assert_cmpuint (len, ==, strlen (expected));
      g_assert_true (memcmp (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (stream)),
                             expected, len) == 0);
    }
}

static void
test_stream_error (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-run-mode.raw.txt");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_false (tks_export_to_stream (capture, TKS_EXPORT_CSV, 0, stream, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* An output stream that keeps only the size of the largest write and the total. */
G_DECLARE_FINAL_TYPE (SizeStream, size_stream, SIZE, STREAM, GOutputStream)

struct _SizeStream
{
  GOutputStream parent_instance;
  gsize         max_write;
  gsize         total;
};

G_DEFINE_TYPE (SizeStream, size_stream, G_TYPE_OUTPUT_STREAM)

static gssize
size_stream_write (GOutputStream  *stream,
                   const void     *buffer,
                   gsize           count,
                   GCancellable   *cancellable,
                   GError        **error)
{
  SizeStream *self = (SizeStream *) stream;

  self->max_write = MAX (self->max_write, count);
  self->total += count;
  return (gssize) count;
}

static void
size_stream_class_init (SizeStreamClass *klass)
{
  G_OUTPUT_STREAM_CLASS (klass)->write_fn = size_stream_write;
}

static void
size_stream_init (SizeStream *self)
{
}

/* A capture whose @n_live threads have names of @name_len bytes (made of @unit), with @n_deleted
 * deleted ones and @n_switches switches between the first two. */
static char *
long_names_capture (guint       n_live,
                    gsize       name_len,
                    const char *unit,
                    guint       n_deleted,
                    guint       n_switches)
{
  GString *text = g_string_new ("threads_list\n");

  for (guint t = 1; t <= n_live; t++)
    {
      g_string_append_printf (text, "Thread number %2u : Prio = %3u, Log = Yes, Name = %u", t,
                              10 * t, t);
      while (text->len - (strrchr (text->str, '=') + 2 - text->str) < name_len)
        g_string_append (text, unit);
      g_string_append_c (text, '\n');
    }
  g_string_append (text, "Deleted threads: \n");
  for (guint d = 0; d < n_deleted; d++)
    g_string_append_printf (text, "Thread number %2u : Prio =   5, Log = Yes, Name = gone%u\n",
                            n_live + 1, d);
  g_string_append (text, "ch> \nthreads_timestamps\n");
  /* The deleted threads exit in the log, so that they are in the exports. */
  for (guint d = 0; d < n_deleted; d++)
    g_string_append_printf (text, "From %2u to %2u at %7u\n", n_live + 1, n_live + 1, 0);
  for (guint i = 0; i < n_switches; i++)
    g_string_append_printf (text, "From %2u to %2u at %7u\n", 1 + i % 2, 2 - i % 2, i);
  g_string_append (text, "ch> \n");
  return g_string_free (text, FALSE);
}

/* Names are cut (64 bytes and an ellipsis; ftrace's task names at 15 bytes, as the kernel's),
 * at a character boundary: every line stays short, whatever the names. */
static void
test_long_names (void)
{
  g_autofree char *text = long_names_capture (3, 5000, "é", 0, 40);
  g_autoptr(TksCapture) capture = load_text (text);

  for (TksExportFormat f = TKS_EXPORT_PERFETTO; f <= TKS_EXPORT_FTRACE; f++)
    {
      g_autofree char *out = export (capture, f, 0);
      g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
      g_autofree char *cut = NULL;
      GString *name = g_string_new ("1");

      g_assert_true (g_utf8_validate (out, -1, NULL));
      for (guint i = 0; lines[i] != NULL; i++)
        g_assert_cmpuint (strlen (lines[i]), <, 300);

      /* "1" and 31 "é": 63 bytes, as many whole characters as 64 bytes hold. */
      for (guint i = 0; i < 31; i++)
        g_string_append (name, "é");
      cut = g_strconcat (name->str, "…", NULL);
      g_string_free (name, TRUE);
      if (f == TKS_EXPORT_FTRACE)
        g_assert_nonnull (strstr (out, "prev_comm=1______________ prev_pid=1 "));
      else if (f == TKS_EXPORT_CSV)
        {
          g_autofree char *row = g_strdup_printf ("\r\nrun,%s,10,0,", cut);

          g_assert_nonnull (strstr (out, row));
        }
      else
        {
          g_autofree char *label = g_strdup_printf ("\"args\":{\"name\":\"%s (prio 10)\"}", cut);

          g_assert_nonnull (strstr (out, label));
        }
    }
}

/* Exports go out in chunks of about 64 KiB, whatever the names and however many threads: the
 * largest write measures the memory an export holds. */
static void
test_stream_bounded (void)
{
  g_autofree char *long_names = long_names_capture (2, 8000, "ab", 0, 4000);
  g_autofree char *many_threads = long_names_capture (2, 10, "x", 5000, 10);
  const char *texts[] = { long_names, many_threads };

  for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
    {
      g_autoptr(TksCapture) capture = load_text (texts[t]);

      for (TksExportFormat f = TKS_EXPORT_PERFETTO; f <= TKS_EXPORT_FTRACE; f++)
        {
          g_autoptr(SizeStream) stream = g_object_new (size_stream_get_type (), NULL);
          g_autoptr(GError) error = NULL;

          g_assert_true (tks_export_to_stream (capture, f, 0, G_OUTPUT_STREAM (stream), NULL,
                                               &error));
          g_assert_no_error (error);
          g_test_message ("capture %u, %s: %" G_GSIZE_FORMAT " bytes, largest write %"
                          G_GSIZE_FORMAT, t, tks_export_format_to_string (f), stream->total,
                          stream->max_write);
          g_assert_cmpuint (stream->total, >, 1000);
          g_assert_cmpuint (stream->max_write, <=, 64 * 1024 + 1024);
        }
    }
}

/* What the capture could not read stays visible in an export (CSV has no place for it). */
static void
test_warnings_exported (void)
{
  static const char text[] = "threads_list\nThread number  1 : Prio = 1, Log = Yes, Name = a\n"
                             "Thread number  2 : Prio = 2, Log = Yes, Name = b\n"
                             "Deleted threads: \nch> \nthreads_timestamps\n"
                             "From  1 to  2 at 5\nFr\x01m garbage\nFrom  2 to  1 at 6\nch> \n";
  g_autoptr(TksCapture) capture = load_text (text);
  g_autofree char *perfetto = export (capture, TKS_EXPORT_PERFETTO, 0);
  g_autofree char *ftrace = export (capture, TKS_EXPORT_FTRACE, 0);

  g_assert_nonnull (strstr (perfetto, "\"warnings\":[\"line 8: warning: unreadable log line "
                                      "skipped: “Fr\\\\x01m garbage”\"]"));
  g_assert_true (g_str_has_prefix (ftrace, "# tracer: nop\n#\n# line 8: warning: unreadable log "
                                           "line skipped: “Fr\\x01m garbage”\n#\n"));
}

static void
test_bad_arguments (void)
{
  g_autoptr(TksCapture) capture = load_text (tks_test_simple_transcript);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  TksExportFormat format;

  g_assert_false (tks_export_write (capture, TKS_EXPORT_CSV, -5, out, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
  g_clear_error (&error);
  g_assert_false (tks_export_write (capture, TKS_EXPORT_PERFETTO, INFINITY, out, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
  g_assert_cmpuint (out->len, ==, 0);

  g_assert_true (tks_export_format_from_string ("perfetto", &format));
  g_assert_cmpint (format, ==, TKS_EXPORT_PERFETTO);
  g_assert_true (tks_export_format_from_string ("CSV", &format));
  g_assert_cmpint (format, ==, TKS_EXPORT_CSV);
  g_assert_true (tks_export_format_from_string ("ftrace", &format));
  g_assert_cmpint (format, ==, TKS_EXPORT_FTRACE);
  g_assert_false (tks_export_format_from_string ("xml", &format));
  g_assert_false (tks_export_format_from_string (NULL, &format));
  g_assert_cmpstr (tks_export_format_to_string (TKS_EXPORT_FTRACE), ==, "ftrace");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/json-checker", test_json_checker);
  g_test_add_func ("/export/perfetto/simple", test_perfetto_simple);
  g_test_add_func ("/export/perfetto/mixed", test_perfetto_mixed);
  g_test_add_func ("/export/perfetto/locale", test_perfetto_locale);
  g_test_add_func ("/export/csv/simple", test_csv_simple);
  g_test_add_func ("/export/csv/mixed", test_csv_mixed);
  g_test_add_func ("/export/ftrace/simple", test_ftrace_simple);
  g_test_add_func ("/export/ftrace/mixed", test_ftrace_mixed);
  g_test_add_func ("/export/unlisted-thread", test_unlisted_thread);
  g_test_add_func ("/export/log-end", test_log_end);
  g_test_add_func ("/export/exited-before-log", test_exited_before_log);
  g_test_add_func ("/export/stream/matches-string", test_stream_matches_string);
  g_test_add_func ("/export/stream/error", test_stream_error);
  g_test_add_func ("/export/stream/bounded", test_stream_bounded);
  g_test_add_func ("/export/long-names", test_long_names);
  g_test_add_func ("/export/warnings", test_warnings_exported);
  g_test_add_func ("/export/gap", test_gap_exported);
  g_test_add_func ("/export/bad-arguments", test_bad_arguments);
  for (guint i = 0; i < G_N_ELEMENTS (real_files); i++)
    {
      g_autofree char *path = g_strdup_printf ("/export/real/%s", real_files[i]);

      g_test_add_data_func (path, real_files[i], test_real_capture);
    }

  return g_test_run ();
}
