/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tks-capture.h"
#include "tks-error.h"
#include "tks-events.h"
#include "tks-recorder.h"
#include "tks-test-data.h"

/*
 * Hostile recording streams (the board's side of threads_record) through the recorder, then
 * the file it wrote through the reader: for each, the recorder's summary agrees with what the
 * reader makes of the file (records, drops, holes, lines ignored), every problem is named,
 * and the file opens.
 */

typedef struct
{
  GPtrArray *notices;
} Seen;

static void
on_notice (const char *message,
           gpointer    user_data)
{
  Seen *seen = user_data;

  if (seen->notices->len < 50)
    g_ptr_array_add (seen->notices, g_strdup (message));
}

/* A recording of the simulated board with @insert after its @nth compact line (or, @nth
 * negative, before its end line; G_MININT: after the prompt). */
static GString *
stream_with (const char *fixture,
             int         nth,
             const char *insert,
             gsize       insert_len)
{
  gsize len;
  g_autofree char *text = tks_test_data_contents (fixture, &len);
  const char *start = strstr (text, "threads_record");
  GString *s;
  const char *at;

  g_assert_nonnull (start);
  s = g_string_new_len (start, len - (start - text));
  if (nth == G_MININT)
    {
      g_string_append_len (s, insert, insert_len);
      return s;
    }
  if (nth < 0)
    at = strstr (s->str, "\r\nEnd of dump:");
  else
    {
      at = strstr (s->str, "\r\nZ");
      for (int i = 0; i < nth && at != NULL; i++)
        at = strstr (at + 2, "\r\nZ");
      if (at != NULL)
        at = strstr (at + 2, "\r\n");
    }
  g_assert_nonnull (at);
  g_string_insert_len (s, at + 2 - s->str, insert, insert_len);
  return s;
}

static GString *
repeat (const char *line,
        guint       times)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < times; i++)
    g_string_append (s, line);
  return s;
}

typedef struct
{
  TksRecorderStats  st;
  TksCapture       *capture;
  guint             n_warnings;
  guint64           gaps_dropped;
  Seen              seen;
  gboolean          may_fail;   /* the recording may end in a fault (kept in fault) */
  GError           *fault;
} Outcome;

static void
outcome_clear (Outcome *o)
{
  g_clear_object (&o->capture);
  g_clear_pointer (&o->seen.notices, g_ptr_array_unref);
  g_clear_error (&o->fault);
}

/* Records @stream as the recorder would have, then reads the file back. */
static void
record_and_read (GString *stream,
                 Outcome *o)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "tks-test-record-hostile.txt",
                                            NULL);
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(GError) error = NULL;
  const TksGap *gaps;
  guint n_gaps;

  o->seen.notices = g_ptr_array_new_with_free_func (g_free);
  recorder = tks_recorder_new (path, &error);
  g_assert_no_error (error);
  tks_recorder_set_notice_func (recorder, on_notice, &o->seen);
  /* as it arrives: in pieces */
  for (gsize off = 0; off < stream->len; off += 16384)
    tks_recorder_feed (recorder, (const guint8 *) stream->str + off,
                       MIN (16384, stream->len - off));
  tks_recorder_close (recorder, &error);
  if (o->may_fail)
    o->fault = g_steal_pointer (&error);
  g_assert_no_error (error);
  tks_recorder_get_stats (recorder, &o->st);
  for (guint i = 0; i < MIN (o->seen.notices->len, 5); i++)
    g_test_message ("recorder: %s", (char *) g_ptr_array_index (o->seen.notices, i));
  g_test_message ("recorder: %" G_GUINT64_FORMAT " entries, %" G_GUINT64_FORMAT " dropped, "
                  "%u damaged, %u ignored, %" G_GUINT64_FORMAT " holes", o->st.entries, o->st.dropped,
                  o->st.damaged, o->st.ignored, o->st.holes);

  o->capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  {
    const char * const *w = tks_capture_get_warnings (o->capture, &o->n_warnings);

    for (guint i = 0; i < MIN (o->n_warnings, 5); i++)
      g_test_message ("reader: %s", w[i]);
  }
  gaps = tks_capture_get_gaps (o->capture, &n_gaps);
  o->gaps_dropped = 0;
  for (guint g = 0; g < n_gaps; g++)
    o->gaps_dropped += gaps[g].dropped;
  g_test_message ("reader: %u records, %u holes, %" G_GUINT64_FORMAT " dropped, %u warnings",
                  tks_capture_get_n_records (o->capture), n_gaps, o->gaps_dropped,
                  o->n_warnings);
  g_unlink (path);
}

