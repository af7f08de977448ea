/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The compact encoding, end to end: the board library (on the host stand-in) prints its log
 * as threads_dump (text) and as threads_dump_compact; the core's decoder must give back
 * exactly the entries of the text, and the end line's checksum. Every kind of entry and every
 * escape of the coder is reached; damaged, missing and forged lines are named and cost only
 * their own records. Built twice: with every event option (cycle counter) and with switches
 * only (ticks only).
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"
#include "tks-capture.h"
#include "tks-compact.h"
#include "tks-error.h"
#include "tks-events.h"
#include "tks-test-data.h"
#include "tks-test-zline.h"

#define N_THREADS 62

static thread_t threads[N_THREADS];
static guint32 rng = 2463534242u;

static guint32
next_random (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static void
boot (int n)
{
  char name[8];

  ch_host_reset ();
  tuResetState ();
  memset (threads, 0, sizeof threads);
  for (int i = 0; i < n; i++)
    {
      g_snprintf (name, sizeof name, "t%d", i);
      ch_host_thread_init (&threads[i], g_intern_string (name), i == 1 ? 1 : 64, CH_FLAG_MODE_STATIC);
      if (i == 0)
        ch_host_switch (&threads[0]);
    }
}

static char *
run (void (*cmd) (BaseSequentialStream *, int, char *[]))
{
  return host_run (cmd, 0, NULL);
}

#if TU_IRQ
static void
Short_IRQHandler (void)
{
  CH_IRQ_PROLOGUE ();
  CH_IRQ_EPILOGUE ();
}
#endif

/* The entries of a threads_dump reply (dump version 1 or 2), as the board stored them. */
static GArray *
text_entries (const char *dump, guint32 *checksum, guint *announced)
{
  g_auto (GStrv) lines = g_strsplit (dump, "\r\n", -1);
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (TksEntry));
  gboolean in_log = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      TksEntry e = { 0 };
      unsigned a = 0, b = 0, tick = 0;
      unsigned long counter = 0, value = 0;
      char rest[64] = "";

      if (g_str_has_prefix (l, "End of dump: "))
        {
          g_assert_cmpint (sscanf (l, "End of dump: %u records, checksum %x", announced, checksum), ==, 2);
          break;
        }
      if (strcmp (l, "Timestamps:") == 0)
        {
          in_log = TRUE;
          continue;
        }
      if (!in_log || g_str_has_prefix (l, "Triggered at"))
        continue;
      /* The counter, if any, ends the line. */
      if (strstr (l, " @ ") != NULL)
        g_assert_cmpint (sscanf (strstr (l, " @ "), " @ %lu", &counter), ==, 1);
      e.counter = (guint32) counter;
      if (sscanf (l, "From %u to %u at %u", &a, &b, &tick) == 3)
        e.record = (tick << 12) | (a << 6) | b;
      else if (sscanf (l, "Irq enter %u at %u", &a, &tick) == 2)
        {
          e.kind = TKS_ENTRY_IRQ_ENTER;
          e.a = a;
          e.record = (tick << 12) | (63u << 6) | (a <= 30 ? 32 + a : 1);
        }
      else
        {
          guint kind;

          if (sscanf (l, "Irq leave at %u", &tick) == 1)
            kind = TKS_ENTRY_IRQ_LEAVE;
          else if (sscanf (l, "Sleep at %u", &tick) == 1)
            kind = TKS_ENTRY_SLEEP;
          else if (sscanf (l, "Wake at %u", &tick) == 1)
            kind = TKS_ENTRY_WAKE;
          else if (sscanf (l, "Trigger at %u", &tick) == 1)
            kind = TKS_ENTRY_TRIGGER;
          else if (sscanf (l, "Ready %u at %u", &a, &tick) == 2)
            kind = TKS_ENTRY_READY;
          else if (sscanf (l, "Marker %u = %lu at %u", &a, &value, &tick) == 3)
            kind = TKS_ENTRY_MARKER;
          else if (sscanf (l, "State %u begin %u at %u", &a, &b, &tick) == 3)
            {
              kind = TKS_ENTRY_BEGIN;
              a |= b << 8;
            }
          else if (sscanf (l, "State %u end at %u", &a, &tick) == 2)
            kind = TKS_ENTRY_END;
          else
            g_error ("unexpected line '%s' %s", l, rest);
          e.kind = kind;
          e.a = a;
          e.b = (guint32) value;
          e.record = (tick << 12) | (63u << 6) | kind;
        }
      g_array_append_val (entries, e);
    }
  return entries;
}

typedef struct
{
  GArray  *entries;
  guint    n_lines;
  guint    n_bytes;       /* of the compact lines */
  guint32  checksum;
  guint    announced;
  GPtrArray *errors;
} Decoded;

