/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Counter coder 4: the lines "Z~" of a log whose entries carry the cycle counter. The entries
 * of a recording of the simulated board (every event, its 168 MHz counter) are coded again by
 * the board library's coder on the host stand-in: the lines must decode to exactly those
 * entries, each line on its own (a damaged line loses only itself), in at most 2.5 bytes an
 * entry; so must the same entries with a counter that steps by 1 (as a real cycle counter,
 * not in the simulated board's steps of 168). Recordings of boards of counter coder 3 still
 * read, and of coder 4 too.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"
#include "tu_internal.h"
#include "tks-capture.h"
#include "tks-compact.h"
#include "tks-error.h"
#include "tks-test-data.h"

/* The entries of a recording's compact lines, decoded with the coder its header names. */
static GArray *
recording_entries (const char *name)
{
  g_autofree char *text = tks_test_data_contents (name, NULL);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(TksCompactDecoder) dec = tks_compact_decoder_new (1000, 168000000);
  const GArray *decoded;
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (TksEntry));

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      if (g_str_has_prefix (lines[i], "Counter coder: "))
        tks_compact_decoder_set_coder (dec, (guint) g_ascii_strtoull (lines[i] + 15, NULL, 10));
      else if (lines[i][0] == 'Z')
        g_assert_true (tks_compact_decoder_line (dec, lines[i], strlen (lines[i]), NULL));
    }
  decoded = tks_compact_decoder_entries (dec);
  g_array_append_vals (entries, decoded->data, decoded->len);
  g_assert_cmpuint (entries->len, >, 10000);
  return entries;
}

/* Moves each counter value on by a pseudo-random 0 to 167 (within the simulated board's step
 * of 168), never before the one before it: a counter that steps by 1. */
static void
fine_counter (GArray *entries)
{
  guint32 seed = 12345, prev = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      TksEntry *e = &g_array_index (entries, TksEntry, i);

      seed = seed * 1103515245u + 12345u;
      e->counter += (seed >> 16) % 168u;
      if (i > 0 && (gint32) (e->counter - prev) < 0)
        e->counter = prev;
      prev = e->counter;
    }
}

/* The lines the board's coder prints for @entries (CR LF after each). */
static char *
code_entries (const GArray *entries)
{
  HostStream stream;
  g_autofree tu_zlog_t *log = g_new0 (tu_zlog_t, 1);

  host_stream_init (&stream);
  tu_zlog_init (log);
  for (guint i = 0; i < entries->len; i++)
    {
      const TksEntry *d = &g_array_index (entries, TksEntry, i);
      tu_entry_t e = { d->record, d->counter, d->kind, d->a, d->b };

      tu_zlog_add (&stream.base, log, &e);
    }
  tu_zlog_flush (&stream.base, log);
  return host_stream_steal (&stream);
}

static void
assert_same_entries (const TksEntry *got, const TksEntry *want, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmphex (got[i].record, ==, want[i].record);
      g_assert_cmphex (got[i].counter, ==, want[i].counter);
      g_assert_cmpuint (got[i].kind, ==, want[i].kind);
      g_assert_cmphex (got[i].a, ==, want[i].a);
      g_assert_cmphex (got[i].b, ==, want[i].b);
    }
}

/* Codes @entries, checks the size, and decodes the lines back: all at once, each line alone,
 * and with one line damaged. Returns the bytes an entry. */
