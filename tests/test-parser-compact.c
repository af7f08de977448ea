/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The reader decodes a compact log of switches only (threads_record, threads_dump_compact) by
 * batches of lines, on several threads; it must read exactly what it reads line by line:
 * the same records, holes, warnings (and their line numbers), threads announced, damage, and
 * the same counts while the input arrives. The recordings are made by the board library on the
 * host stand-in, then damaged as a link would (lines lost, damaged, cut, noise, a prompt), and
 * read with batches and chunks of every small size, so that damage falls on every edge (the
 * batch sizes are set through the reader's private header).
 */
#include <string.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"
#include "tks-capture.h"
#include "tks-compact.h"
#include "tks-events-private.h"
#include "tks-parser-private.h"
#include "tks-test-data.h"

#define N_THREADS 10

static const char alphabet[] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* A recording (the echo, the stream, the prompt) of @n switches among a dozen threads, with a
 * thread created meanwhile (announced in the log) and a stretch the link could not keep up
 * with (a "Lost:" line). */
static char *
make_recording (guint    n,
                gboolean events,
                guint32  seed)
{
  static thread_t threads[N_THREADS + 1];
  static const uint8_t stop = THREADS_RECORD_STOP_BYTE, keepalive = 0x16;
  HostStream out;
  GString *text = g_string_new ("threads_record");
  guint32 rng = seed;
  guint n_threads = N_THREADS;
  systime_t tick = 1000;

  ch_host_reset ();
  tuResetState ();
  memset (threads, 0, sizeof threads);
  ch_host_time = tick;
  for (guint i = 0; i < N_THREADS; i++)
    ch_host_thread_init (&threads[i], "worker", (tprio_t) (100 + i), CH_FLAG_MODE_STATIC);
  ch_host_switch (&threads[0]);
  host_stream_init (&out);
  g_string_append (text, events ? " events\r\n" : "\r\n");
  g_assert_cmpint (tuRecordBegin (&out.base, events), ==, 1);

  for (guint i = 0; i < n; i++)
    {
      guint next;

      rng = rng * 1103515245u + 12345u;
      /* Busy in the middle (full lines), quiet elsewhere (a line every few switches). */
      if (i > n / 3 && i < 2 * n / 3)
        tick += i % 4 == 0 ? (rng >> 20) % 3 : 0;
      else
        tick += (rng >> 20) % 100;
      ch_host_time = tick;
      ch_host_counter = (rtcnt_t) tick * 168000u + i;
      if (i == n / 3)
        {
          /* A thread created while recording: announced before its first switch. */
          ch_host_thread_init (&threads[N_THREADS], "late", 140, CH_FLAG_MODE_STATIC);
          n_threads++;
        }
      next = (rng >> 16) % n_threads;
      if (&threads[next] == ch_host_current ())
        next = (next + 1) % n_threads;
      ch_host_switch (&threads[next]);
      /* Polled every 3 switches, but for a while in the middle: the log goes round. */
      if (i % 3 == 0 && (i < n / 2 || i > n / 2 + 600))
        g_assert_cmpint (tuRecordPoll (&out.base, &keepalive, 1), ==, 1);
    }
  g_assert_cmpint (tuRecordPoll (&out.base, &stop, 1), ==, 0);
  g_string_append (text, out.text->str);
  g_string_append (text, "ch> ");
  g_string_free (out.text, TRUE);
  return g_string_free (text, FALSE);
}

/* The recording as a link may have damaged it: compact lines lost, damaged (a character, a
 * cut, a byte no line has), repeated, noise between them, other line ends; with @hostile also
 * lines that start as compact lines but are not (a prompt in one, one of 9,000 bytes), and the
 * end cut off in the middle of a line. */
static char *
damage (const char *text,
        GRand      *rand,
        double      rate,
        gboolean    hostile)
{
  g_auto(GStrv) lines = g_strsplit (text, "\r\n", -1);
  guint n_lines = g_strv_length (lines);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n_lines; i++)
    {
      g_autofree char *line = g_strdup (lines[i]);
      gsize len = strlen (line);
      const char *eol = i + 1 == n_lines ? "" : "\r\n";

      if (line[0] == 'Z' && g_rand_double (rand) < rate)
        switch (g_rand_int_range (rand, 0, hostile ? 11 : 8))
          {
          case 0:   /* lost */
            continue;
          case 1:   /* a character changed */
            line[g_rand_int_range (rand, 1, (gint32) len)] = alphabet[g_rand_int_range (rand, 0, 64)];
            break;
          case 2:   /* cut */
            line[g_rand_int_range (rand, 1, (gint32) len)] = '\0';
            break;
          case 3:   /* a byte no compact line has */
            line[g_rand_int_range (rand, 1, (gint32) len)] = "\t!.~\x80\xff*"[g_rand_int_range (rand, 0, 7)];
            break;
          case 4:   /* sent twice */
            g_string_append_printf (out, "%s%s", line, eol);
            break;
          case 5:   /* noise before it */
            g_string_append (out, g_rand_boolean (rand) ? "\x1b[2J~~\r\n" : "\r\n");
            break;
          case 6:
            eol = "\n";
            break;
          case 7:
            eol = "\r\r\n";
            break;
          case 8:   /* a prompt in it: the board started again */
            g_string_append_printf (out, "%.*sch> %s\r\n", (int) len / 2, line, line + len / 2);
            break;
          case 9:   /* longer than any line */
            g_string_append_printf (out, "Z%09000d\r\n", 0);
            break;
          default:  /* the end cut off */
            g_string_append_len (out, line, g_rand_int_range (rand, 1, (gint32) len));
            return g_string_free (out, FALSE);
          }
      g_string_append_printf (out, "%s%s", line, eol);
    }
  return g_string_free (out, FALSE);
}