static void
decoded_clear (Decoded *d)
{
  g_clear_pointer (&d->entries, g_array_unref);
  g_clear_pointer (&d->errors, g_ptr_array_unref);
}

/* Decodes a threads_dump_compact reply; @mangle may change the lines first. */
static void
decode (const char *reply, void (*mangle) (GPtrArray *lines), Decoded *d)
{
  g_auto (GStrv) split = g_strsplit (reply, "\r\n", -1);
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (TksCompactDecoder) dec = NULL;
  guint64 tick_hz = 0, counter_hz = 0;
  guint coder = 1;
  gboolean in_log = FALSE;

  memset (d, 0, sizeof *d);
  d->errors = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; split[i] != NULL; i++)
    g_ptr_array_add (lines, g_strdup (split[i]));
  if (mangle != NULL)
    mangle (lines);
  for (guint i = 0; i < lines->len; i++)
    {
      const char *l = lines->pdata[i];

      if (g_str_has_prefix (l, "Tick frequency: "))
        tick_hz = g_ascii_strtoull (l + 16, NULL, 10);
      else if (g_str_has_prefix (l, "Counter frequency: "))
        counter_hz = g_ascii_strtoull (l + 19, NULL, 10);
      else if (g_str_has_prefix (l, "Counter coder: "))
        coder = (guint) g_ascii_strtoull (l + 15, NULL, 10);
      else if (strcmp (l, "Compact:") == 0)
        {
          in_log = TRUE;
          dec = tks_compact_decoder_new (tick_hz, counter_hz);
          tks_compact_decoder_set_coder (dec, coder);
        }
      else if (g_str_has_prefix (l, "End of dump: "))
        {
          g_assert_cmpint (sscanf (l, "End of dump: %u records, checksum %x", &d->announced,
                                   &d->checksum), ==, 2);
          in_log = FALSE;
        }
      else if (in_log)
        {
          g_autoptr (GError) error = NULL;

          d->n_bytes += (guint) strlen (l) + 2;
          if (!tks_compact_decoder_line (dec, l, strlen (l), &error))
            {
              g_assert_true (g_error_matches (error, TKS_ERROR, TKS_ERROR_PARSE) ||
                             g_error_matches (error, TKS_ERROR, TKS_ERROR_REPEATED));
              g_ptr_array_add (d->errors, g_strdup (error->message));
            }
          else
            g_assert_no_error (error);
        }
    }
  g_assert_nonnull (dec);
  d->entries = g_array_ref (tks_compact_decoder_entries (dec));
  d->n_lines = tks_compact_decoder_n_lines (dec);
}

static void
assert_same_entries (GArray *text, GArray *compact)
{
  g_assert_cmpuint (compact->len, ==, text->len);
  for (guint i = 0; i < text->len; i++)
    {
      const TksEntry *a = &g_array_index (text, TksEntry, i);
      const TksEntry *b = &g_array_index (compact, TksEntry, i);

      if (memcmp (a, b, sizeof *a) != 0)
        g_error ("entry %u: text %08x %u %u %u %u, compact %08x %u %u %u %u", i, a->record,
                 a->counter, a->kind, a->a, a->b, b->record, b->counter, b->kind, b->a, b->b);
    }
}

/* A busy random board: switches among many threads (and unlogged ones), exits with
 * renumbering, every event, ticks that wrap, a counter that wraps, long gaps. */
static void
run_random_board (guint n_steps)
{
  systime_t tick = 1048000;          /* wraps the 20-bit tick early on */
  rtcnt_t counter = 0xFFF00000u;     /* and the 32-bit counter */
  int alive = 40;
#if TU_USER
  tuname_t marker = tuRegisterMarker ("m");
  tuname_t channel = tuRegisterChannel ("c");
  tuname_t state = tuRegisterState ("s");
#endif

  boot (alive);
  for (guint i = 0; i < n_steps; i++)
    {
      guint32 r = next_random ();
      guint32 step = r % 16 == 0 ? next_random () % 5000000 : r % 200000;

      counter += step;
      tick += step / 168000 + (r % 97 == 0 ? 3000 : 0);
      ch_host_time = tick;
      ch_host_counter = counter;
      switch (r % 11)
        {
        case 0:
          if (alive > 5 && r % 3 == 0)
            {
              /* The current thread exits; main runs next. */
              thread_t *cur = ch_host_current ();

              if (cur != &threads[0] && cur != &threads[1])
                {
                  ch_host_thread_exit (cur);
                  ch_host_set_current (&threads[0]);
                  ch_host_switch (&threads[1]);
                  break;
                }
            }
          G_GNUC_FALLTHROUGH;
        default:
          {
            int next = (int) (next_random () % (guint32) alive);

            if (threads[next].state != CH_STATE_FINAL && &threads[next] != ch_host_current ())
              ch_host_switch (&threads[next]);
          }
          break;
#if TU_EVENTS
        case 1:
          Short_IRQHandler ();
          break;
        case 2:
          ch_host_ready (&threads[next_random () % (guint32) alive]);
          break;
#endif
#if TU_USER
        case 3:
          tuMarker (marker, r % 4 == 0 ? next_random () : r % 50);
          break;
        case 4:
          tuStateBegin (channel, state);
          break;
        case 5:
          tuStateEnd (channel);
          break;
#endif
        }
    }
}

