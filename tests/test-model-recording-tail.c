/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The end of a recording being written (tks-recording-tail.h), against the whole recording
 * read as a capture: a recording of the simulated board (threads_record), with threads
 * announced in the middle of the stream. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tks-capture.h"
#include "tks-limits.h"
#include "tks-recording-tail.h"
#include "tks-test-data.h"

#define RECORDING "simboard-record-5s.raw.txt"
/* The simulated board with 46 more threads (--workers=46), recorded from its start: its
 * thread "init" exits (the threads after it are one lower), its jobs come and go through the
 * numbers left. */
#define RECORDING_REUSE "simboard-record-reuse.raw.txt"
/* The simulated board recorded with every event and its 168 MHz counter (threads_record
 * events), 1.5 s, with jobs announced and exiting in the middle of the stream. */
#define RECORDING_EVENTS "simboard-record-events.raw.txt"
/* The simulated board at a 2 kHz tick, recorded for 4 s from 2 s before its 20-bit tick
 * wraps (--tick-hz 2000 --uptime 522288): ticks 1,045,501 to 1,053,562 unwrapped. */
#define RECORDING_WRAP "simboard-record-wrap.raw.txt"
/* The same with every event and its counter (threads_record events: counter coder 2), 3 s from
 * 1.5 s before the wrap (--uptime 522788), at 115200 baud: the board dropped some ("Lost:"). */
#define RECORDING_WRAP_EVENTS "simboard-record-wrap-events.raw.txt"

static char *
read_data (gsize *len)
{
  return tks_test_data_contents (RECORDING, len);
}

static TksCapture *
capture_of (GBytes *bytes)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  return tks_test_capture_of_text (data, len);
}

static const TksThread *
thread_named (TksCapture *capture,
              const char *name,
              int         number)
{
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);

      if (th->number == number && g_strcmp0 (th->name, name) == 0)
        return th;
    }
  return NULL;
}

/* The threads of @end (a tail's capture) the whole recording has, by name and number, and
 * their runs before the last the same (within a cycle: each capture counts the counter from
 * its own start) for those @whole has one of (jobs come and go under one number and a few
 * names); returns how many were compared. */
static guint
same_last_runs (TksCapture *end,
                TksCapture *whole)
{
  guint compared = 0;

  for (guint i = 0; i < tks_capture_get_n_threads (end); i++)
    {
      const TksThread *th = tks_capture_get_thread (end, i);
      const TksThread *truth = thread_named (whole, th->name, th->number);
      guint same = 0;

      /* every thread keeps its name, those announced before the kept lines too */
      g_assert_nonnull (truth);
      for (guint j = 0; j < tks_capture_get_n_threads (whole); j++)
        same += tks_capture_get_thread (whole, j)->number == th->number &&
                g_strcmp0 (tks_capture_get_thread (whole, j)->name, th->name) == 0;
      if (same != 1 || th->n_runs < 2 || truth->n_runs < 2)
        continue;
      g_assert_cmpfloat_with_epsilon (th->runs[th->n_runs - 2].begin,
                                      truth->runs[truth->n_runs - 2].begin, 1e-7);
      g_assert_cmpfloat_with_epsilon (th->runs[th->n_runs - 2].end,
                                      truth->runs[truth->n_runs - 2].end, 1e-7);
      compared++;
    }
  return compared;
}

/* Fed in pieces cut anywhere (mid-line too), as a recorder writes: after each piece the tail
 * holds what a tail made at once of the same bytes holds. */
static void
write_in_pieces (const char *path,
                 const char *text,
                 gsize       len,
                 gsize       piece,
                 gsize       max_bytes,
                 TksRecordingTail **out)
{
  g_autoptr(TksRecordingTail) tail = tks_recording_tail_new (path, max_bytes);
  FILE *f = g_fopen (path, "wb");

  g_assert_nonnull (f);
  fclose (f);
  for (gsize at = 0; at < len; at += piece)
    {
      gsize n = MIN (piece, len - at);

      f = g_fopen (path, "ab");
      g_assert_cmpuint (fwrite (text + at, 1, n, f), ==, n);
      fclose (f);
      g_assert_true (tks_recording_tail_update (tail, NULL));
      g_assert_cmpuint (tks_recording_tail_get_offset (tail), ==, at + n);
      /* bounded: the lines kept stay within the limit but for one line */
      g_assert_cmpuint (tks_recording_tail_get_kept (tail), <=, max_bytes + 128);
    }
  *out = g_steal_pointer (&tail);
}