typedef struct
{
  gboolean batch;
  guint    n_threads;
  guint    chunk_lines;
  guint    batch_lines;
  gsize    piece;          /* fed by pieces of that many bytes, 0: whole */
  guint    rec_max;        /* a recording's records read at most (0: as a reader has it) */
} Reading;

typedef struct
{
  TksParsed *parsed;
  char      *error;
  GArray    *counts;       /* guint: the records read after each piece */
  gboolean   threads_used;
} Read;

static void
read_clear (Read *r)
{
  tks_parsed_free (r->parsed);
  g_free (r->error);
  g_array_unref (r->counts);
}

static Read
read_text (const char    *text,
           const Reading *how)
{
  g_autoptr(TksParser) parser = tks_parser_new ();
  g_autoptr(GError) error = NULL;
  gsize len = strlen (text);
  gsize piece = how->piece > 0 ? how->piece : len;
  Read r = { NULL, NULL, g_array_new (FALSE, FALSE, sizeof (guint)), FALSE };

  tks_parser_set_batches (parser, how->batch, how->n_threads, how->chunk_lines, how->batch_lines);
  if (how->rec_max > 0)
    tks_parser_set_max_records (parser, how->rec_max);
  for (gsize at = 0; at < len; at += piece)
    {
      guint n;

      tks_parser_feed (parser, text + at, MIN (piece, len - at));
      n = tks_parser_get_n_records (parser);
      g_array_append_val (r.counts, n);
    }
  r.threads_used = tks_parser_get_threads_used (parser);
  r.parsed = tks_parser_finish (parser, &error);
  if (error != NULL)
    r.error = g_strdup (error->message);
  return r;
}

static void
assert_same_entries (GPtrArray *a,
                     GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const TksListEntry *x = a->pdata[i], *y = b->pdata[i];

      g_assert_cmpint (x->number, ==, y->number);
      g_assert_cmpint (x->priority, ==, y->priority);
      g_assert_cmpint (x->logged, ==, y->logged);
      g_assert_cmpint (x->readable, ==, y->readable);
      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpuint (x->line, ==, y->line);
    }
}

static void
assert_same_array (const char *what,
                   GArray     *a,
                   GArray     *b)
{
  if (a->len != b->len)
    g_error ("%s: %u elements against %u", what, a->len, b->len);
  g_assert_cmpuint (g_array_get_element_size (a), ==, g_array_get_element_size (b));
  if (a->len > 0 && memcmp (a->data, b->data, a->len * g_array_get_element_size (a)) != 0)
    for (guint i = 0; i < a->len * g_array_get_element_size (a); i++)
      if (a->data[i] != b->data[i])
        g_error ("%s: element %u differs", what, i / g_array_get_element_size (a));
}