static guint
check_round_trip (void)
{
  guint n_bytes;

  g_autofree char *text = run (tuCmdThreadsDump);
  g_autofree char *compact = run (tuCmdThreadsDumpCompact);
  g_autoptr (GArray) expected = NULL;
  guint32 checksum = 0;
  guint announced = 0;
  Decoded d;

  expected = text_entries (text, &checksum, &announced);
  g_assert_cmpuint (announced, ==, expected->len);
  if (g_getenv ("TKS_DEBUG_COMPACT") != NULL)
    g_printerr ("%s\n%s\n", text, compact);
  decode (compact, NULL, &d);
  for (guint i = 0; i < d.errors->len; i++)
    g_test_message ("%s", (const char *) d.errors->pdata[i]);
  g_assert_cmpuint (d.errors->len, ==, 0);
  assert_same_entries (expected, d.entries);
  g_assert_cmpuint (d.announced, ==, expected->len);
  g_assert_cmphex (d.checksum, ==, checksum);
  {
    guint32 h = 2166136261u;

    for (guint i = 0; i < d.entries->len; i++)
      h = tks_entry_hash (h, &g_array_index (d.entries, TksEntry, i), TU_CYCLES);
    g_assert_cmphex (h, ==, d.checksum);
  }
  if (g_test_verbose ())
    g_printerr ("%u entries: text %zu bytes, compact %u bytes in %u lines (%.2f bytes/entry)\n",
                expected->len, strlen (text), d.n_bytes, d.n_lines,
                (double) d.n_bytes / MAX (1, expected->len));
  /* Lines stay short and printable: "Z~", at most 212 characters, the checksum. */
  {
    g_auto (GStrv) lines = g_strsplit (compact, "\r\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      {
        g_assert_cmpuint (strlen (lines[i]), <=, 218);
        for (const char *p = lines[i]; *p != '\0'; p++)
          g_assert_true (g_ascii_isprint (*p));
      }
  }
  n_bytes = d.n_bytes;
  decoded_clear (&d);
  return n_bytes;
}

static void
test_round_trip_random (void)
{
  for (guint seed = 1; seed <= 20; seed++)
    {
      rng = seed * 2654435761u;
      run_random_board (400 + seed * 37);
      check_round_trip ();
    }
}

/* Escapes the random board rarely reaches: handler ids above 30, a marker of 2^32 - 1, the
 * counter standing still for a long time (a part whose counter stops in sleep), the same tick
 * for many records. */
static void
test_round_trip_escapes (void)
{
  boot (8);
#if TU_USER
  {
    char name[8];
    tuname_t last = 0;

    for (int i = 0; i < 31; i++)
      {
        g_snprintf (name, sizeof name, "n%d", i);
        last = tuRegisterMarker (g_intern_string (name));
      }
    ch_host_time = 10;
    tuMarker (last, 0xFFFFFFFFu);
    tuMarker (last, 0);
  }
#endif
#if TU_IRQ
  ch_host_time = 11;
  Short_IRQHandler ();    /* registered as name 32: the long form */
#endif
  for (int i = 0; i < 300; i++)
    {
      ch_host_time = 20 + (systime_t) (i / 100) * 600000;   /* long gaps, counter still */
      ch_host_switch (&threads[i % 8]);
    }
  check_round_trip ();
}

/* Lines lost, damaged or forged cost only their own records (with the counter's coder 2, also
 * those of the lines that go on from them, up to the next key frame), and are named. */
static guint drop_index;

/* The line at drop_index: the log's lines follow "Compact:" */
static char **
line_at (GPtrArray *lines)
{
  guint first = 0;

  while (first < lines->len && strcmp (lines->pdata[first], "Compact:") != 0)
    first++;
  return (char **) &lines->pdata[first + drop_index];
}

/* A character of @line's payload changed: its checksum no longer matches */
static void
damage (char *line)
{
  line[10] = line[10] == 'A' ? 'B' : 'A';
}

static void
drop_line (GPtrArray *lines)
{
  g_ptr_array_remove_index (lines, (guint) (line_at (lines) - (char **) lines->pdata));
}