static void
test_whole (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tks-tail-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "recording.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(TksRecordingTail) tail = NULL;
  g_autoptr(GBytes) composed = NULL;
  g_autoptr(TksCapture) whole = tks_test_load_data (RECORDING);
  g_autoptr(TksCapture) again = NULL;
  const char *prompt;
  gsize len;

  text = read_data (&len);
  /* a limit above the file's size: everything but the unfinished prompt line */
  write_in_pieces (path, text, len, 1000, len * 2, &tail);
  composed = tks_recording_tail_compose (tail);
  prompt = g_strrstr (text, "\n") + 1;
  g_assert_cmpuint (g_bytes_get_size (composed), ==, (gsize) (prompt - text));
  g_assert_cmpmem (g_bytes_get_data (composed, NULL), g_bytes_get_size (composed), text, prompt - text);
  again = capture_of (composed);
  g_assert_cmpuint (tks_capture_get_n_records (again), ==, tks_capture_get_n_records (whole));
  g_remove (path);
  g_rmdir (dir);
}

static void
test_tail (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tks-tail-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "recording.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) whole = tks_test_load_data (RECORDING);
  gsize len;
  const gsize limit = 2500;
  const gsize pieces[] = { 7, 333, 4096, 1 << 20 };
  g_autoptr(GBytes) first = NULL;

  text = read_data (&len);
  for (guint p = 0; p < G_N_ELEMENTS (pieces); p++)
    {
      g_autoptr(TksRecordingTail) tail = NULL;
      g_autoptr(GBytes) composed = NULL;
      g_autoptr(TksCapture) end = NULL;

      write_in_pieces (path, text, len, pieces[p], limit, &tail);
      composed = tks_recording_tail_compose (tail);
      /* the same text however the file grew */
      if (first == NULL)
        first = g_bytes_ref (composed);
      else
        g_assert_true (g_bytes_equal (first, composed));
      g_assert_cmpuint (g_bytes_get_size (composed), <, len / 2);

      end = capture_of (composed);
      g_assert_cmpuint (tks_capture_get_n_records (end), <, tks_capture_get_n_records (whole) / 2);
      g_assert_cmpuint (tks_capture_get_n_records (end), >, 100);
      /* it ends where the recording ends, with the same runs there */
      g_assert_cmpfloat (tks_capture_get_end (end), ==, tks_capture_get_end (whole));
      g_assert_cmpuint (same_last_runs (end, whole), >=, 5);
      /* the threads announced in the middle of the stream, before the kept lines */
      g_assert_nonnull (thread_named (end, "Exited dynamic thread", 14));
    }
  g_remove (path);
  g_rmdir (dir);
}

/* A recording of every event with the counter (coder 2: the lines between key frames go on
 * from the line before): whatever the limit and however the file grew, the tail begins at a
 * line with a key frame, and its capture reads every line it has (no warning but for the lines
 * before it) and ends as the whole one, with the same runs there. */
static void
test_tail_events (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tks-tail-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "recording.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) whole = tks_test_load_data (RECORDING_EVENTS);
  const gsize limits[] = { 1500, 4000, 9999, 20000 };
  const gsize pieces[] = { 13, 999, 1 << 20 };
  guint n_warnings;
  gsize len;

  (void) tks_capture_get_warnings (whole, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 0);
  text = tks_test_data_contents (RECORDING_EVENTS, &len);
  for (guint l = 0; l < G_N_ELEMENTS (limits); l++)
    for (guint p = 0; p < G_N_ELEMENTS (pieces); p++)
      {
        g_autoptr(TksRecordingTail) tail = NULL;
        g_autoptr(GBytes) composed = NULL;
        g_autoptr(TksCapture) end = NULL;
  
        write_in_pieces (path, text, len, pieces[p], limits[l], &tail);
        composed = tks_recording_tail_compose (tail);
        end = capture_of (composed);
        {
          /* (a tail's text lacks the lines before it, which its reader is told of) */
          const char * const *w = tks_capture_get_warnings (end, &n_warnings);

          for (guint x = 0; x < n_warnings; x++)
            g_assert_true (strstr (w[x], "compact lines 0 to ") != NULL ||
                           strstr (w[x], "the transfer lost lines") != NULL);
        }
        g_assert_cmpuint (tks_capture_get_n_records (end), >, 10);
        g_assert_cmpuint (tks_capture_get_n_records (end), <, tks_capture_get_n_records (whole));
        g_assert_cmpfloat (tks_capture_get_end (end), ==, tks_capture_get_end (whole));
        g_assert_cmpuint (same_last_runs (end, whole), >=, 2);
      }
  g_remove (path);
  g_rmdir (dir);
}