/* Everything the reader gives the rebuild, and what it said on the way. */
static void
assert_same_read (const Read *a,
                  const Read *b)
{
  TksParsed *x = a->parsed, *y = b->parsed;

  /* (after each piece, when both were fed by the same pieces) */
  if (a->counts->len == b->counts->len)
    assert_same_array ("records after each piece", a->counts, b->counts);
  g_assert_cmpstr (a->error, ==, b->error);
  g_assert_true ((x == NULL) == (y == NULL));
  if (x == NULL)
    return;
  assert_same_array ("records", x->records, y->records);
  g_assert_cmpuint (x->gaps->len, ==, y->gaps->len);
  for (guint i = 0; i < x->gaps->len; i++)
    {
      /* (padding apart) */
      TksParsedGap *g = &g_array_index (x->gaps, TksParsedGap, i);
      TksParsedGap *h = &g_array_index (y->gaps, TksParsedGap, i);

      g_assert_cmpuint (g->index, ==, h->index);
      g_assert_cmpuint (g->begin, ==, h->begin);
      g_assert_cmpuint (g->end, ==, h->end);
      g_assert_cmpuint (g->dropped, ==, h->dropped);
    }
  assert_same_array ("other lines of the log", x->log_other_lines, y->log_other_lines);
  assert_same_array ("compact lines of the log", x->compact_marks, y->compact_marks);
  g_assert_cmpuint (x->log_first_line, ==, y->log_first_line);
  assert_same_entries (x->live, y->live);
  assert_same_entries (x->deleted, y->deleted);
  g_assert_cmpuint (x->n_warnings, ==, y->n_warnings);
  g_assert_cmpuint (x->warnings->len, ==, y->warnings->len);
  for (guint i = 0; i < x->warnings->len; i++)
    g_assert_cmpstr (x->warnings->pdata[i], ==, y->warnings->pdata[i]);
  assert_same_array ("warnings as saved", x->warnings_saved, y->warnings_saved);
  g_assert_cmpstr (x->damage, ==, y->damage);
  g_assert_cmpint (x->has_trigger, ==, y->has_trigger);
  g_assert_cmpuint (x->trigger_tick, ==, y->trigger_tick);
  g_assert_true ((x->events == NULL) == (y->events == NULL));
}

/* Reads @text line by line, then by batches of every small size, on 1 to 4 threads, whole and
 * by pieces: always the same. Returns the line by line reading (to free). */
static Read
check_text (const char *text,
            GRand      *rand)
{
  static const Reading sequential = { FALSE, 1, CHUNK_LINES, BATCH_LINES, 0 };
  Read expected = read_text (text, &sequential);
  gboolean threads_used = FALSE;

  for (guint i = 0; i < 24; i++)
    {
      Reading how = { TRUE, 1 + i % 4, (guint) g_rand_int_range (rand, 1, 9),
                      (guint) g_rand_int_range (rand, 1, 40), 0 };
      Read got;

      if (i == 0)
        how.chunk_lines = CHUNK_LINES, how.batch_lines = BATCH_LINES;
      if (i % 3 == 2)
        how.piece = (gsize) g_rand_int_range (rand, 1, 4000);
      got = read_text (text, &how);
      threads_used |= got.threads_used;
      assert_same_read (&expected, &got);
      /* Fed by pieces: the same records as line by line after each piece. */
      if (how.piece > 0)
        {
          Reading alone = sequential;
          Read again;

          alone.piece = how.piece;
          again = read_text (text, &alone);
          g_assert_cmpuint (again.counts->len, ==, got.counts->len);
          assert_same_read (&again, &got);
          read_clear (&again);
        }
      read_clear (&got);
    }
  g_assert_true (threads_used);
  return expected;
}

/* A whole recording: every record, the announced thread, the hole. */
static void
test_whole (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autofree char *text = make_recording (6000, FALSE, 1);
  Read expected = check_text (text, rand);

  g_assert_null (expected.error);
  g_assert_cmpuint (expected.parsed->live->len, ==, N_THREADS + 1);
  g_assert_cmpstr (((TksListEntry *) expected.parsed->live->pdata[N_THREADS])->name, ==, "late");
  g_assert_cmpuint (expected.parsed->gaps->len, ==, 1);
  g_assert_cmpuint (expected.parsed->n_warnings, ==, 0);
  g_assert_null (expected.parsed->damage);
  read_clear (&expected);
}