static void
damage_line (GPtrArray *lines)
{
  damage (*line_at (lines));
}

/* The line at drop_index, twice in a row (a link that repeats itself) */
static void
repeat_line (GPtrArray *lines)
{
  char **at = line_at (lines);

  g_ptr_array_insert (lines, (int) (at - (char **) lines->pdata), g_strdup (*at));
}

/* The line at drop_index twice, the first (damaged_copy 1) or the second (2) damaged */
static guint damaged_copy;

static void
repeat_damaged_line (GPtrArray *lines)
{
  repeat_line (lines);
  damage (line_at (lines)[damaged_copy - 1]);
}

/* A line that comes twice costs nothing: its copy is named and left out, every line decodes
 * as before, and the line after it too (with the counter's coder 2, a line without a key
 * frame goes on from the line before it: the copy must not break that chain). A damaged copy
 * is left out the same way; a damaged line whose copy comes whole keeps its records. */
static void
test_repeated (void)
{
  g_autofree char *text = NULL;
  g_autofree char *compact = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) whole_capture = NULL;
  Decoded whole, d;

  rng = 7;
  run_random_board (3000);
  text = run (tuCmdThreadsDump);
  compact = run (tuCmdThreadsDumpCompact);
  decode (compact, NULL, &whole);
  g_assert_cmpuint (whole.errors->len, ==, 0);
  g_assert_cmpuint (whole.n_lines, >, 10);
  whole_capture = tks_capture_new_from_dump (compact, strlen (compact), &error);
  g_assert_no_error (error);
  /* the first ten lines of the log: key frames and (coder 2) lines without one */
  for (drop_index = 1; drop_index <= 10; drop_index++)
    {
      g_autofree char *named = g_strdup_printf ("compact line %u came twice", drop_index - 1);
      g_autofree char *damaged = g_strdup_printf ("compact line %u is damaged", drop_index - 1);
      g_autofree char *again = g_strdup_printf ("compact line %u came again, whole", drop_index - 1);

      decode (compact, repeat_line, &d);
      g_assert_cmpuint (d.errors->len, ==, 1);
      g_assert_nonnull (strstr (d.errors->pdata[0], named));
      g_assert_cmpuint (d.n_lines, ==, whole.n_lines);
      assert_same_entries (whole.entries, d.entries);
      decoded_clear (&d);

      damaged_copy = 2;
      decode (compact, repeat_damaged_line, &d);
      g_assert_cmpuint (d.errors->len, ==, 1);
      g_assert_nonnull (strstr (d.errors->pdata[0], "the copy damaged: it is left out"));
      assert_same_entries (whole.entries, d.entries);
      decoded_clear (&d);

      damaged_copy = 1;
      decode (compact, repeat_damaged_line, &d);
      g_assert_cmpuint (d.errors->len, ==, 2);
      g_assert_nonnull (strstr (d.errors->pdata[0], damaged));
      g_assert_nonnull (strstr (d.errors->pdata[1], again));
      assert_same_entries (whole.entries, d.entries);
      decoded_clear (&d);
    }
  decoded_clear (&whole);

  /* read into a capture (switches alone: lines decoded in parallel, then taken in order) */
  {
    g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
    g_auto(GStrv) split = g_strsplit (compact, "\r\n", -1);
    g_autoptr(TksCapture) twice = NULL;
    g_autofree char *joined = NULL;

    for (guint i = 0; split[i] != NULL; i++)
      g_ptr_array_add (lines, g_strdup (split[i]));
    drop_index = 5;
    repeat_line (lines);
    g_ptr_array_add (lines, NULL);
    joined = g_strjoinv ("\r\n", (char **) lines->pdata);
    twice = tks_capture_new_from_dump (joined, strlen (joined), &error);
    g_assert_no_error (error);
    g_assert_null (tks_capture_get_damage (twice));
    g_assert_true (tks_test_has_warning (twice, "compact line 4 came twice"));
    g_assert_false (tks_test_has_warning (twice, "missing"));
    g_assert_false (tks_test_has_warning (twice, "goes on from a line that was lost"));
    g_assert_cmpuint (tks_capture_get_n_records (twice), ==, tks_capture_get_n_records (whole_capture));
  }
}

/* A line "Z~" whose checksum matches bytes no board codes: a count of 255 over bytes all
 * 0xFF, all 0, or random; a number past 2^18. */
#define N_FORGED 4

static char *
forge_line (guint which)
{
  GString *line = g_string_new (NULL);
  guint8 bytes[160];

  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = which == 0 ? 0xFF : which == 1 ? 0 : (guint8) (i * 167 + 13);
  bytes[0] = which == 3 ? 0x04 : 0;
  bytes[1] = bytes[2] = 0;
  bytes[3] = 255;
  tks_test_append_z_line (line, bytes, sizeof bytes);
  return g_string_free (line, FALSE);
}

