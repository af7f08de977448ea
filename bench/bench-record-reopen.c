/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The time to reopen a long recording: the board library (on the host stand-in, built with
 * THREADS_TIMESTAMPS_RECORD) records MINUTES of a board switching SWITCHES times a second
 * among a dozen threads, polled every 10 ms as threads_record does, into a file exactly as
 * tickscope-cli record writes it; then the file is opened as a capture, as the viewer's Open
 * and tickscope-cli info do. Prints the time the reopening took, wall and processor time (every
 * thread's), against the goal of 1 s; on a busy machine the wall time is mostly waits for a
 * processor.
 *
 * Usage: bench-record-reopen [MINUTES [SWITCHES]]   (default 60 minutes, 3500 switches/s)
 *        bench-record-reopen --keep FILE [MINUTES [SWITCHES]]   (records into FILE, kept)
 *        bench-record-reopen --open FILE   (only reopens FILE, a recording kept before)
 *        bench-record-reopen --phases FILE   (reopens FILE, and prints each phase's wall and
 *                                             processor time and page faults)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "bench-common.h"
#include "ch.h"
#include "threads_utilities.h"
#include "tks-capture-private.h"
#include "tks-parser.h"

#define N_THREADS 12

typedef struct
{
  BaseSequentialStream base;
  FILE *file;
  guint64 bytes;
} FileStream;

static size_t
file_write (void *ip, const uint8_t *bp, size_t n)
{
  FileStream *s = ip;

  s->bytes += n;
  return fwrite (bp, 1, n, s->file);
}

static const struct BaseSequentialStreamVMT file_vmt = { file_write, NULL };

/* Processor time of every thread of the process so far, in seconds */
static double
cpu_s (void)
{
  struct rusage u;

  getrusage (RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/* A moment of the process: wall time, processor time of every thread, page faults. */
typedef struct
{
  guint64 wall_ns;
  double  cpu;
  long    faults;
} Moment;

static Moment
moment_now (void)
{
  struct rusage u;

  getrusage (RUSAGE_SELF, &u);
  return (Moment) { now_ns (),
                    u.ru_utime.tv_sec + u.ru_stime.tv_sec +
                    (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6,
                    u.ru_minflt + u.ru_majflt };
}

static void
print_phase (const char   *name,
             const Moment *from,
             const Moment *to)
{
  printf ("phase: %-44s %6.3f s wall, %6.3f s processor, %8ld page faults\n", name,
          (to->wall_ns - from->wall_ns) / 1e9, to->cpu - from->cpu, to->faults - from->faults);
}

/* Opens @path as tks_capture_new_from_file() does, one phase after the other: the lines read
 * and decoded as they come, the end of the reading (what it finishes once it has every line),
 * the rebuild into threads, runs and marks. */
static int
reopen_phases (const char *path)
{
  g_autoptr(TksParser) parser = tks_parser_new ();
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *buffer = g_malloc (1 << 20);
  TksParsed *parsed;
  Moment m0, m1, m2, m3;
  struct stat st;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0)
    {
      fprintf (stderr, "%s: %s\n", path, g_strerror (errno));
      return 1;
    }
  m0 = moment_now ();
  if (fstat (fd, &st) == 0)
    tks_parser_reserve (parser, st.st_size);
  while (!tks_parser_failed (parser))
    {
      gssize n = read (fd, buffer, 1 << 20);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      tks_parser_feed (parser, buffer, n);
    }
  close (fd);
  m1 = moment_now ();
  parsed = tks_parser_finish (parser, &error);
  m2 = moment_now ();
  if (parsed == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  capture = tks_capture_new_from_parsed (parsed);
  m3 = moment_now ();
  print_phase ("the lines read and decoded", &m0, &m1);
  print_phase ("the end of the reading", &m1, &m2);
  print_phase ("the rebuild (threads, runs, marks)", &m2, &m3);
  print_phase ("all", &m0, &m3);
  printf ("%u records, %u threads\n", tks_capture_get_n_records (capture),
          tks_capture_get_n_threads (capture));
  return 0;
}

/* Opens @path as the viewer's Open and tickscope-cli info do, and says how long it took. */
static int
reopen (const char *path)
{
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  guint64 t0 = now_ns ();
  double c0 = cpu_s (), wall, cpu;

  capture = tks_capture_new_from_file (path, &error);
  if (capture == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  wall = (now_ns () - t0) / 1e9;
  cpu = cpu_s () - c0;
  printf ("Reopened as a capture in %.3f s: %u records, %u threads\n", wall,
          tks_capture_get_n_records (capture), tks_capture_get_n_threads (capture));
  printf ("figure: the recording reopened: %.2f s, %.2f s of processor time (goal <= 1 s): %s\n",
          wall, cpu, wall <= 1.0 ? "met" : cpu <= 1.0 ? "NOT met in wall time (met in processor time)"
                                                     : "NOT met");
  return 0;
}

int
main (int argc, char *argv[])
{
  g_autofree char *path = NULL;
  gboolean keep = FALSE;
  double minutes;
  guint per_s;
  static thread_t threads[N_THREADS];
  static const char *names[N_THREADS] = { "main", "idle", "sensor", "filter", "logger", "control",
                                          "console", "blinker", "spawner", "stats", "net", "ui" };
  FileStream out = { { &file_vmt }, NULL, 0 };
  guint64 ticks, switches = 0, t0;
  guint32 rng = 1;
  double carry = 0;
  int status;
  static const uint8_t stop = THREADS_RECORD_STOP_BYTE, keepalive = 0x16;

  if (argc == 3 && strcmp (argv[1], "--open") == 0)
    return reopen (argv[2]);
  if (argc == 3 && strcmp (argv[1], "--phases") == 0)
    return reopen_phases (argv[2]);
  if (argc > 2 && strcmp (argv[1], "--keep") == 0)
    {
      path = g_strdup (argv[2]);
      keep = TRUE;
      argc -= 2;
      argv += 2;
    }
  else
    path = g_build_filename (g_get_tmp_dir (), "tks-bench-record-hour.txt", NULL);
  minutes = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 60;
  per_s = argc > 2 ? (guint) atoi (argv[2]) : 3500;
  ticks = (guint64) (minutes * 60 * 1000);
  if (minutes <= 0 || per_s == 0)
    {
      fprintf (stderr, "usage: %s [--keep FILE] [MINUTES [SWITCHES]] | --open FILE | "
               "--phases FILE\n", argv[0]);
      return 2;
    }
  out.file = fopen (path, "wb");
  if (out.file == NULL)
    return 1;
  ch_host_reset ();
  tuResetState ();
  ch_host_time = 1;
  for (int i = 0; i < N_THREADS; i++)
    ch_host_thread_init (&threads[i], names[i], (tprio_t) (100 + 3 * i), CH_FLAG_MODE_STATIC);
  ch_host_switch (&threads[0]);
  fputs ("threads_record\r\n", out.file);
  tuRecordBegin (&out.base, 0);

  t0 = now_ns ();
  for (guint64 tick = 2; tick < ticks; tick++)
    {
      guint n;

      carry += per_s / 1000.0;
      n = (guint) carry;
      carry -= n;
      ch_host_time = (systime_t) tick;
      /* The tick wakes a few threads, which run and go back to idle. */
      for (guint k = 0; k < n; k++)
        {
          guint next;

          rng = rng * 1103515245u + 12345u;
          next = k + 1 == n ? 1 : 2 + (rng >> 16) % (N_THREADS - 2);
          if (&threads[next] == ch_host_current ())   /* never to itself: an exit record */
            next = next + 1 < N_THREADS ? next + 1 : 2;
          ch_host_switch (&threads[next]);
          switches++;
        }
      if (tick % 10 == 0)
        tuRecordPoll (&out.base, &keepalive, tick % 1000 == 0);
    }
  tuRecordPoll (&out.base, &stop, 1);
  fputs ("ch> ", out.file);
  fclose (out.file);
  printf ("Recorded %.0f min of a board at %u switches/s: %" G_GUINT64_FORMAT " switches, %"
          G_GUINT64_FORMAT " bytes (%.2f bytes/switch) in %.1f s\n", minutes, per_s, switches,
          out.bytes, (double) out.bytes / MAX (switches, 1), (now_ns () - t0) / 1e9);

  status = reopen (path);
  if (!keep)
    g_unlink (path);
  return status;
}