/* @rounds damaged copies of a recording of @n switches, each read every way; with @hostile,
 * also lines that only start as compact lines, and the end cut. */
static void
check_damaged (guint32  seed,
               guint    n,
               guint    rounds,
               gboolean hostile)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree char *text = make_recording (n, FALSE, seed);

  for (guint round = 0; round < rounds; round++)
    {
      double rate = hostile ? 0.1 : round < rounds / 2 ? 0.05 : 0.4;
      g_autofree char *damaged = damage (text, rand, rate, hostile);
      Read expected = check_text (damaged, rand);

      if (!hostile)
        {
          g_assert_null (expected.error);
          g_assert_cmpuint (expected.parsed->n_warnings, >, 0);
          g_assert_nonnull (expected.parsed->damage);
        }
      read_clear (&expected);
    }
}

/* Lines lost, damaged, repeated, noise: the same warnings, at the same lines, and the same
 * records on either side of each loss. */
static void
test_damaged (void)
{
  check_damaged (12, 6000, 6, FALSE);
}

/* Lines that start as compact lines but are not (a prompt in one, one longer than any line),
 * and an end cut in the middle of a line: read as one by one, whatever the batch. */
static void
test_hostile (void)
{
  check_damaged (13, 3000, 8, TRUE);
}

/* A recording with events is read line by line (its entries go through dump version 2's
 * reader): the settings change nothing. */
static void
test_events (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);
  g_autofree char *text = make_recording (1500, TRUE, 4);
  g_autofree char *damaged = damage (text, rand, 0.05, FALSE);
  static const Reading sequential = { FALSE, 1, CHUNK_LINES, BATCH_LINES, 0 };
  static const Reading batches = { TRUE, 3, 2, 5, 0 };
  Read a = read_text (damaged, &sequential);
  Read b = read_text (damaged, &batches);

  g_assert_null (a.error);
  g_assert_nonnull (a.parsed->events);
  assert_same_read (&a, &b);
  read_clear (&a);
  read_clear (&b);
}

/* The input line each record of @parsed is cited at (warnings name it) is the compact line
 * that holds it: in the file, a compact line, in the order of the log; @z_lines: how many
 * compact lines give records, when every one does, else 0. */
static void
assert_record_lines (TksParsed  *parsed,
                     const char *text,
                     guint       z_lines)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n_lines = g_strv_length (lines);
  guint prev = 0, distinct = 0;

  g_assert_cmpuint (parsed->records->len, >, 0);
  for (guint i = 0; i < parsed->records->len; i++)
    {
      guint line = tks_parsed_record_line (parsed, i);

      if (line < 1 || line > n_lines || lines[line - 1][0] != 'Z' || line < prev)
        g_error ("record %u of %u is cited at line %u of %u (after line %u): “%.20s”", i,
                 parsed->records->len, line, n_lines, prev,
                 line >= 1 && line <= n_lines ? lines[line - 1] : "");
      distinct += line != prev;
      prev = line;
    }
  if (z_lines > 0)
    g_assert_cmpuint (distinct, ==, z_lines);
}

static guint
count_compact_lines (const char *text)
{
  guint n = text[0] == 'Z';

  for (const char *p = strchr (text, '\n'); p != NULL; p = strchr (p + 1, '\n'))
    n += p[1] == 'Z';
  return n;
}

/* A compact line carries many records: a warning about one cites the line that holds it, never
 * one past the file's end; by batches or line by line, with events or without, whatever the
 * line ends and the lines lost. */
