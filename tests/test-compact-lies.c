/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Compact lines that lie with a good checksum: a key frame that announces fewer entries than
 * its line carries, lines swapped, repeated or moved back, numbers across the wrap. Recordings
 * of the simulated board (with the counter's coder 2, and switches only) are forged line by
 * line, their checksums made good again. Whatever the order, every line is either decoded or
 * counted lost, once; no message names an impossible stretch of lines; the entries kept are the
 * whole recording's, in order, less the lines lost.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tks-compact.h"
#include "tks-error.h"
#include "tks-recorder.h"
#include "tks-test-data.h"

#define SEQ_WRAP 0x40000u

static const char alphabet[] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static guint
char_value (char c)
{
  const char *at = strchr (alphabet, c);

  g_assert_nonnull (at);
  return (guint) (at - alphabet);
}

/* A recording: its header (up to "Compact:") and its compact lines, in order. */
typedef struct
{
  char      *name;
  GString   *header;
  GPtrArray *lines;
} Recording;

static void
recording_free (Recording *r)
{
  g_free (r->name);
  g_string_free (r->header, TRUE);
  g_ptr_array_unref (r->lines);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Recording, recording_free)

static Recording *
recording_load (const char *name)
{
  g_autofree char *text = tks_test_data_contents (name, NULL);
  g_auto(GStrv) split = g_strsplit (text, "\r\n", -1);
  Recording *r = g_new0 (Recording, 1);
  gboolean in_log = FALSE;

  r->name = g_strdup (name);
  r->header = g_string_new (NULL);
  r->lines = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; split[i] != NULL; i++)
    {
      if (in_log && split[i][0] == 'Z')
        g_ptr_array_add (r->lines, g_strdup (split[i]));
      else if (!in_log)
        g_string_append_printf (r->header, "%s\r\n", split[i]);
      in_log = in_log || strcmp (split[i], "Compact:") == 0;
    }
  g_assert_cmpuint (r->lines->len, >, 30);
  return r;
}

/* A copy of @r's lines, to forge. */
static GPtrArray *
lines_copy (const Recording *r)
{
  return g_ptr_array_copy (r->lines, (GCopyFunc) (void (*) (void)) g_strdup, NULL);
}

/* The checksum of @line made good again after a change before its '*'. */
static void
line_seal (char *line)
{
  char *star = strrchr (line, '*');
  guint32 hash = TKS_HASH_START;

  g_assert_nonnull (star);
  for (const char *p = line; p < star; p++)
    hash = tks_hash_byte (hash, (guint8) *p);
  hash = (hash >> 24) ^ (hash & 0xFFFFFFu);
  for (guint i = 0; i < 4; i++)
    star[1 + i] = alphabet[(hash >> (18 - 6 * i)) & 63];
}

static guint32
line_seq (const char *line)
{
  return (char_value (line[1]) << 12) | (char_value (line[2]) << 6) | char_value (line[3]);
}

static void
line_set_seq (char *line, guint32 seq)
{
  for (guint i = 0; i < 3; i++)
    line[1 + i] = alphabet[(seq >> (12 - 6 * i)) & 63];
  line_seal (line);
}

/* The key frame's entry count: the payload's first 7 bits. */
static guint
line_count (const char *line)
{
  return (char_value (line[4]) << 1) | (char_value (line[5]) >> 5);
}

static void
line_set_count (char *line, guint count)
{
  line[4] = alphabet[count >> 1];
  line[5] = alphabet[(char_value (line[5]) & 31) | ((count & 1) << 5)];
  line_seal (line);
}

/* What a decoder made of lines. */
typedef struct
{
  GArray    *entries;
  GPtrArray *messages;
  guint      n_lines;
  guint      n_lost;
} Decoded;

static void
decoded_clear (Decoded *d)
{
  g_clear_pointer (&d->entries, g_array_unref);
  g_clear_pointer (&d->messages, g_ptr_array_unref);
}

static TksCompactDecoder *
decoder_of (const Recording *r)
{
  g_auto(GStrv) header = g_strsplit (r->header->str, "\r\n", -1);
  TksCompactHeader facts = TKS_COMPACT_HEADER_INIT;

  for (guint i = 0; header[i] != NULL; i++)
    tks_compact_header_line (&facts, header[i]);
  return tks_compact_header_decoder (&facts);
}