static double
round_trip (const GArray *entries)
{
  g_autofree char *text = code_entries (entries);
  g_auto(GStrv) lines = g_strsplit (text, "\r\n", -1);
  g_autoptr(TksCompactDecoder) dec = tks_compact_decoder_new (1000, 168000000);
  g_autoptr(TksCompactDecoder) hurt = tks_compact_decoder_new (1000, 168000000);
  guint n_lines = g_strv_length (lines) - 1, at = 0, victim = n_lines / 2, victim_at = 0;
  guint victim_n = 0;
  const GArray *all, *some;

  g_assert_cmpstr (lines[n_lines], ==, "");
  tks_compact_decoder_set_coder (dec, 4);
  tks_compact_decoder_set_coder (hurt, 4);
  for (guint i = 0; i < n_lines; i++)
    {
      g_autoptr(TksCompactDecoder) alone = tks_compact_decoder_new (1000, 168000000);
      g_autoptr(GError) error = NULL;
      const GArray *mine;

      g_assert_true (g_str_has_prefix (lines[i], "Z~"));
      g_assert_cmpuint (strlen (lines[i]) + 2, <=, 2 + TU_Z_PAYLOAD_CHARS + 4 + 2);
      g_assert_true (tks_compact_decoder_line (dec, lines[i], strlen (lines[i]), &error));
      g_assert_no_error (error);

      /* alone, as the first line a reader sees */
      tks_compact_decoder_set_coder (alone, 4);
      g_assert_true (tks_compact_decoder_line (alone, lines[i], strlen (lines[i]), NULL));
      mine = tks_compact_decoder_entries (alone);
      g_assert_cmpuint (at + mine->len, <=, entries->len);
      assert_same_entries ((const TksEntry *) (gconstpointer) mine->data,
                           &g_array_index (entries, TksEntry, at), mine->len);
      if (i == victim)
        {
          victim_at = at;
          victim_n = mine->len;
          /* a character in the middle of the line changed */
          lines[i][strlen (lines[i]) / 2] ^= 1;
          g_assert_false (tks_compact_decoder_line (hurt, lines[i], strlen (lines[i]), NULL));
        }
      else
        g_assert_true (tks_compact_decoder_line (hurt, lines[i], strlen (lines[i]), NULL));
      at += mine->len;
    }
  g_assert_cmpuint (at, ==, entries->len);
  all = tks_compact_decoder_entries (dec);
  g_assert_cmpuint (all->len, ==, entries->len);
  assert_same_entries ((const TksEntry *) (gconstpointer) all->data,
                       (const TksEntry *) (gconstpointer) entries->data, entries->len);

  /* the damaged line lost its own entries, no others */
  some = tks_compact_decoder_entries (hurt);
  g_assert_cmpuint (victim_n, >, 0);
  g_assert_cmpuint (some->len, ==, entries->len - victim_n);
  assert_same_entries ((const TksEntry *) (gconstpointer) some->data,
                       (const TksEntry *) (gconstpointer) entries->data, victim_at);
  assert_same_entries (&g_array_index (some, TksEntry, victim_at),
                       &g_array_index (entries, TksEntry, victim_at + victim_n),
                       entries->len - victim_at - victim_n);
  g_test_message ("%u entries, %u lines, %.2f bytes an entry", entries->len, n_lines,
                  (double) strlen (text) / entries->len);
  return (double) strlen (text) / entries->len;
}

/* The simulated board's counter, as recorded: at most 2.5 bytes an entry. */
static void
test_simboard_bytes (void)
{
  g_autoptr(GArray) entries = recording_entries ("simboard-record-events.raw.txt");

  g_assert_cmpfloat (round_trip (entries), <=, 2.5);
}

/* A counter that steps by 1: the entries still come back exactly. Its sub-step jitter is
 * noise that no model predicts (about 7.4 bits an entry), so no bound below the plain
 * figure's plus that noise is asserted. */
static void
test_fine_counter (void)
{
  g_autoptr(GArray) entries = recording_entries ("simboard-record-events.raw.txt");
  double coarse = round_trip (entries);

  fine_counter (entries);
  g_assert_cmpfloat (round_trip (entries), <=, coarse + 7.4 / 6.5 + 0.5);
}

/* Recordings of a board of counter coder 3 (the range coder's lines before this one) and of
 * coder 4 read whole: every entry the end line counts, no damage. */
static void
test_recordings_read (gconstpointer data)
{
  const char *name = data;
  g_autofree char *text = tks_test_data_contents (name, NULL);
  g_autoptr(TksCapture) capture = tks_test_capture_of_text (text, -1);
  const char *end = strstr (text, "End of dump: ");
  guint n_warnings;
  guint64 n;

  g_assert_nonnull (end);
  n = g_ascii_strtoull (end + strlen ("End of dump: "), NULL, 10);
  tks_capture_get_warnings (capture, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 0);
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), >, 1000);
  g_assert_cmpuint (recording_entries (name)->len, ==, n);
}

/* Lines of coder 4 read as coder 3 (a header that lies) do not give the same entries, and a
 * reader says so rather than showing them as they are. */
static void
test_coder_matters (void)
{
  g_autoptr(GArray) entries = recording_entries ("simboard-record-events.raw.txt");
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(TksCompactDecoder) dec = tks_compact_decoder_new (1000, 168000000);
  guint bad = 0;

  g_array_set_size (entries, 2000);
  text = code_entries (entries);
  lines = g_strsplit (text, "\r\n", -1);
  tks_compact_decoder_set_coder (dec, 3);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    bad += !tks_compact_decoder_line (dec, lines[i], strlen (lines[i]), NULL);
  g_assert_cmpuint (bad, >, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compact/coder-4/simboard-bytes", test_simboard_bytes);
  g_test_add_func ("/compact/coder-4/fine-counter", test_fine_counter);
  g_test_add_func ("/compact/coder-4/coder-matters", test_coder_matters);
  g_test_add_data_func ("/compact/coder-4/read-coder-3", "simboard-record-events-coder3.raw.txt",
                        test_recordings_read);
  g_test_add_data_func ("/compact/coder-4/read-coder-4", "simboard-record-events-coder4.raw.txt",
                        test_recordings_read);
  return g_test_run ();
}