static void
test_record_lines (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (15);

  for (guint events = 0; events < 2; events++)
    {
      g_autofree char *text = make_recording (3000, events, 6);
      g_autofree char *damaged = damage (text, rand, 0.1, FALSE);
      static const Reading sequential = { FALSE, 1, CHUNK_LINES, BATCH_LINES, 0 };
      static const Reading batches = { TRUE, 3, 2, 5, 0 };
      Read a = read_text (text, &sequential);
      Read b = read_text (text, &batches);
      Read c = read_text (damaged, &sequential);
      Read d = read_text (damaged, &batches);

      g_assert_null (a.error);
      g_assert_null (c.error);
      assert_record_lines (a.parsed, text, count_compact_lines (text));
      assert_record_lines (b.parsed, text, count_compact_lines (text));
      assert_record_lines (c.parsed, damaged, 0);
      assert_record_lines (d.parsed, damaged, 0);
      read_clear (&a);
      read_clear (&b);
      read_clear (&c);
      read_clear (&d);
    }
}

/* A recording whose link could not keep up at its end: its "Lost:" lines come after the last
 * record, each from the tick of that record to a later one. The capture shows the holes to
 * the last one's end, and no thread running across them; a hole first, before any record, is
 * placed too, where it ends (the board does not know when it began). */
static void
test_lost_at_ends (void)
{
  g_autofree char *text = make_recording (600, FALSE, 7);
  g_autoptr(GString) lost = g_string_new (text);
  g_autoptr(TksParsed) parsed = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  const TksRecord *last;
  const TksGap *gaps;
  guint n_records, n_gaps, n_warnings;
  const char *end_line;
  g_autofree char *tail = NULL;

  parsed = tks_parse_text (text, strlen (text), &error);
  g_assert_no_error (error);
  n_records = parsed->records->len;
  last = &g_array_index (parsed->records, TksRecord, n_records - 1);
  tail = g_strdup_printf ("Lost: before record %u, ticks %u to %u, 5 switches dropped\r\n"
                          "Lost: before record %u, ticks %u to %u, 9 switches dropped\r\n"
                          "Lost: before record %u, ticks %u to %u, 2 switches dropped\r\n",
                          n_records, last->tick, last->tick + 40, n_records, last->tick,
                          last->tick + 300, n_records, last->tick, last->tick + 310);
  end_line = strstr (lost->str, "End of dump:");
  g_assert_nonnull (end_line);
  g_string_insert (lost, end_line - lost->str, tail);
  /* and one before the first line of the log */
  g_string_replace (lost, "\r\nCompact:\r\n",
                    "\r\nCompact:\r\nLost: before record 0, ticks 0 to 1000, "
                    "7 switches dropped\r\n", 1);

  capture = tks_capture_new_from_data (lost->str, lost->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, n_records);
  tks_capture_get_warnings (capture, &n_warnings);
  for (guint w = 0; w < n_warnings; w++)
    g_assert_null (strstr (tks_capture_get_warnings (capture, NULL)[w], "hole"));
  gaps = tks_capture_get_gaps (capture, &n_gaps);
  /* the recording's own holes, and the four added */
  g_assert_cmpuint (n_gaps, ==, parsed->gaps->len + 4);
  g_assert_cmpfloat (gaps[0].begin, ==, 1000.0);
  g_assert_cmpfloat (gaps[0].end, ==, 1000.0);
  g_assert_cmpuint (gaps[0].dropped, ==, 7);
  g_assert_cmpfloat (tks_capture_get_start (capture), ==, 1000.0);
  /* (from the last record's place in its tick) */
  g_assert_cmpfloat (gaps[n_gaps - 3].begin, >=, last->tick + 0.0);
  g_assert_cmpfloat (gaps[n_gaps - 3].begin, <, last->tick + 1.0);
  g_assert_cmpfloat (gaps[n_gaps - 3].end, ==, last->tick + 40.0);
  g_assert_cmpfloat (gaps[n_gaps - 2].end, ==, last->tick + 300.0);
  g_assert_cmpfloat (gaps[n_gaps - 1].begin, ==, last->tick + 300.0);
  g_assert_cmpfloat (gaps[n_gaps - 1].end, ==, last->tick + 310.0);
  g_assert_cmpfloat (tks_capture_get_end (capture), ==, last->tick + 310.0);
  for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
    {
      const TksThread *th = tks_capture_get_thread (capture, t);

      for (guint r = 0; r < th->n_runs; r++)
        for (guint g = 0; g < n_gaps; g++)
          if (th->runs[r].begin < gaps[g].end && th->runs[r].end > gaps[g].begin)
            g_error ("thread %s runs from %g to %g, across the hole from %g to %g", th->name,
                     th->runs[r].begin, th->runs[r].end, gaps[g].begin, gaps[g].end);
      if (th->n_runs > 0)
        g_assert_cmpfloat (th->runs[th->n_runs - 1].end, <=, last->tick + 1.0);
      g_assert_false (th->flags & TKS_THREAD_RUNNING_AT_END);
    }
}