static void
decode (const Recording *r, GPtrArray *lines, Decoded *d)
{
  g_autoptr(TksCompactDecoder) dec = decoder_of (r);

  memset (d, 0, sizeof *d);
  d->messages = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < lines->len; i++)
    {
      const char *l = lines->pdata[i];
      g_autoptr(GError) error = NULL;

      tks_compact_decoder_line (dec, l, strlen (l), &error);
      if (error != NULL)
        {
          g_assert_true (g_error_matches (error, TKS_ERROR, TKS_ERROR_PARSE) ||
                         g_error_matches (error, TKS_ERROR, TKS_ERROR_REPEATED));
          g_test_message ("%s: %s", r->name, error->message);
          g_ptr_array_add (d->messages, g_strdup (error->message));
        }
    }
  d->entries = g_array_ref (tks_compact_decoder_entries (dec));
  d->n_lines = tks_compact_decoder_n_lines (dec);
  d->n_lost = tks_compact_decoder_n_lost (dec);
}

static gboolean
said (const Decoded *d, const char *part)
{
  for (guint i = 0; i < d->messages->len; i++)
    if (strstr (d->messages->pdata[i], part) != NULL)
      return TRUE;
  return FALSE;
}

/* The entries of @d are @whole's, in order, with some left out. */
static void
assert_subsequence (GArray *whole, GArray *part)
{
  guint j = 0;

  for (guint i = 0; i < part->len; i++, j++)
    {
      while (j < whole->len && memcmp (&g_array_index (part, TksEntry, i),
                                       &g_array_index (whole, TksEntry, j), sizeof (TksEntry)) != 0)
        j++;
      g_assert_cmpuint (j, <, whole->len);
    }
}

/* Every stretch of lines a message names runs forward and lies within @n_lines. */
static void
assert_sane_messages (const Decoded *d, guint n_lines)
{
  for (guint i = 0; i < d->messages->len; i++)
    {
      const char *m = d->messages->pdata[i];
      const char *at = strstr (m, "compact lines ");
      guint from, to;

      if (at == NULL)
        continue;
      g_assert_cmpint (sscanf (at, "compact lines %u to %u", &from, &to), ==, 2);
      g_assert_cmpuint (from, <, to);
      g_assert_cmpuint (to, <, n_lines);
    }
}

static const char *const recordings[] = {
  "simboard-record-events.raw.txt",    /* with the counter: coder 2, lines chained */
  "simboard-record-wrap.raw.txt",      /* switches only: each line on its own */
};

/* A key frame that announces fewer entries than the line carries: the bits left are more
 * than padding, the line is named and counted lost, not believed. */
static void
test_overfull (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (recordings); f++)
    {
      g_autoptr(Recording) r = recording_load (recordings[f]);
      Decoded whole;

      decode (r, r->lines, &whole);
      g_assert_cmpuint (whole.messages->len, ==, 0);
      g_assert_cmpuint (whole.n_lost, ==, 0);
      for (guint at = 0; at < 6; at++)
        {
          g_autoptr(GPtrArray) lines = lines_copy (r);
          guint count = line_count (lines->pdata[at]);
          g_autofree char *named = g_strdup_printf ("compact line %u holds more than the "
                                                    "entries it announces", at);
          Decoded d;

          /* one entry less, or all but one */
          g_assert_cmpuint (count, >, 2);
          line_set_count (lines->pdata[at], at % 2 == 0 ? count - 1 : 1);
          decode (r, lines, &d);
          g_assert_true (said (&d, named));
          g_assert_cmpuint (d.n_lost, >=, 1);
          g_assert_cmpuint (d.n_lost + d.n_lines, ==, r->lines->len);
          g_assert_cmpuint (d.entries->len, <=, whole.entries->len - count);
          assert_subsequence (whole.entries, d.entries);
          decoded_clear (&d);
        }
      /* a count of none on a line that carries entries */
      {
        g_autoptr(GPtrArray) lines = lines_copy (r);
        Decoded d;

        line_set_count (lines->pdata[0], 0);
        decode (r, lines, &d);
        g_assert_true (said (&d, "compact line 0 holds more than the entries it announces"));
        g_assert_cmpuint (d.n_lost + d.n_lines, ==, r->lines->len);
        decoded_clear (&d);
      }
      decoded_clear (&whole);
    }
}