/* A thread that ran in the tail's capture: the whole recording has it, by name and number,
 * with the same run (from the same tick to the same tick: a tick's records share it out, and
 * the tail's first tick may hold fewer of them). */
static gboolean
whole_has_run (TksCapture   *whole,
               const char   *name,
               int           number,
               const TksRun *run)
{
  for (guint i = 0; i < tks_capture_get_n_threads (whole); i++)
    {
      const TksThread *th = tks_capture_get_thread (whole, i);

      if (th->number != number || g_strcmp0 (th->name, name) != 0)
        continue;
      for (guint r = 0; r < th->n_runs; r++)
        if (floor (th->runs[r].begin) == floor (run->begin) && ceil (th->runs[r].end) == ceil (run->end))
          return TRUE;
    }
  return FALSE;
}

/* Numbers given back during the recording: whatever the lines let go (before or after an exit
 * renumbered the threads, before or after a job took a number back), the tail's text begins
 * with the thread list of its first kept line, and its capture gives every run to the thread
 * the whole recording gives it to. */
static void
test_tail_numbers_reused (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tks-tail-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "recording.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) whole = tks_test_load_data (RECORDING_REUSE);
  guint n_exited = 0;
  gsize len;

  text = tks_test_data_contents (RECORDING_REUSE, &len);
  for (guint i = 0; i < tks_capture_get_n_threads (whole); i++)
    n_exited += (tks_capture_get_thread (whole, i)->flags & TKS_THREAD_EXITED) != 0;
  g_assert_cmpuint (n_exited, >=, 5);
  g_assert_true (g_file_set_contents (path, text, (gssize) len, NULL));

  for (gsize limit = 500; limit < len; limit += len / 23)
    {
      g_autoptr(TksRecordingTail) tail = tks_recording_tail_new (path, limit);
      g_autoptr(GBytes) composed = NULL;
      g_autoptr(TksCapture) end = NULL;
      guint n_runs = 0;

      g_assert_true (tks_recording_tail_update (tail, NULL));
      composed = tks_recording_tail_compose (tail);
      end = capture_of (composed);
      for (guint i = 0; i < tks_capture_get_n_threads (end); i++)
        {
          const TksThread *th = tks_capture_get_thread (end, i);

          g_assert_false (th->flags & TKS_THREAD_NOT_LISTED);
          for (guint r = 0; r < th->n_runs; r++)
            {
              /* (a run cut by the tail's first line is not the whole recording's) */
              if (r == 0 && (th->flags & TKS_THREAD_RUNNING_AT_START))
                continue;
              if (!whole_has_run (whole, th->name, th->number, &th->runs[r]))
                g_error ("tail of %" G_GSIZE_FORMAT " bytes: run %g to %g on %s (number %d) "
                         "is not that thread's in the whole recording", limit,
                         th->runs[r].begin, th->runs[r].end, th->name, th->number);
              n_runs++;
            }
        }
      g_assert_cmpuint (n_runs, >, 50);
    }
  g_remove (path);
  g_rmdir (dir);
}

static void
test_missing_file (void)
{
  g_autoptr(TksRecordingTail) tail = tks_recording_tail_new ("/nonexistent/recording.txt", 1000);
  g_autoptr(GError) error = NULL;

  g_assert_false (tks_recording_tail_update (tail, &error));
  g_assert_nonnull (error);
  g_assert_null (tks_recording_tail_compose (tail));
}

/* Read up to a byte of the file, the tail is what a tail of the file cut there gives: an
 * earlier stretch of the recording, while the file goes on. */