/* The recorder's summary and the reader agree; a problem makes both speak. */
static void
assert_agree (Outcome *o,
              gboolean hostile)
{
  guint n_gaps;

  (void) tks_capture_get_gaps (o->capture, &n_gaps);
  if (tks_capture_get_events (o->capture) != NULL)
    {
      guint n_entries;

      (void) tks_events_get_entries (tks_capture_get_events (o->capture), &n_entries);
      g_assert_cmpuint (n_entries, ==, o->st.entries);
    }
  else
    g_assert_cmpuint (tks_capture_get_n_records (o->capture), ==, o->st.entries);
  g_assert_cmpuint (o->gaps_dropped, ==, o->st.dropped);
  g_assert_cmpuint (n_gaps, ==, o->st.holes);
  if (hostile)
    {
      g_assert_cmpuint (o->seen.notices->len, >, 0);
      g_assert_cmpuint (o->n_warnings, >, 0);
    }
}

static void
test_clean (void)
{
  g_autoptr(GString) s = stream_with ("simboard-record-5s.raw.txt", G_MININT, "", 0);
  Outcome o = { 0 };

  record_and_read (s, &o);
  assert_agree (&o, FALSE);
  g_assert_cmpuint (o.st.entries, >, 1000);
  g_assert_cmpuint (o.n_warnings, ==, 0);
  g_assert_true (o.st.ended);
  outcome_clear (&o);
}

/* A stray end line in mid-stream (noise that looks like one): named, and every line after it
 * decodes; the recording ends at the real end line. */
static void
test_stray_end_line (void)
{
  static const char end[] = "End of dump: 6000 records, checksum 1A2B3C4D\r\n";
  g_autoptr(GString) clean = stream_with ("simboard-record-5s.raw.txt", G_MININT, "", 0);
  g_autoptr(GString) s = stream_with ("simboard-record-5s.raw.txt", 40, end, strlen (end));
  Outcome c = { 0 }, o = { 0 };

  record_and_read (clean, &c);
  record_and_read (s, &o);
  assert_agree (&o, TRUE);
  g_assert_cmpuint (o.st.entries, ==, c.st.entries);
  g_assert_cmpuint (o.st.ignored, ==, 1);
  g_assert_true (o.st.ended);
  g_assert_true (tks_test_has_warning (o.capture, "end line in the middle"));
  g_assert_null (tks_capture_get_damage (o.capture));
  outcome_clear (&c);
  outcome_clear (&o);
}

/* Lines after the end line, before the prompt: the end line was not the end (the last line
 * before the prompt is); it is named and passed over by both, the lines after it are read as
 * the stream's, and the recording has no end: both say so. */
static void
test_after_end_line (void)
{
  static const char more[] = "Lost: before record 14389, ticks 1 to 2, 3 switches dropped\r\n"
                             "Heartbeat: tick 5\r\n";
  g_autoptr(GString) clean = stream_with ("simboard-record-5s.raw.txt", G_MININT, "", 0);
  g_autoptr(GString) s = g_string_new (clean->str);
  Outcome c = { 0 }, o = { 0 };
  char *prompt = g_strrstr (s->str, "ch> ");

  g_assert_nonnull (prompt);
  g_string_insert (s, prompt - s->str, more);
  record_and_read (clean, &c);
  record_and_read (s, &o);
  assert_agree (&o, TRUE);
  g_assert_cmpuint (o.st.entries, ==, c.st.entries);
  g_assert_cmpuint (o.st.dropped, ==, 3);
  g_assert_cmpuint (o.st.ignored, ==, 1);
  g_assert_false (o.st.ended);
  g_assert_true (tks_test_has_warning (o.capture, "end line in the middle"));
  g_assert_nonnull (tks_capture_get_damage (o.capture));
  outcome_clear (&c);
  outcome_clear (&o);
}

/* Announcements the reader cannot take (numbers no thread can have, numbers that are not the
 * next, 100,000 of them, endless name lines): the recorder names them as the reader does, and
 * the file opens with the same records. */