/* Lines out of order, each a way a link (or a forger) can reorder them; the last line stays
 * last, so that every line lost is seen to be. */
typedef void (*Reorder) (GPtrArray *lines, guint a, guint b);

static void
swap (GPtrArray *lines, guint a, guint b)
{
  gpointer t = lines->pdata[a];

  lines->pdata[a] = lines->pdata[b];
  lines->pdata[b] = t;
}

/* Line @b moved back to before line @a. */
static void
move_back (GPtrArray *lines, guint a, guint b)
{
  gpointer t = g_ptr_array_steal_index (lines, b);

  g_ptr_array_insert (lines, (int) a, t);
}

/* Line @a again after line @b. */
static void
copy_later (GPtrArray *lines, guint a, guint b)
{
  g_ptr_array_insert (lines, (int) b + 1, g_strdup (lines->pdata[a]));
}

/* Line @b numbered as line @a (other bits under an old number). */
static void
renumber_back (GPtrArray *lines, guint a, guint b)
{
  line_set_seq (lines->pdata[b], line_seq (lines->pdata[a]));
}

static void
check_reordered (const Recording *r, const Decoded *whole, Reorder reorder, guint a, guint b)
{
  g_autoptr(GPtrArray) lines = lines_copy (r);
  Decoded d;

  reorder (lines, a, b);
  decode (r, lines, &d);
  assert_sane_messages (&d, r->lines->len);
  g_assert_false (said (&d, "compact line 0 is missing"));
  /* each line decoded or lost, once */
  g_assert_cmpuint (d.n_lost + d.n_lines, ==, r->lines->len);
  g_assert_cmpuint (d.n_lost, <, r->lines->len / 2);
  assert_subsequence (whole->entries, d.entries);
  decoded_clear (&d);
}

static void
test_reordered (void)
{
  static const Reorder reorders[] = { swap, move_back, copy_later, renumber_back };

  for (guint f = 0; f < G_N_ELEMENTS (recordings); f++)
    {
      g_autoptr(Recording) r = recording_load (recordings[f]);
      guint32 rng = 12345;
      Decoded whole;

      decode (r, r->lines, &whole);
      for (guint i = 0; i < 200; i++)
        {
          guint a, b;

          rng = rng * 1103515245u + 12345u;
          a = 1 + (rng >> 8) % (r->lines->len - 20);
          b = a + 1 + (rng >> 20) % 12;
          check_reordered (r, &whole, reorders[i % G_N_ELEMENTS (reorders)], a, b);
        }
      decoded_clear (&whole);
    }
}

/* Lines 2 and 5 swapped: the lines between are said missing once, the late ones named as out
 * of order (not as a quarter of a million missing lines), and counted once. */
static void
test_swapped_named (void)
{
  g_autoptr(Recording) r = recording_load ("simboard-record-wrap.raw.txt");
  g_autoptr(GPtrArray) lines = lines_copy (r);
  g_autoptr(GPtrArray) repeated = lines_copy (r);
  Decoded d;

  swap (lines, 2, 5);
  decode (r, lines, &d);
  g_assert_cmpuint (d.messages->len, ==, 4);
  g_assert_cmpstr (d.messages->pdata[0], ==,
                   "compact lines 2 to 4 are missing: their records are lost");
  g_assert_cmpstr (d.messages->pdata[1], ==,
                   "compact line 3 came after line 5, out of order: it is left out");
  g_assert_cmpstr (d.messages->pdata[3], ==,
                   "compact line 2 came after line 5, out of order: it is left out");
  g_assert_cmpuint (d.n_lost, ==, 3);
  g_assert_cmpuint (d.n_lines, ==, r->lines->len - 3);
  decoded_clear (&d);

  /* the number of the line before on other bits */
  renumber_back (repeated, 6, 7);
  decode (r, repeated, &d);
  g_assert_cmpuint (d.messages->len, ==, 2);
  g_assert_cmpstr (d.messages->pdata[0], ==,
                   "compact line 6 came twice, with other records: the second is left out");
  g_assert_cmpstr (d.messages->pdata[1], ==, "compact line 7 is missing: its records are lost");
  g_assert_cmpuint (d.n_lost, ==, 1);
  decoded_clear (&d);
}