static void
test_limit (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tks-tail-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "recording.txt", NULL);
  g_autofree char *cut_path = g_build_filename (dir, "cut.txt", NULL);
  g_autofree char *text = NULL;
  gsize len, limit;

  text = read_data (&len);
  g_assert_true (g_file_set_contents (path, text, (gssize) len, NULL));
  for (limit = len / 7; limit < len; limit += len / 3)
    {
      g_autoptr(TksRecordingTail) tail = tks_recording_tail_new (path, 20000);
      g_autoptr(TksRecordingTail) cut = tks_recording_tail_new (cut_path, 20000);
      g_autoptr(GBytes) a = NULL;
      g_autoptr(GBytes) b = NULL;
      g_autoptr(TksCapture) capture = NULL;

      g_assert_true (g_file_set_contents (cut_path, text, (gssize) limit, NULL));
      g_assert_true (tks_recording_tail_update_to (tail, limit, NULL));
      g_assert_cmpuint (tks_recording_tail_get_offset (tail), ==, limit);
      g_assert_true (tks_recording_tail_update (cut, NULL));
      a = tks_recording_tail_compose (tail);
      b = tks_recording_tail_compose (cut);
      g_assert_nonnull (a);
      g_assert_cmpmem (g_bytes_get_data (a, NULL), g_bytes_get_size (a),
                       g_bytes_get_data (b, NULL), g_bytes_get_size (b));
      capture = capture_of (a);
      g_assert_cmpuint (tks_capture_get_n_records (capture), >, 0);
      /* read on, it reaches the end */
      g_assert_true (tks_recording_tail_update (tail, NULL));
      g_assert_cmpuint (tks_recording_tail_get_offset (tail), ==, len);
    }
  g_remove (cut_path);
  g_remove (path);
  g_rmdir (dir);
}

/* The thread of @capture named @name with @number, when it is the only one. */
static const TksThread *
only_thread (TksCapture *capture,
             const char *name,
             int         number)
{
  const TksThread *found = NULL;

  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);

      if (th->number == number && g_strcmp0 (th->name, name) == 0)
        {
          if (found != NULL)
            return NULL;
          found = th;
        }
    }
  return found;
}

/* The stretch @tail composes lies where the file read whole puts it: its times plus its
 * wraps' (tks_recording_tail_wraps_before()) are those of @text read up to the same line.
 * @seen counts the cases: before the tick wraps, across the wrap, after it once the lines
 * before it were let go. */
/* The file as far as @tail read whole lines of it, read as a capture: @cache keeps the last
 * one, which the tails of the same file at the same offset share. */
typedef struct
{
  gsize       cut;
  TksCapture *whole;
} WholeCache;

static TksCapture *
whole_read (WholeCache       *cache,
            TksRecordingTail *tail,
            const char       *text)
{
  gsize cut = tks_recording_tail_get_offset (tail);

  while (cut > 0 && text[cut - 1] != '\n')
    cut--;
  if (cache->whole == NULL || cache->cut != cut)
    {
      g_clear_object (&cache->whole);
      cache->whole = tks_test_capture_of_text (text, cut);
      cache->cut = cut;
    }
  return cache->whole;
}

static void
check_stretch (TksRecordingTail *tail,
               const char       *text,
               WholeCache       *cache,
               guint             seen[3])
{
  g_autoptr(GBytes) composed = tks_recording_tail_compose (tail);
  g_autoptr(TksCapture) stretch = NULL;
  TksCapture *whole;
  double wraps, shift, start, end;
  guint compared = 0;

  if (composed == NULL)
    return;
  stretch = capture_of (composed);
  whole = whole_read (cache, tail, text);
  start = tks_capture_get_start (stretch);
  end = tks_capture_get_end (stretch);
  wraps = tks_recording_tail_wraps_before (tail, start);
  shift = wraps * TKS_RECORDING_TICK_WRAP;
  g_assert_cmpfloat (end + shift, ==, tks_capture_get_end (whole));
  g_assert_cmpfloat (start + shift, >=, tks_capture_get_start (whole));
  /* the runs too, thread by thread */
  for (guint i = 0; i < tks_capture_get_n_threads (stretch); i++)
    {
      const TksThread *th = tks_capture_get_thread (stretch, i);
      const TksThread *truth = only_thread (whole, th->name, th->number);

      /* (the k records of a tick share it evenly: the stretch's first tick may have fewer of
       * them than the file's) */
      if (truth == NULL || only_thread (stretch, th->name, th->number) == NULL ||
          th->n_runs < 2 || truth->n_runs < 2 || th->runs[th->n_runs - 2].begin < start + 1)
        continue;
      /* (within a cycle with the counter: each capture counts it from its own start) */
      g_assert_cmpfloat_with_epsilon (th->runs[th->n_runs - 2].begin + shift,
                                      truth->runs[truth->n_runs - 2].begin, 1e-6);
      compared++;
    }
  g_assert_cmpuint (compared, >=, 2);

  if (end < TKS_RECORDING_TICK_WRAP && wraps == 0)
    seen[0]++;
  else if (wraps == 0)
    {
      /* had the stretch begun after the wrap (its first line the first after it, the last
       * entry let go before it), it would lie a wrap further */
      g_assert_cmpfloat (tks_recording_tail_wraps_before (tail, 0), ==, 1);
      seen[1]++;
    }
  else if (wraps == 1)
    {
      /* a first time a wrap earlier in the stretch's own times (an event before its first
       * switch and before a wrap) puts the stretch's times a wrap further */
      g_assert_cmpfloat (tks_recording_tail_wraps_before (tail, start - TKS_RECORDING_TICK_WRAP),
                         ==, 2);
      seen[2]++;
    }
}