static void
test_announcements (void)
{
  static const char * const lines[] = {
    "Thread number 99 : Prio = 1, Log = Yes, Name = impossible\r\n",
    "Thread number 70 : Prio = 1, Log = Yes, Name = impossible\r\n",
    "Thread number  5 : Prio = 1, Log = Yes, Name = not the next\r\n",
    "Thread number  0 : Prio = 1, Log = Yes, Name = zero\r\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    for (guint t = 0; t < 3; t++)
      {
        guint times = t == 0 ? 1 : t == 1 ? 1000 : 100000;
        g_autoptr(GString) many = repeat (lines[i], times);
        g_autoptr(GString) s = stream_with ("simboard-record-5s.raw.txt", 30, many->str,
                                            many->len);
        Outcome o = { 0 };

        g_test_message ("%u × %s", times, lines[i]);
        record_and_read (s, &o);
        assert_agree (&o, TRUE);
        g_assert_true (o.st.ended);
        outcome_clear (&o);
      }
}

static void
test_name_lines (void)
{
  static const char * const lines[] = {
    "Name  1 : Kind = marker, Name = sample\r\n",
    "Name 77 : Kind = no such kind, Name = again and again\r\n",
    "Name 999999 : Kind = marker, Name = far\r\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autoptr(GString) many = repeat (lines[i], 200000);
      g_autoptr(GString) s = stream_with ("simboard-record-events.raw.txt", 30, many->str,
                                          many->len);
      Outcome o = { 0 };

      g_test_message ("%s", lines[i]);
      record_and_read (s, &o);
      assert_agree (&o, TRUE);
      g_assert_true (o.st.ended);
      outcome_clear (&o);
    }
}

/* Hole lines with absurd counts: one rule for the recorder and the reader (each number is
 * 0 to 4294967295, as the board prints them), one reading. */
static void
test_absurd_lost (void)
{
  static const char * const lines[] = {
    "Lost: before record 0, ticks 1 to 2, -3 switches dropped\r\n",
    "Lost: before record 0, ticks 1 to 2, 4294967299 switches dropped\r\n",
    "Lost: before record 0, ticks 1 to 2, 18446744073709551613 switches dropped\r\n",
    "Lost: before record 0, ticks 1 to 2, 4294967295 switches dropped\r\n",
    "Lost: before record -1, ticks 1 to 2, 5 switches dropped\r\n",
    "Lost: before record 0, ticks 1 to 2, +5 switches dropped\r\n",
    "Lost: before record 0, ticks 1 to 2, 5 switches dropped and more\r\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autoptr(GString) many = repeat (lines[i], 3);
      g_autoptr(GString) s = stream_with ("simboard-record-5s.raw.txt", 30, many->str,
                                          many->len);
      Outcome o = { 0 };

      g_test_message ("%s", lines[i]);
      record_and_read (s, &o);
      assert_agree (&o, TRUE);
      /* three of the largest count add up past 2^32 without wrapping */
      if (i == 3)
        g_assert_cmpuint (o.st.dropped, ==, 3 * (guint64) G_MAXUINT32);
      else
        g_assert_cmpuint (o.st.dropped, ==, 0);
      outcome_clear (&o);
    }
}

/* More holes than a capture keeps: counted, said by both, and the capture marked damaged. */
static void
test_many_holes (void)
{
  g_autoptr(GString) many = g_string_new (NULL);
  g_autoptr(GString) s = NULL;
  Outcome o = { 0 };

  /* each from another tick: none joins the one before */
  for (guint i = 0; i < 70000; i++)
    g_string_append_printf (many, "Lost: before record 0, ticks %u to %u, 1 switches dropped\r\n",
                            i, i + 1);
  s = stream_with ("simboard-record-5s.raw.txt", 30, many->str, many->len);

  record_and_read (s, &o);
  g_assert_cmpuint (tks_capture_get_n_records (o.capture), ==, o.st.entries);
  g_assert_cmpuint (o.st.dropped, ==, 70000);
  g_assert_cmpuint (o.st.holes, ==, 65536);
  g_assert_cmpuint (o.st.holes_not_kept, ==, 70000 - 65536);
  {
    guint n_gaps;

    (void) tks_capture_get_gaps (o.capture, &n_gaps);
    g_assert_cmpuint (n_gaps, ==, o.st.holes);
  }
  g_assert_nonnull (tks_capture_get_damage (o.capture));
  g_assert_nonnull (strstr (tks_capture_get_damage (o.capture), "holes"));
  outcome_clear (&o);
}

/* A recording followed by megabytes of garbage still opens, with its records and a warning. */
static void
test_garbage_after (void)
{
  g_autoptr(GString) junk = g_string_new (NULL);
  g_autoptr(GString) s = NULL;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "tks-test-record-junk.txt", NULL);
  g_autoptr(TksCapture) clean = NULL, capture = NULL;
  g_autoptr(GError) error = NULL;
  GRand *rand = g_rand_new_with_seed (7);

  for (guint i = 0; i < 24u << 20; i++)
    g_string_append_c (junk, (char) (0x80 | g_rand_int_range (rand, 0, 0x7f)));
  g_rand_free (rand);
  s = stream_with ("simboard-record-5s.raw.txt", G_MININT, junk->str, junk->len);
  clean = tks_test_load_data ("simboard-record-5s.raw.txt");
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, tks_capture_get_n_records (clean));
  g_assert_true (tks_test_has_warning (capture, "MiB"));
  g_unlink (path);
}