static void
test_damage (void)
{
  g_autofree char *text = NULL;
  g_autofree char *compact = NULL;
  g_autoptr (GArray) expected = NULL;
  guint32 checksum;
  guint announced;
  Decoded whole, d;

  rng = 99;
  run_random_board (3000);
  text = run (tuCmdThreadsDump);
  compact = run (tuCmdThreadsDumpCompact);
  expected = text_entries (text, &checksum, &announced);
  decode (compact, NULL, &whole);
  g_assert_cmpuint (whole.n_lines, >, 4);

  for (guint mode = 0; mode < 2; mode++)
    {
      /* coder 2 starts a line from a key frame every 8 lines */
      guint chained = strstr (compact, "\nCounter coder: 2") != NULL ? 5 : 0;

      drop_index = 3;   /* the third line of the log */
      decode (compact, mode == 0 ? drop_line : damage_line, &d);
      g_assert_cmpuint (d.errors->len, ==, 1 + chained - (mode == 0 && chained > 0));
      g_assert_nonnull (strstr (d.errors->pdata[0], mode == 0 ? "compact line 2 is missing"
                                                              : "compact line 2 is damaged"));
      for (guint e = 1; e < d.errors->len; e++)
        g_assert_nonnull (strstr (d.errors->pdata[e], "goes on from a line that was lost"));
      if (chained > 0)
        g_assert_nonnull (strstr (d.errors->pdata[d.errors->len - 1], "compact line 7 goes on"));
      g_assert_cmpuint (d.n_lines, ==, whole.n_lines - 1 - chained);
      /* Every other line decoded as before. */
      g_assert_cmpuint (d.entries->len, <, expected->len);
      for (guint i = 0, j = 0; i < d.entries->len; i++, j++)
        {
          while (memcmp (&g_array_index (d.entries, TksEntry, i),
                         &g_array_index (expected, TksEntry, j), sizeof (TksEntry)) != 0)
            {
              j++;
              g_assert_cmpuint (j, <, expected->len);
            }
        }
      decoded_clear (&d);
    }
  decoded_clear (&whole);

  /* Hostile lines: too long, bad characters, a good checksum over bits that are not
   * entries. Never accepted, never a crash. */
  {
    g_autoptr (TksCompactDecoder) dec = tks_compact_decoder_new (1000, 0);
    static const char *const bad[] = {
      "", "Z", "ZAAA*AAAA", "ZAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA*AAAA",
      "ZAAA\x1b[2J*AAAA", "From  1 to  2 at 5",
      /* lines "Z~": too short, odd, a character outside the alphabet, a 13-bit value past
       * 8191, too long */
      "Z~", "Z~!!!!!!!!!!!!", "Z~!!!!!!!!!!!!!", "Z~!!!!!!!\"!!!!!!", "Z~!!!!!!!!!~~!!!!",
      "Z~!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad) + N_FORGED; i++)
      {
        g_autoptr (GError) error = NULL;
        g_autofree char *forged = i >= G_N_ELEMENTS (bad) ? forge_line (i - G_N_ELEMENTS (bad))
                                                           : NULL;
        const char *line = forged != NULL ? forged : bad[i];

        g_assert_false (tks_compact_decoder_line (dec, line, strlen (line), &error));
        /* (a damaged line numbered as the damaged line before it reads as its copy) */
        g_assert_true (g_error_matches (error, TKS_ERROR, TKS_ERROR_PARSE) ||
                       g_error_matches (error, TKS_ERROR, TKS_ERROR_REPEATED));
      }
    g_assert_cmpuint (tks_compact_decoder_entries (dec)->len, ==, 0);
  }
}

/* A compact dump read by the core gives the capture its text dump gives: the same threads,
 * runs, marks and events; a line lost on the way leaves a named, damaged capture. */
static void
test_capture_from_compact (void)
{
  g_autofree char *text = NULL;
  g_autofree char *compact = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) a = NULL;
  g_autoptr(TksCapture) b = NULL;

  rng = 7;
  run_random_board (2500);
  tuSetTrigger ("compact test");
  text = run (tuCmdThreadsDump);
  compact = run (tuCmdThreadsDumpCompact);
  a = tks_capture_new_from_dump (text, strlen (text), &error);
  g_assert_no_error (error);
  b = tks_capture_new_from_dump (compact, strlen (compact), &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (b));
  g_assert_cmpuint (tks_capture_get_n_records (a), ==, tks_capture_get_n_records (b));
  {
    double pa, pb;

    g_assert_true (tks_capture_get_trigger (a, &pa));
    g_assert_true (tks_capture_get_trigger (b, &pb));
    g_assert_cmpfloat (pa, ==, pb);
  }
  g_assert_cmpuint (tks_capture_get_n_threads (a), ==, tks_capture_get_n_threads (b));
  for (guint t = 0; t < tks_capture_get_n_threads (a); t++)
    {
      const TksThread *ta = tks_capture_get_thread (a, t);
      const TksThread *tb = tks_capture_get_thread (b, t);

      g_assert_cmpstr (ta->name, ==, tb->name);
      g_assert_cmpuint (ta->n_runs, ==, tb->n_runs);
      g_assert_cmpuint (ta->n_marks, ==, tb->n_marks);
      for (guint r = 0; r < ta->n_runs; r++)
        {
          g_assert_cmpfloat (ta->runs[r].begin, ==, tb->runs[r].begin);
          g_assert_cmpfloat (ta->runs[r].end, ==, tb->runs[r].end);
        }
    }
#if TU_EVENTS
  for (guint k = 0; k < TKS_N_EVENT_KINDS; k++)
    g_assert_cmpuint (tks_events_count (tks_capture_get_events (a), k), ==,
                      tks_events_count (tks_capture_get_events (b), k));
  g_assert_cmpuint (tks_events_count (tks_capture_get_events (b), TKS_EVENT_IRQ_ENTER), >, 0);
#else
  g_assert_null (tks_capture_get_events (b));
#endif

  /* the fourth line of the compact log lost on the way */
  {
    char *line = strstr (compact, "\r\nZ~");
    g_autoptr(TksCapture) c = NULL;
    g_autofree char *cut = NULL;

    for (guint k = 0; k < 3 && line != NULL; k++)
      line = strstr (line + 2, "\r\n");
    g_assert_nonnull (line);
    cut = g_strdup (compact);
    {
      char *l = cut + (line - compact) + 2;
      char *next = strstr (l, "\r\n");

      memmove (l, next + 2, strlen (next + 2) + 1);
    }
    c = tks_capture_new_from_dump (cut, strlen (cut), &error);
    if (c != NULL)
      {
        guint n;
        const char * const *warnings = tks_capture_get_warnings (c, &n);
        gboolean named = FALSE;

        for (guint i = 0; i < n; i++)
          named |= strstr (warnings[i], "compact line 3 is missing") != NULL;
        g_assert_true (named);
        g_assert_nonnull (tks_capture_get_damage (c));
        g_assert_cmpuint (tks_capture_get_n_records (c), <, tks_capture_get_n_records (b));
      }
    else
      g_assert_nonnull (strstr (error->message, "compact line 3 is missing"));
  }
}

