/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a fetch costs on the wire. Each capture given (a transcript or capture file: a real
 * board's, or one fetched from the simulated board) is replayed into the board library on the
 * host stand-in, which then prints its log as the legacy pair (threads_list +
 * threads_timestamps), as threads_dump and as threads_dump_compact. For each: bytes, bytes per
 * record and seconds at 115200 baud (ten bits a byte). The compact reply is decoded again and
 * must give back every record.
 *
 * Built three times: bench-transfer (switches only: records at tick resolution) and
 * bench-transfer-cycles (every event option: each record carries the cycle counter of a
 * 168 MHz part; a capture without one gets a synthesized counter, the records of a tick
 * spread evenly through it: a worst case for the coder, which expects the switches of
 * consecutive ticks at similar places in their ticks), and bench-compact-fields (as the
 * second, its coder counting its bits per field: --fields RECORDING).
 *
 *   bench-transfer CAPTURE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"
#include "tks-capture-private.h"
#include "tks-compact.h"
#ifdef TU_Z_COST
#include <math.h>

#include "tu_internal.h"
#endif

#define BAUD 115200.0

static thread_t threads[64];

/* Replays the capture's live threads and records into the library; returns the records. */
static guint
replay (TksCapture *capture)
{
  const TksParsed *parsed = capture->parsed;
  guint n = parsed->records->len;
  guint64 unwrapped = 0;
  guint32 prev = 0;

  ch_host_reset ();
  tuResetState ();
  memset (threads, 0, sizeof threads);
  for (guint i = 0; i < parsed->live->len && i < G_N_ELEMENTS (threads) - 2; i++)
    {
      const TksListEntry *entry = parsed->live->pdata[i];

      ch_host_thread_init (&threads[i], entry->name, (tprio_t) entry->priority, CH_FLAG_MODE_STATIC);
    }

  for (guint i = 0; i < n;)
    {
      const TksRecord *r = &g_array_index (parsed->records, TksRecord, i);
      guint k = 1;

      /* The records sharing this tick. */
      while (i + k < n && g_array_index (parsed->records, TksRecord, i + k).tick == r->tick)
        k++;
      unwrapped += (r->tick - prev) & 0xFFFFFu;
      prev = r->tick;
      for (guint j = 0; j < k; j++)
        {
          const TksRecord *rj = &g_array_index (parsed->records, TksRecord, i + j);
          guint32 word = (rj->tick << 12) | ((guint32) MIN (rj->out, 62) << 6) | MIN (rj->in, 62);
          guint32 counter = (guint32) (unwrapped * 168000u + (j + 1) * 168000u / (k + 1));

          ch_host_time = (systime_t) unwrapped;
          tuReplayEntry (word, counter, 0, 0);
        }
      i += k;
    }
  return n;
}

static gsize
reply_bytes (void (*cmd) (BaseSequentialStream *, int, char *[]), char **text)
{
  char *reply = host_run (cmd, 0, NULL);
  gsize n = strlen (reply);

  if (text != NULL)
    *text = reply;
  else
    g_free (reply);
  return n;
}

/* Decodes the compact reply; the number of records it gives back. */
static guint
decoded_records (const char *reply)
{
  g_auto (GStrv) lines = g_strsplit (reply, "\r\n", -1);
  g_autoptr (TksCompactDecoder) dec = tks_compact_decoder_new (1000, TU_CYCLES ? 168000000 : 0);
  gboolean in_log = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;

      if (g_str_has_prefix (lines[i], "Counter coder: "))
        tks_compact_decoder_set_coder (dec, (guint) atoi (lines[i] + 15));
      else if (strcmp (lines[i], "Compact:") == 0)
        in_log = TRUE;
      else if (g_str_has_prefix (lines[i], "End of dump"))
        in_log = FALSE;
      else if (in_log && !tks_compact_decoder_line (dec, lines[i], strlen (lines[i]), &error))
        {
          fprintf (stderr, "%s\n", error->message);
          return 0;
        }
    }
  return tks_compact_decoder_entries (dec)->len;
}

/* The bytes of the reply's log: its compact lines with their CR LF, which a recording streams
 * (the header comes once). */
static gsize
log_bytes (const char *reply)
{
  g_auto (GStrv) lines = g_strsplit (reply, "\r\n", -1);
  gsize n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] == 'Z')
      n += strlen (lines[i]) + 2;
  return n;
}

static void
row (const char *what, gsize bytes, guint records)
{
  printf ("  %-22s %8zu bytes  %6.2f bytes/record  %6.2f s at 115200 baud\n", what, bytes,
          (double) bytes / MAX (records, 1), (double) bytes * 10.0 / BAUD);
}

#ifdef TU_Z_COST
/* Where the bits go: the entries of a recording (`tickscope-cli record --events -o FILE`) are
 * decoded, then coded again by the board's coder, which adds each coded bit's cost to the
 * field it codes; framing is the rest of the lines' bytes. With @fine, each counter value is
 * moved on by a pseudo-random 0 to 167 (the simulated board's counter advances in steps of
 * 168, a real cycle counter by 1), never before the one before it. */
extern double tu_z_bits[];