/* A recording that loses more often than a capture keeps holes: the ones past the limit are
 * said, never dropped in silence; memory stays bounded. */
static void
test_lost_too_often (void)
{
  g_autofree char *text = make_recording (300, FALSE, 8);
  g_autoptr(GString) lost = g_string_new (NULL);
  g_autoptr(TksParsed) parsed = NULL;
  g_autoptr(GError) error = NULL;
  const char *end_line = strstr (text, "End of dump:");
  guint n_records;

  parsed = tks_parse_text (text, strlen (text), &error);
  g_assert_no_error (error);
  n_records = parsed->records->len;
  g_clear_pointer (&parsed, tks_parsed_free);
  g_assert_nonnull (end_line);
  g_string_append_len (lost, text, end_line - text);
  for (guint i = 0; i < TKS_MAX_GAPS + 2; i++)
    g_string_append_printf (lost, "Lost: before record %u, ticks %u to %u, 1 switches dropped\r\n",
                            n_records, 5000 + i, 5001 + i);
  g_string_append (lost, end_line);
  parsed = tks_parse_text (lost->str, lost->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (parsed->gaps->len, ==, TKS_MAX_GAPS);
  g_assert_cmpuint (parsed->n_warnings, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (parsed->warnings, 0),
                            "more than 65536 holes, more than a capture keeps"));
}

/* A recording longer than a capture holds: its first records are read, line by line and by
 * batches alike, the same as the whole recording's first ones; the rest is passed over, said
 * in one warning, and the capture is not damaged. (The limit is lowered here: the reader's is
 * MAX_RECORDS, hours of a busy board.) */
static void
test_too_long (void)
{
  for (guint events = 0; events < 2; events++)
    {
      g_autofree char *text = make_recording (events ? 1500 : 6000, events, events ? 4 : 1);
      static const Reading sequential = { FALSE, 1, CHUNK_LINES, BATCH_LINES, 0, 0 };
      Read whole = read_text (text, &sequential);
      const guint max = events ? 1000 : 2000;

      for (guint b = 0; b < 3; b++)
        {
          Reading how = { b > 0, 3, 2, 5, b == 2 ? 777 : 0, max };
          Read cut = read_text (text, &how);
          GArray *all = whole.parsed->records, *first = cut.parsed->records;
          guint n = events ? cut.parsed->events->entries->len : first->len;
          guint said = 0;

          g_assert_null (cut.error);
          g_assert_null (cut.parsed->damage);
          g_assert_cmpuint (n, <=, max);
          g_assert_cmpuint (n, >, max - TKS_COMPACT_MAX_ENTRIES);
          g_assert_cmpuint (first->len, <, all->len);
          g_assert_cmpmem (first->data, first->len * sizeof (TksRecord),
                           all->data, first->len * sizeof (TksRecord));
          for (guint w = 0; w < cut.parsed->warnings->len; w++)
            said += strstr (cut.parsed->warnings->pdata[w], "only its first") != NULL;
          g_assert_cmpuint (said, ==, 1);
          g_assert_cmpuint (cut.parsed->n_warnings, ==, whole.parsed->n_warnings + 1);
          read_clear (&cut);
        }
      read_clear (&whole);
    }

  /* a log after a recording that was too long is read whole: its trigger line too */
  {
    g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                   "board-trigger-exits.saved.txt", NULL);
    g_autofree char *saved = NULL;
    g_autofree char *recording = make_recording (6000, FALSE, 1);
    g_autofree char *both = NULL;
    const char *list;
    static const Reading cut = { FALSE, 1, CHUNK_LINES, BATCH_LINES, 0, 2000 };
    Read r;

    g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
    list = strstr (saved, "threads_list");
    g_assert_nonnull (list);
    both = g_strconcat (recording, "ch> ", list, NULL);
    r = read_text (both, &cut);
    g_assert_null (r.error);
    g_assert_true (r.parsed->has_trigger);
    g_assert_cmpuint (r.parsed->trigger_tick, ==, 17154);
    read_clear (&r);
  }
}