#if TU_CYCLES
/* A compact dump with the counter from a board of the first coder (no "Counter coder" line in
 * its header) reads as it did: every line, its end line's count and checksum agree. */
static void
test_coder_1 (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "compact-events-coder1.raw.txt",
                                                 NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  guint n_warnings;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_null (strstr (text, "Counter coder"));
  g_assert_nonnull (strstr (text, "Counter frequency: 168000000"));
  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  (void) tks_capture_get_warnings (capture, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 0);
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), >, 10);
}

/* The first line of @text's compact log without a key frame (with the counter's coder 2, it
 * goes on from the line before it); @eol: where its line break begins. */
static const char *
first_chained_line (const char  *text,
                    const char **eol)
{
  g_autoptr(TksCompactDecoder) decoder = tks_compact_decoder_new (1000, 168000000);
  const char *line = strstr (text, "\nCompact:");

  tks_compact_decoder_set_coder (decoder, 2);
  g_assert_nonnull (line);
  do
    {
      line = strstr (line + 1, "\nZ");
      g_assert_nonnull (line);
      *eol = strchr (line + 1, '\r');
      g_assert_nonnull (*eol);
    }
  while (tks_compact_line_may_start (decoder, line + 1, (gsize) (*eol - (line + 1))));
  return line + 1;
}

/* After a "Lost:" line the board starts its next line with a key frame: a line that goes on
 * from the line before (a board out of step, lines lost with the "Lost:" one) is named and
 * its records left out, not decoded from a state the board no longer had. */
