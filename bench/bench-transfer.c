/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a fetch costs on the wire. Each capture given (a transcript or capture file: a real
 * board's, or one fetched from the simulated board) is replayed into the board library on the
 * host stand-in, which then prints its log as the legacy pair (threads_list +
 * threads_timestamps), as threads_dump and as threads_dump_compact. For each: bytes, bytes per
 * record and seconds at 115200 baud (ten bits a byte). The compact reply is decoded again and
 * must give back every record.
 *
 * Built twice: bench-transfer (switches only: records at tick resolution) and
 * bench-transfer-cycles (every event option: each record carries the cycle counter of a
 * 168 MHz part; a capture without one gets a synthesized counter, the records of a tick
 * spread evenly through it: a worst case for the coder, which expects the switches of
 * consecutive ticks at similar places in their ticks).
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

int
main (int argc, char *argv[])
{
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