/* The file at @path grows to @text, @piece bytes at a time, read by tails that keep about
 * @max_bytes[i] (0 ends the list): each stretch checked. The tails read the same file side by
 * side, so that the whole file so far is read once a step, not once a tail. */
static void
check_growing (const char  *path,
               const char  *text,
               gsize        len,
               gsize        piece,
               const gsize *max_bytes,
               guint        seen[3])
{
  g_autoptr(GPtrArray) tails = g_ptr_array_new_with_free_func ((GDestroyNotify) tks_recording_tail_free);
  WholeCache cache = { 0 };

  for (guint i = 0; max_bytes[i] > 0; i++)
    g_ptr_array_add (tails, tks_recording_tail_new (path, max_bytes[i]));
  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  for (gsize at = 0; at < len; at += piece)
    {
      FILE *f = g_fopen (path, "ab");
      gsize n = MIN (piece, len - at);

      g_assert_cmpuint (fwrite (text + at, 1, n, f), ==, n);
      fclose (f);
      for (guint i = 0; i < tails->len; i++)
        {
          TksRecordingTail *tail = g_ptr_array_index (tails, i);

          g_assert_true (tks_recording_tail_update (tail, NULL));
          check_stretch (tail, text, &cache, seen);
        }
    }
  g_clear_object (&cache.whole);
}

static void
test_tail_wraps (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tks-tail-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "recording.txt", NULL);
  g_autofree char *text = NULL;
  guint seen[3] = { 0, 0, 0 };
  gsize len;

  text = tks_test_data_contents (RECORDING_WRAP, &len);
  for (gsize piece = 601; piece < 1700; piece += 500)
    check_growing (path, text, len, piece, (const gsize[]) { 1500, 2500, 3500, 0 }, seen);
  /* the kept lines beginning at each compact line in turn (three of them kept) */
  g_assert_true (g_file_set_contents (path, text, (gssize) len, NULL));
  for (const char *line = strstr (text, "\nZ"); line != NULL; line = strstr (line + 1, "\nZ"))
    {
      const char *last = line + 1;
      g_autoptr(TksRecordingTail) tail = NULL;
      WholeCache cache = { 0 };

      for (guint i = 0; i < 3 && last != NULL; i++)
        last = strchr (last, '\n') != NULL ? strchr (last, '\n') + 1 : NULL;
      if (last == NULL || last[0] != 'Z')
        break;
      tail = tks_recording_tail_new (path, (gsize) (last - (line + 1)));
      g_assert_true (tks_recording_tail_update_to (tail, (guint64) (last - text), NULL));
      check_stretch (tail, text, &cache, seen);
      g_clear_object (&cache.whole);
    }
  g_test_message ("stretches before the wrap %u, across it %u, after it %u",
                  seen[0], seen[1], seen[2]);
  for (guint i = 0; i < G_N_ELEMENTS (seen); i++)
    g_assert_cmpuint (seen[i], >, 0);

  /* every event, its counter, lines chained between key frames, holes the board left */
  g_free (text);
  text = tks_test_data_contents (RECORDING_WRAP_EVENTS, &len);
  g_assert_nonnull (strstr (text, "\nLost: "));
  memset (seen, 0, sizeof seen);
  check_growing (path, text, len, 1499, (const gsize[]) { 3000, 7000, 11000, 0 }, seen);
  g_test_message ("with events: stretches before the wrap %u, across it %u, after it %u",
                  seen[0], seen[1], seen[2]);
  for (guint i = 0; i < G_N_ELEMENTS (seen); i++)
    g_assert_cmpuint (seen[i], >, 0);
  g_remove (path);
  g_rmdir (dir);
}