/* Noise in the middle of a recording, more than the reader passes over before it ignores the
 * rest of a file: as one endless line, or as many short ones. The recording ends there, with
 * a message, and the file holds every entry the recorder counted (none it cannot read). */
static void
test_endless_noise (void)
{
  for (guint mode = 0; mode < 2; mode++)
    {
      g_autoptr(GString) noise = g_string_new (NULL);
      g_autoptr(GString) s = NULL;
      g_autoptr(TksCapture) clean = tks_test_load_data ("simboard-record-5s.raw.txt");
      Outcome o = { .may_fail = TRUE };

      /* one line past the reader's 16 MiB; short lines past the recorder's bound only */
      while (noise->len < (mode == 0 ? 17u << 20 : 9u << 20))
        g_string_append (noise, mode == 0 ? "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                                          : "noise of a link that went mad, again and again\r\n");
      if (mode == 0)
        g_string_append (noise, "\r\n");
      s = stream_with ("simboard-record-5s.raw.txt", 10, noise->str, noise->len);
      record_and_read (s, &o);
      assert_agree (&o, FALSE);
      g_assert_cmpuint (o.st.entries, >, 0);
      g_assert_cmpuint (tks_capture_get_n_records (o.capture), <,
                        tks_capture_get_n_records (clean));
      g_assert_false (tks_test_has_warning (o.capture, "the rest of the input is ignored"));
      g_assert_false (o.st.ended);
      g_assert_error (o.fault, TKS_ERROR, TKS_ERROR_PARSE);
      g_assert_nonnull (strstr (o.fault->message, "without a line of the stream"));
      outcome_clear (&o);
    }
}

/* "Records:" in a dump's header with a count no board reaches (the largest 32-bit number, which
 * once read as "unknown" without a word): a warning, and the dump reads. */
static void
test_absurd_records_header (void)
{
  g_autofree char *text = tks_test_data_contents ("simboard-dump.raw.txt", NULL);
  g_autoptr(GString) s = g_string_new (text);
  g_autoptr(TksCapture) capture = NULL;
  char *line = strstr (s->str, "\nRecords: ");
  char *eol;

  g_assert_nonnull (line);
  eol = strchr (line + 1, '\r');
  g_string_erase (s, line + 10 - s->str, eol - (line + 10));
  g_string_insert (s, line + 10 - s->str, "4294967295");
  capture = tks_test_capture_of_text (s->str, -1);
  g_assert_nonnull (capture);
  g_assert_true (tks_test_has_warning (capture, "more records than any board keeps"));
  g_assert_cmpuint (tks_capture_get_n_records (capture), >, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/record-hostile/clean", test_clean);
  g_test_add_func ("/record-hostile/stray-end-line", test_stray_end_line);
  g_test_add_func ("/record-hostile/after-end-line", test_after_end_line);
  g_test_add_func ("/record-hostile/announcements", test_announcements);
  g_test_add_func ("/record-hostile/name-lines", test_name_lines);
  g_test_add_func ("/record-hostile/absurd-lost", test_absurd_lost);
  g_test_add_func ("/record-hostile/many-holes", test_many_holes);
  g_test_add_func ("/record-hostile/garbage-after", test_garbage_after);
  g_test_add_func ("/record-hostile/endless-noise", test_endless_noise);
  g_test_add_func ("/record-hostile/absurd-records-header", test_absurd_records_header);
  return g_test_run ();
}