static void
test_chained_after_lost (void)
{
  g_autofree char *text = tks_test_data_contents ("simboard-record-events.raw.txt", NULL);
  g_autoptr(TksCapture) whole = NULL;
  g_autoptr(TksCapture) lost = NULL;
  g_autoptr(GString) damaged = NULL;
  const char *line, *eol;

  whole = tks_test_capture_of_text (text, -1);
  g_assert_false (tks_test_has_warning (whole, "goes on from a line that was lost"));

  line = first_chained_line (text, &eol);
  damaged = g_string_new (text);
  g_string_insert (damaged, line - text,
                   "Lost: before record 100, ticks 20 to 21, 3 switches dropped\r\n");
  lost = tks_test_capture_of_text (damaged->str, damaged->len);
  g_assert_true (tks_test_has_warning (lost, "goes on from a line that was lost"));
  g_assert_cmpuint (tks_capture_get_n_records (lost), <, tks_capture_get_n_records (whole));

  /* The same with the line before the "Lost:" one (a key frame) come again after it: its copy
   * is left out, and does not give back the state the board no longer had. */
  {
    const char *before = line - 1;
    g_autoptr(TksCapture) copied = NULL;
    g_autofree char *copy = NULL;

    while (before > text && before[-1] != '\n')
      before--;
    g_assert_true (before[0] == 'Z');
    copy = g_strndup (before, line - before);
    g_string_insert (damaged, line - text + strlen ("Lost: before record 100, ticks 20 to 21, "
                                                    "3 switches dropped\r\n"), copy);
    copied = tks_test_capture_of_text (damaged->str, damaged->len);
    g_assert_true (tks_test_has_warning (copied, "came twice"));
    g_assert_true (tks_test_has_warning (copied, "goes on from a line that was lost"));
    g_assert_cmpuint (tks_capture_get_n_records (copied), ==, tks_capture_get_n_records (lost));
  }
}

/* A recording read back whose line without a key frame came twice: the capture is the whole
 * one, the copy named. */
static void
test_repeated_in_capture (void)
{
  g_autofree char *text = tks_test_data_contents ("simboard-record-events.raw.txt", NULL);
  g_autoptr(TksCapture) whole = NULL;
  g_autoptr(TksCapture) twice = NULL;
  g_autoptr(GString) repeated = NULL;
  const char *line, *eol;
  guint n_whole, n_twice;

  whole = tks_test_capture_of_text (text, -1);
  /* the line and its "\r\n", again after it */
  line = first_chained_line (text, &eol);
  g_assert_true (eol[1] == '\n');
  repeated = g_string_new (text);
  g_string_insert_len (repeated, eol + 2 - text, line, eol + 2 - line);
  twice = tks_test_capture_of_text (repeated->str, repeated->len);
  g_assert_true (tks_test_has_warning (twice, "came twice: its copy is left out"));
  g_assert_false (tks_test_has_warning (twice, "goes on from a line that was lost"));
  tks_capture_get_warnings (whole, &n_whole);
  tks_capture_get_warnings (twice, &n_twice);
  g_assert_cmpuint (n_twice, ==, n_whole + 1);
  g_assert_cmpuint (tks_capture_get_n_records (twice), ==, tks_capture_get_n_records (whole));
  g_assert_cmpuint (tks_capture_get_n_threads (twice), ==, tks_capture_get_n_threads (whole));
}
#endif

/* The header's facts that the compact lines need, as the recorder and the live view read
 * them, and as a dump's reader does: spaces after the key, whatever after the number. */
static void
test_header_facts (void)
{
  TksCompactHeader h = TKS_COMPACT_HEADER_INIT;
  const char *not_facts[] = {
    "Tick frequency:", "Tick frequency: x", "Tick frequency: -5", "Tick frequency: 4294967296",
    "tick frequency: 10", "Ticks: 10", "Counter coder:\r\n",
  };

  g_assert_cmpuint (h.tick_hz, ==, 1000);
  g_assert_cmpuint (h.counter_hz, ==, 0);
  g_assert_cmpuint (h.coder, ==, 1);
  g_assert_true (tks_compact_header_line (&h, "Tick frequency: 10000\r\n"));
  g_assert_true (tks_compact_header_line (&h, "Counter frequency:   168000000\r"));
  g_assert_true (tks_compact_header_line (&h, "Counter coder: 2"));
  g_assert_cmpuint (h.tick_hz, ==, 10000);
  g_assert_cmpuint (h.counter_hz, ==, 168000000);
  g_assert_cmpuint (h.coder, ==, 2);
  for (guint i = 0; i < G_N_ELEMENTS (not_facts); i++)
    g_assert_false (tks_compact_header_line (&h, not_facts[i]));
  g_assert_cmpuint (h.tick_hz, ==, 10000);
  g_assert_cmpuint (h.counter_hz, ==, 168000000);
  g_assert_cmpuint (h.coder, ==, 2);
  g_assert_false (tks_compact_header_line (&h, "Compact:"));
  /* whatever follows the number, as a dump's reader takes it */
  g_assert_true (tks_compact_header_line (&h, "Tick frequency: 1000 Hz"));
  g_assert_cmpuint (h.tick_hz, ==, 1000);
  g_assert_true (tks_compact_header_line (&h, "Counter coder: 1 2"));
  g_assert_cmpuint (h.coder, ==, 1);
}