/* Numbers that wrap at 2^18 in a long recording: across the wrap the lines follow each other,
 * and two lines swapped there are named as such. */
static void
test_wrap (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (recordings); f++)
    {
      g_autoptr(Recording) r = recording_load (recordings[f]);
      g_autoptr(GPtrArray) lines = lines_copy (r);
      guint first = SEQ_WRAP - 10;
      Decoded whole, d;

      decode (r, r->lines, &whole);
      for (guint i = 0; i < lines->len; i++)
        line_set_seq (lines->pdata[i], (first + i) % SEQ_WRAP);
      decode (r, lines, &d);
      /* (a recording's lines are numbered from 0: those before the first are missing) */
      g_assert_cmpuint (d.messages->len, ==, 1);
      g_assert_cmpstr (d.messages->pdata[0], ==,
                       "compact lines 0 to 262133 are missing: their records are lost");
      g_assert_cmpuint (d.n_lines, ==, r->lines->len);
      g_assert_cmpuint (d.entries->len, ==, whole.entries->len);
      decoded_clear (&d);

      /* 262143 and 0 swapped */
      swap (lines, 9, 10);
      decode (r, lines, &d);
      g_assert_true (said (&d, "compact line 262143 is missing"));
      g_assert_true (said (&d, "compact line 262143 came after line 0, out of order"));
      g_assert_cmpuint (d.n_lost - first + d.n_lines, ==, r->lines->len);
      assert_sane_messages (&d, SEQ_WRAP);
      decoded_clear (&d);
      decoded_clear (&whole);
    }
}

/* A key frame whose tick is wider than the board's record tick is not the board's. */
static void
test_key_tick (void)
{
  g_autoptr(Recording) r = recording_load ("simboard-record-wrap.raw.txt");
  g_autoptr(TksCompactDecoder) dec = decoder_of (r);
  guint undecodable = 0;

  /* (ticks there pass 2^16 early) */
  tks_compact_decoder_set_tick_bits (dec, 16);
  for (guint i = 0; i < r->lines->len; i++)
    {
      TksEntry entries[TKS_COMPACT_MAX_ENTRIES];
      TksCompactLine line;
      const char *l = r->lines->pdata[i];

      tks_compact_line_decode (dec, l, strlen (l), &line, entries);
      undecodable += line.status == TKS_COMPACT_LINE_UNDECODABLE;
      g_assert_true (line.status == TKS_COMPACT_LINE_OK ||
                     line.status == TKS_COMPACT_LINE_UNDECODABLE);
    }
  g_assert_cmpuint (undecodable, >, 0);
}

/* The recorder counts the lines lost as the decoder does: each once. */
static void
test_recorder_counts (void)
{
  g_autoptr(Recording) r = recording_load ("simboard-record-wrap.raw.txt");
  g_autoptr(GPtrArray) lines = lines_copy (r);
  g_autoptr(GString) stream = g_string_new (r->header->str);
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  TksRecorderStats st;
  int fd;

  swap (lines, 2, 6);   /* lines 2 to 5 lost, one each */
  move_back (lines, 10, 20);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (stream, "%s\r\n", (char *) lines->pdata[i]);
  fd = g_file_open_tmp ("tks-lies-XXXXXX", &path, &error);
  g_assert_no_error (error);
  close (fd);
  recorder = tks_recorder_new (path, &error);
  g_assert_no_error (error);
  tks_recorder_feed (recorder, (const guint8 *) stream->str, stream->len);
  tks_recorder_get_stats (recorder, &st);
  /* 2 to 5, and 10 to 19 said missing when 20 came first */
  g_assert_cmpuint (st.damaged, ==, 4 + 10);
  g_assert_cmpuint (st.lines + st.damaged, ==, r->lines->len);
  g_remove (path);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compact-lies/overfull", test_overfull);
  g_test_add_func ("/compact-lies/reordered", test_reordered);
  g_test_add_func ("/compact-lies/swapped-named", test_swapped_named);
  g_test_add_func ("/compact-lies/wrap", test_wrap);
  g_test_add_func ("/compact-lies/key-tick", test_key_tick);
  g_test_add_func ("/compact-lies/recorder-counts", test_recorder_counts);
  return g_test_run ();
}