/* Appends @text to the file at @path, then reads what it gained into @tail. */
static void
grow (const char       *path,
      TksRecordingTail *tail,
      const char       *text,
      gsize             len)
{
  FILE *f = g_fopen (path, "ab");

  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (text, 1, len, f), ==, len);
  fclose (f);
  g_assert_true (tks_recording_tail_update (tail, NULL));
}

/* Whether the reader says @part of the text the tail composes now: a warning of its capture,
 * or why it has none (a log of nothing else). */
static gboolean
tail_warns (TksRecordingTail *tail,
            const char       *part)
{
  g_autoptr(GBytes) composed = tks_recording_tail_compose (tail);
  g_autoptr(GError) error = NULL;
  gsize len;
  const char *data = g_bytes_get_data (composed, &len);
  g_autoptr(TksCapture) capture = tks_capture_new_from_data (data, len, &error);

  if (capture == NULL)
    return strstr (error->message, part) != NULL;
  return tks_test_has_warning (capture, part);
}

/* A hostile stream while the view follows it: megabytes of ever new name announcements (new
 * ids, ids the reader ignores, new spellings of one id), then a line that never ends. The tail
 * holds what the reader's limits allow, whatever comes, and its capture says what the reader
 * says of the same lines. */
static void
test_tail_hostile (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tks-tail-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "recording.txt", NULL);
  g_autofree char *text = tks_test_data_contents (RECORDING_EVENTS, NULL);
  const char *compact = strstr (text, "\nZ");
  const gsize max_bytes = 64 * 1024;
  /* the header, the list, the lines kept, a name line per id, the line being read */
  const gsize cap = 64 * 1024 + max_bytes + (TKS_MAX_NAME_ID + 2) * (TKS_MAX_LINE_BYTES + 2);
  g_autoptr(TksRecordingTail) tail = tks_recording_tail_new (path, max_bytes);
  g_autoptr(GString) chunk = g_string_new (NULL);
  guint n = 0;

  g_assert_nonnull (compact);
  grow (path, tail, text, (gsize) (compact + 1 - text));
  for (guint round = 0; round < 64; round++)
    {
      g_string_truncate (chunk, 0);
      while (chunk->len < 128 * 1024)
        {
          n++;
          /* (the last lines kept: ids the reader ignores only, each said once) */
          g_string_append_printf (chunk, "Name %*u : Kind = irq, Name = h%u_%s\r\n",
                                  (int) (n % 7), n % 3 == 0 && round < 60 ? 1 + n % 255 : n + 255,
                                  n, n % 5 == 0 ? "IRQHandler" : "x");
        }
      grow (path, tail, chunk->str, chunk->len);
      g_assert_cmpuint (tks_recording_tail_get_held (tail), <, cap);
    }
  g_assert_true (tail_warns (tail, "outside 1 to 255, is ignored"));

  /* 32 MiB of a line without end, in a new recording */
  g_clear_pointer (&tail, tks_recording_tail_free);
  g_remove (path);
  tail = tks_recording_tail_new (path, max_bytes);
  grow (path, tail, text, (gsize) (compact + 1 - text));
  g_string_set_size (chunk, 1024 * 1024);
  memset (chunk->str, 'x', chunk->len);
  for (guint mb = 0; mb < 32; mb++)
    {
      grow (path, tail, chunk->str, chunk->len);
      g_assert_cmpuint (tks_recording_tail_get_held (tail), <, cap);
    }
  g_assert_true (tail_warns (tail, "longer than any line of a capture"));
  /* it ends, and the stream goes on: the line is skipped as the reader skips it */
  grow (path, tail, "\r\n", 2);
  grow (path, tail, compact + 1, strlen (compact + 1));
  g_assert_cmpuint (tks_recording_tail_get_held (tail), <, cap);
  g_remove (path);
  g_rmdir (dir);
}

/* The tail's capture against the file's, both read by the reader: the same reason when it is
 * none, the same warnings when it is one. */