/* A recording of threads that come and go, many more than numbers (63) in all, a dozen at a
 * time: each of the @n_spawned threads is switched in a few times, then exits while it runs;
 * then @n_quiet switches between the two threads that stay.
 * @truth gets, for each switch, its tick and the name of the thread switched in (one switch
 * a tick, so that a run's tick names it). */
#define MAX_SPAWNED 400

/* Switches to @next at @tick, notes it in @truth, and polls the recording when @poll. */
static void
churn_switch (thread_t   *next,
              systime_t   tick,
              GArray     *truth,
              HostStream *out,
              gboolean    poll)
{
  static const uint8_t keepalive = 0x16;
  gpointer at = GUINT_TO_POINTER ((guint) tick), name = (gpointer) next->name;

  ch_host_time = tick;
  ch_host_switch (next);
  g_array_append_val (truth, at);
  g_array_append_val (truth, name);
  if (poll)
    g_assert_cmpint (tuRecordPoll (&out->base, &keepalive, 1), ==, 1);
}

static char *
make_churn_recording (guint    n_spawned,
                      guint    n_quiet,
                      guint32  seed,
                      GArray  *truth)
{
  static thread_t base[2], spawned[MAX_SPAWNED];
  static char names[MAX_SPAWNED][16];
  static const uint8_t stop = THREADS_RECORD_STOP_BYTE;
  thread_t *alive[16];
  guint n_alive = 0, created = 0;
  HostStream out;
  GString *text = g_string_new ("threads_record\r\n");
  guint32 rng = seed;
  systime_t tick = 1000;

  g_assert_cmpuint (n_spawned, <=, MAX_SPAWNED);
  ch_host_reset ();
  tuResetState ();
  memset (base, 0, sizeof base);
  memset (spawned, 0, sizeof spawned);
  ch_host_time = tick;
  ch_host_thread_init (&base[0], "base 0", 100, CH_FLAG_MODE_STATIC);
  ch_host_thread_init (&base[1], "base 1", 101, CH_FLAG_MODE_STATIC);
  ch_host_switch (&base[0]);
  alive[n_alive++] = &base[0];
  alive[n_alive++] = &base[1];
  host_stream_init (&out);
  g_assert_cmpint (tuRecordBegin (&out.base, 0), ==, 1);

  for (guint i = 0; created < n_spawned || n_alive > 2; i++)
    {
      thread_t *current = ch_host_current (), *next;

      rng = rng * 1103515245u + 12345u;
      tick++;
      ch_host_time = tick;
      if (created < n_spawned && n_alive < G_N_ELEMENTS (alive) && (rng >> 28) < 4)
        {
          g_snprintf (names[created], sizeof names[created], "spawned %u", created);
          ch_host_thread_init (&spawned[created], names[created], (tprio_t) (110 + created % 20),
                               CH_FLAG_MODE_STATIC);
          alive[n_alive++] = &spawned[created++];
        }
      if (current >= spawned && current < spawned + MAX_SPAWNED && (rng >> 24) % 4 == 0)
        {
          /* The running thread exits: the kernel switches to another. */
          ch_host_thread_exit (current);
          for (guint a = 0; a < n_alive; a++)
            if (alive[a] == current)
              alive[a] = alive[--n_alive];
        }
      do
        {
          rng = rng * 1103515245u + 12345u;
          next = alive[(rng >> 16) % n_alive];
        }
      while (next == current);
      churn_switch (next, tick, truth, &out, i % 3 == 0);
    }
  /* Then the two first alone, for a while: long stretches of full lines. */
  for (guint i = 0; i < n_quiet; i++)
    churn_switch (ch_host_current () == &base[0] ? &base[1] : &base[0], ++tick, truth, &out,
                  i % 3 == 0);
  g_assert_cmpint (tuRecordPoll (&out.base, &stop, 1), ==, 0);
  g_string_append (text, out.text->str);
  g_string_append (text, "ch> ");
  g_string_free (out.text, TRUE);
  return g_string_free (text, FALSE);
}