static int
fields (const char *path, gboolean fine)
{
  static const char *const names[] = { "who (switches)", "event kind", "handler id, payloads",
                                       "tick delta", "counter delta", "key frames" };
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (TksCompactDecoder) dec = tks_compact_decoder_new (1000, 168000000);
  g_autoptr (GArray) entries = g_array_new (FALSE, FALSE, sizeof (TksEntry));
  g_autofree char *coded = NULL;
  HostStream stream;
  tu_zlog_t *log = g_new0 (tu_zlog_t, 1);
  guint32 seed = 12345, prev = 0;
  double total = 0, sum = 0;
  gsize bytes = 0;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 1;
  memset (tu_z_bits, 0, G_N_ELEMENTS (names) * sizeof tu_z_bits[0]);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      if (g_str_has_prefix (lines[i], "Counter coder: "))
        tks_compact_decoder_set_coder (dec, (guint) atoi (lines[i] + 15));
      else if (g_str_has_prefix (lines[i], "Z"))
        tks_compact_decoder_line (dec, lines[i], strlen (lines[i]), NULL);
    }
  g_array_append_vals (entries, tks_compact_decoder_entries (dec)->data,
                       tks_compact_decoder_entries (dec)->len);
  host_stream_init (&stream);
  tu_zlog_init (log);
  for (guint i = 0; i < entries->len; i++)
    {
      const TksEntry *d = &g_array_index (entries, TksEntry, i);
      tu_entry_t e = { d->record, d->counter, d->kind, d->a, d->b };

      if (fine)
        {
          seed = seed * 1103515245u + 12345u;
          e.stamp += (seed >> 16) % 168u;
          if (i > 0 && (gint32) (e.stamp - prev) < 0)
            e.stamp = prev;
          prev = e.stamp;
        }
      tu_zlog_add (&stream.base, log, &e);
    }
  tu_zlog_flush (&stream.base, log);
  coded = host_stream_steal (&stream);
  bytes = strlen (coded);
  printf ("%s, counter %s: %u entries, %zu bytes of lines, %.2f bytes/entry  (goal <= 2.5)\n",
          path, fine ? "stepping by 1 (sub-grain jitter added)" : "as recorded",
          entries->len, bytes, (double) bytes / MAX (entries->len, 1));
  total = bytes * 8.0;
  for (guint f = 0; f < G_N_ELEMENTS (names); f++)
    {
      printf ("  %-22s %6.2f bits/entry  %5.1f %%\n", names[f],
              tu_z_bits[f] / MAX (entries->len, 1), 100.0 * tu_z_bits[f] / total);
      sum += tu_z_bits[f];
    }
  printf ("  %-22s %6.2f bits/entry  %5.1f %%\n", "framing", (total - sum) / MAX (entries->len, 1),
          100.0 * (total - sum) / total);
  if (fine)
    /* 168 values equally likely for each entry, that nothing before it tells: log2(168) bits,
     * 13 bits in 2 characters on the wire */
    printf ("  (the jitter alone is %.2f bits/entry of noise: at least %.2f bytes/entry more "
            "than the counter as recorded)\n", log2 (168.0), log2 (168.0) * 2.0 / 13.0);
  g_free (log);
  return 0;
}
#endif

int
main (int argc, char *argv[])
{
#ifdef TU_Z_COST
  if (argc == 3 && strcmp (argv[1], "--fields") == 0)
    return fields (argv[2], FALSE) || fields (argv[2], TRUE);
#endif
  if (argc < 2)
    {
      fprintf (stderr, "usage: %s CAPTURE...\n", argv[0]);
      return 2;
    }
  printf ("Transfer of one fetch, %s:\n",
          TU_CYCLES ? "every record with a 168 MHz cycle counter (synthesized: records spread "
                      "evenly in their tick)" : "records at tick resolution");
  for (int a = 1; a < argc; a++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TksCapture) capture = tks_capture_new_from_file (argv[a], &error);
      g_autofree char *compact = NULL;
      guint n;

      if (capture == NULL)
        {
          fprintf (stderr, "%s: %s\n", argv[a], error->message);
          return 1;
        }
      n = replay (capture);
      {
        g_autofree char *base = g_path_get_basename (argv[a]);

        printf ("%s: %u records\n", base, n);
      }
      row ("threads_list + _timestamps",
           reply_bytes (tuCmdThreadsList, NULL) + reply_bytes (tuCmdThreadsTimestamps, NULL), n);
      row ("threads_dump", reply_bytes (tuCmdThreadsDump, NULL), n);
      row ("threads_dump_compact", reply_bytes (tuCmdThreadsDumpCompact, &compact), n);
      {
        gsize lines = log_bytes (compact);

        printf ("  %-22s %8zu bytes  %6.2f bytes/record  (goal <= %.1f)\n", "its compact lines", lines,
                (double) lines / MAX (n, 1), TU_CYCLES ? 2.5 : 0.8);
      }
      if (g_getenv ("TKS_BENCH_SAVE") != NULL)
        g_file_set_contents (g_getenv ("TKS_BENCH_SAVE"), compact, -1, NULL);
      if (decoded_records (compact) != n)
        {
          fprintf (stderr, "%s: the compact reply does not decode to %u records\n", argv[a], n);
          return 1;
        }
    }
  return 0;
}