static void
assert_reads_as_file (TksRecordingTail *tail,
                      const char       *path)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) tail_error = NULL;
  g_autoptr(GError) file_error = NULL;
  g_autoptr(TksCapture) tail_capture = tks_recording_tail_read (tail, &tail_error);
  g_autoptr(TksCapture) file_capture = NULL;
  const char * const *tail_warnings, * const *file_warnings;
  guint n_tail = 0, n_file = 0;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  file_capture = tks_capture_new_from_data (text, len, &file_error);
  if (file_error != NULL)
    {
      g_assert_nonnull (tail_error);
      g_assert_cmpstr (tail_error->message, ==, file_error->message);
      return;
    }
  g_assert_no_error (tail_error);
  g_assert_cmpuint (tks_capture_get_n_records (tail_capture), ==,
                    tks_capture_get_n_records (file_capture));
  tail_warnings = tks_capture_get_warnings (tail_capture, &n_tail);
  file_warnings = tks_capture_get_warnings (file_capture, &n_file);
  g_assert_cmpuint (n_tail, ==, n_file);
  for (guint i = 0; i < n_file; i++)
    g_assert_cmpstr (tail_warnings[i], ==, file_warnings[i]);
}

/* A line longer than any of a capture, growing, the only line of the recording yet; then it
 * ends and the recording goes on. The tail keeps a bounded start of it, yet its reading says
 * of it what the file's reading says: the line's length in the file, and, once the reader has
 * read too far without a line of a capture, that it is none. */
static void
test_tail_long_line (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tks-tail-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "recording.txt", NULL);
  g_autofree char *text = tks_test_data_contents (RECORDING_EVENTS, NULL);
  const char *compact = strstr (text, "\nZ");
  const char *after;
  const gsize max_bytes = 16 * 1024 * 1024;
  const gsize cap = 64 * 1024 + 2 * (TKS_MAX_LINE_BYTES + 2) + strlen (text);
  g_autoptr(TksRecordingTail) tail = tks_recording_tail_new (path, max_bytes);
  g_autoptr(GString) chunk = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;

  g_assert_nonnull (compact);
  grow (path, tail, text, (gsize) (compact + 1 - text));
  g_string_set_size (chunk, 3 * 1024 * 1024 + 5);
  memset (chunk->str, 'x', chunk->len);
  grow (path, tail, chunk->str, chunk->len);
  assert_reads_as_file (tail, path);
  capture = tks_recording_tail_read (tail, &error);
  g_assert_null (capture);
  g_assert_nonnull (strstr (error->message, "a line of 3145733 bytes"));
  g_clear_error (&error);
  g_assert_cmpuint (tks_recording_tail_get_held (tail), <, cap);
  /* past what the reader reads without a line of a capture */
  for (guint i = 0; i < 5; i++)
    grow (path, tail, chunk->str, chunk->len);
  assert_reads_as_file (tail, path);
  g_assert_cmpuint (tks_recording_tail_get_held (tail), <, cap);
  g_remove (path);

  /* after the first compact line, a shorter one ends, and the recording goes on: skipped, with
   * its length, as the file's reading does */
  g_clear_pointer (&tail, tks_recording_tail_free);
  tail = tks_recording_tail_new (path, max_bytes);
  after = strstr (compact + 1, "\nZ");
  g_assert_nonnull (after);
  grow (path, tail, text, (gsize) (after + 1 - text));
  grow (path, tail, chunk->str, 100000);
  grow (path, tail, "\r\n", 2);
  grow (path, tail, after + 1, strlen (after + 1));
  assert_reads_as_file (tail, path);
  g_assert_true (tail_warns (tail, "longer than any line of a capture"));
  g_remove (path);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/recording-tail/whole", test_whole);
  g_test_add_func ("/model/recording-tail/tail", test_tail);
  g_test_add_func ("/model/recording-tail/numbers-reused", test_tail_numbers_reused);
  g_test_add_func ("/model/recording-tail/events", test_tail_events);
  g_test_add_func ("/model/recording-tail/missing-file", test_missing_file);
  g_test_add_func ("/model/recording-tail/limit", test_limit);
  g_test_add_func ("/model/recording-tail/wraps", test_tail_wraps);
  g_test_add_func ("/model/recording-tail/hostile", test_tail_hostile);
  g_test_add_func ("/model/recording-tail/long-line", test_tail_long_line);
  return g_test_run ();
}