/* The worst cases of the coder's guesses: 62 threads alive, switched at random (the
 * move-to-front list and the successors miss), threads exiting and others created in their
 * place (over 200 in all), gaps of up to 2^20 - 1 ticks (the widest step of a 20-bit tick)
 * with a counter that follows them, and bursts of hundreds of entries in one tick whose
 * counter barely moves (lines that fill up to their most entries). */
static void
test_round_trip_many_threads (void)
{
  systime_t tick = 500;
  rtcnt_t counter = 0x7FFFF000u;
  guint created = N_THREADS;
  guint lines;
  char name[16];

  rng = 4242;
  boot (N_THREADS);
  for (guint i = 0; i < 2400; i++)
    {
      guint32 r = next_random ();
      guint32 dt = i % 500 == 499 ? (1u << 20) - 1 - (r % 3) : r % 7 == 0 ? r % 40 : 0;
      thread_t *cur = ch_host_current ();

      if (i >= 1900 && i < 2300)
        dt = 0; /* a burst in one tick */
      tick += dt;
      counter += dt * 168000u + (dt == 0 && i >= 1900 && i < 2300 ? 0 : 168u * (r % 900));
      ch_host_time = tick;
      ch_host_counter = counter;
      if (i >= 1900 && i < 2300)
        ch_host_switch (&threads[2 + (i & 1)]);
      else if (r % 9 == 0 && cur != &threads[0] && cur != &threads[1])
        {
          int slot = (int) (cur - threads);

          ch_host_thread_exit (cur);
          ch_host_set_current (&threads[0]);
          ch_host_switch (&threads[1]);
          memset (cur, 0, sizeof *cur);
          g_snprintf (name, sizeof name, "n%u", created++);
          ch_host_thread_init (&threads[slot], g_intern_string (name), 64, CH_FLAG_MODE_STATIC);
        }
      else
        {
          int next = (int) (next_random () % N_THREADS);

          if (&threads[next] != cur)
            ch_host_switch (&threads[next]);
        }
    }
  g_assert_cmpuint (created, >=, 200);
  lines = check_round_trip ();
  g_assert_cmpuint (lines, >, 0);
}

#if TU_CYCLES
/* A counter that steps in grains of 168 (a cycle count times 168, as the simulated board's),
 * across its 32-bit wrap, with now and then a step of no whole grain, places before the
 * tick's predicted start and gaps of thousands of ticks; @odd adds 1 to every other step, so
 * that no grain holds. Returns the compact reply's bytes. */
static guint
run_grained_board (gboolean odd)
{
  systime_t tick = 1000;
  rtcnt_t counter = 0xFFF00000u;

  rng = 77;
  boot (30);
  for (guint i = 0; i < 2500; i++)
    {
      guint32 r = next_random ();
      guint32 step = r % 4 != 0 ? 168u * (r % 40) : 168u * (r % 400000);

      if (i % 397 == 0)
        step += 5; /* no whole grain */
      if (odd && i % 2 == 0)
        step++;
      counter += step;
      tick += step / 168000 + (r % 211 == 0 ? 4000 : 0);
      ch_host_time = tick;
      ch_host_counter = counter;
      if (r % 5 == 0)
        {
#if TU_IRQ
          Short_IRQHandler ();
#endif
        }
      else
        {
          int next = (int) (next_random () % 30);

          if (&threads[next] != ch_host_current ())
            ch_host_switch (&threads[next]);
        }
    }
  return check_round_trip ();
}

static void
test_round_trip_grain (void)
{
  guint grained = run_grained_board (FALSE);
  guint odd = run_grained_board (TRUE);

  /* the grain saves about 7 bits of each counter step */
  if (g_test_verbose ())
    g_printerr ("grained %u bytes, odd %u bytes\n", grained, odd);
  g_assert_cmpuint (grained * 10, <, odd * 9);
}
#endif

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compact/round-trip-random", test_round_trip_random);
  g_test_add_func ("/compact/round-trip-escapes", test_round_trip_escapes);
  g_test_add_func ("/compact/damage", test_damage);
  g_test_add_func ("/compact/header-facts", test_header_facts);
  g_test_add_func ("/compact/repeated", test_repeated);
  g_test_add_func ("/compact/round-trip-many-threads", test_round_trip_many_threads);
  g_test_add_func ("/compact/capture", test_capture_from_compact);
#if TU_CYCLES
  g_test_add_func ("/compact/coder-1", test_coder_1);
  g_test_add_func ("/compact/round-trip-grain", test_round_trip_grain);
  g_test_add_func ("/compact/chained-after-lost", test_chained_after_lost);
  g_test_add_func ("/compact/repeated-in-capture", test_repeated_in_capture);
#endif
  return g_test_run ();
}