/* The thread list of a recording changes: a thread's exit gives its number back, and the
 * next thread created takes it. Read every way, the lists at the end are those of a dump (the
 * live threads numbered in order, the exited ones in exit order with the number each had),
 * and the capture gives every run to the thread that ran it, before and after a number's
 * reuse. */
static void
test_numbers_reused (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (15);
  g_autoptr(GArray) truth = g_array_new (FALSE, FALSE, sizeof (gpointer));
  g_autofree char *text = make_churn_recording (300, 3000, 5, truth);
  g_autoptr(GHashTable) ran = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(TksCapture) capture = NULL;
  Read expected = check_text (text, rand);
  guint n_runs = 0, n_switches = 0, n_warnings = 0;

  g_assert_null (expected.error);
  g_assert_cmpuint (expected.parsed->n_warnings, ==, 0);
  g_assert_null (expected.parsed->damage);
  /* Every spawned thread exited: only the two first are live; the 300 others are deleted. */
  g_assert_cmpuint (expected.parsed->live->len, ==, 2);
  g_assert_cmpuint (expected.parsed->deleted->len, ==, 300);
  for (guint i = 0; i < expected.parsed->live->len; i++)
    g_assert_cmpint (((TksListEntry *) expected.parsed->live->pdata[i])->number, ==, (int) i + 1);
  for (guint i = 0; i < expected.parsed->deleted->len; i++)
    {
      const TksListEntry *e = expected.parsed->deleted->pdata[i];

      g_assert_true (g_str_has_prefix (e->name, "spawned "));
      g_assert_cmpint (e->number, >=, 3);
      g_assert_cmpint (e->number, <=, 2 + 16);
    }
  read_clear (&expected);

  /* The truth: which thread each switch switched in, by tick. */
  for (guint i = 0; i < truth->len; i += 2)
    {
      g_hash_table_insert (ran, g_array_index (truth, gpointer, i), g_array_index (truth, gpointer, i + 1));
      n_switches++;
    }
  capture = tks_test_capture_of_text (text, -1);
  tks_capture_get_warnings (capture, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 0);
  g_assert_cmpuint (tks_capture_get_n_threads (capture), ==, 302);
  for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
    {
      const TksThread *th = tks_capture_get_thread (capture, t);

      g_assert_false (th->flags & TKS_THREAD_NOT_LISTED);
      for (guint r = 0; r < th->n_runs; r++)
        {
          const char *who = g_hash_table_lookup (ran, GUINT_TO_POINTER ((guint) th->runs[r].begin));

          /* (the first run of the capture began before its first switch) */
          if (who == NULL && r == 0 && (th->flags & TKS_THREAD_RUNNING_AT_START))
            continue;
          g_assert_nonnull (who);
          g_assert_cmpstr (who, ==, th->name);
          n_runs++;
        }
    }
  g_assert_cmpuint (n_runs, ==, n_switches);
}

/* The same, damaged: read the same every way (lines lost with exits in them cost numbers: the
 * reader says so, and stays within bounds). */
static void
test_numbers_reused_damaged (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (16);
  g_autoptr(GArray) truth = g_array_new (FALSE, FALSE, sizeof (gpointer));
  g_autofree char *text = make_churn_recording (150, 6000, 6, truth);

  for (guint round = 0; round < 4; round++)
    {
      g_autofree char *damaged = damage (text, rand, round < 2 ? 0.1 : 0.4, round == 3);
      Read expected = check_text (damaged, rand);

      read_clear (&expected);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parser/compact-batches/whole", test_whole);
  g_test_add_func ("/parser/compact-batches/damaged", test_damaged);
  g_test_add_func ("/parser/compact-batches/hostile", test_hostile);
  g_test_add_func ("/parser/compact-batches/events", test_events);
  g_test_add_func ("/parser/compact-batches/too-long", test_too_long);
  g_test_add_func ("/parser/compact-batches/record-lines", test_record_lines);
  g_test_add_func ("/parser/compact-batches/lost-at-ends", test_lost_at_ends);
  g_test_add_func ("/parser/compact-batches/lost-too-often", test_lost_too_often);
  g_test_add_func ("/parser/compact-batches/numbers-reused", test_numbers_reused);
  g_test_add_func ("/parser/compact-batches/numbers-reused-damaged", test_numbers_reused_damaged);
  return g_test_run ();
}
