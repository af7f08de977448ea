/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-capture: how fast and how small is loading and rebuilding a big capture?
 *
 * Writes synthetic capture files (the original viewer's .txt format) of 3k, 30k, 300k and
 * 1M records — 10 permanent threads and 2 dynamic ones that keep exiting and being created
 * again, several switches per tick, a 20-bit tick wrap — then loads each one in a fresh child
 * process with tks_capture_new_from_file() and reports the time it took and the memory it
 * needed (the child's peak resident set growth, per record), next to what `wc -w` needs to
 * split the same file into words.
 *
 * Usage: bench-capture [--sizes N,N,...] [--repeat R] [--keep DIR] [--seed S]
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bench-common.h"
#include "tks-capture.h"
#include "tks-export.h"
#include "tks-stats.h"

#define TICK_WRAP       (1u << 20)
#define FIRST_TICK      1048000u /* wraps to 0 within the first thousand ticks */
#define MAX_EXITS       60       /* the board remembers at most 64 exited threads */
#define N_DYNAMIC       2

typedef struct
{
  const char *name;
  int         prio;
} PermanentThread;

static const PermanentThread permanent[] = {
  { "main", 128 }, { "idle", 1 }, { "console", 129 }, { "control", 133 },
  { "sensor", 148 }, { "filter", 138 }, { "logger", 118 }, { "blinker", 108 },
  { "housekeep", 12 }, { "spawner", 130 },
};

static const int dynamic_prios[] = { 123, 129, 143 };

typedef struct
{
  char name[32];
  int  prio;
  gboolean dynamic;
} LiveThread;

typedef struct
{
  int number;
  int prio;
} DeletedThread;

/* The position (1-based number) of a thread in the live list. */
static int
live_number (GArray     *live,
             LiveThread *thread)
{
  return (int) (thread - &g_array_index (live, LiveThread, 0)) + 1;
}

static void
emit (GString *records,
      int      from,
      int      to,
      guint32  tick)
{
  g_string_append_printf (records, "From %2d to %2d at %7u\n", from, to, tick % TICK_WRAP);
}

/* Writes a capture file of exactly @n_records records to @path. */
static gboolean
generate_capture (const char  *path,
                  guint        n_records,
                  guint32      seed,
                  GError     **error)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GArray) live = g_array_new (FALSE, TRUE, sizeof (LiveThread));
  g_autoptr(GArray) deleted = g_array_new (FALSE, TRUE, sizeof (DeletedThread));
  g_autoptr(GString) records = g_string_sized_new ((gsize) n_records * 26 + 64);
  g_autoptr(GString) file = NULL;
  guint n_exits = MIN (MAX_EXITS, n_records / 200);
  guint exit_every = n_exits > 0 ? n_records / (n_exits + 1) : G_MAXUINT;
  guint next_exit = exit_every;
  guint dynamic_serial = 0;
  guint32 tick = FIRST_TICK;
  guint left_in_tick;
  guint written = 0;
  int current = 1; /* live number of the running thread */

  for (guint i = 0; i < G_N_ELEMENTS (permanent); i++)
    {
      LiveThread t = { { 0 }, permanent[i].prio, FALSE };

      g_strlcpy (t.name, permanent[i].name, sizeof t.name);
      g_array_append_val (live, t);
    }
  for (guint i = 0; i < N_DYNAMIC; i++)
    {
      LiveThread t = { { 0 }, dynamic_prios[dynamic_serial % G_N_ELEMENTS (dynamic_prios)], TRUE };

      g_snprintf (t.name, sizeof t.name, "job_%u", dynamic_serial++);
      g_array_append_val (live, t);
    }

  left_in_tick = (guint) g_rand_int_range (rand, 1, 7);

  while (written < n_records)
    {
      if (left_in_tick == 0)
        {
          tick += (guint32) g_rand_int_range (rand, 1, 3);
          left_in_tick = (guint) g_rand_int_range (rand, 1, 7); /* 1..6 switches per tick */
        }

      if (written >= next_exit && n_records - written >= 3)
        {
          /* The oldest dynamic thread runs and exits; the next record has out-thread 0; a
           * new dynamic thread is created (appended to the live list). */
          LiveThread *victim = NULL;
          LiveThread t = { { 0 }, 0, TRUE };
          DeletedThread d;
          int number;
          int next;

          for (guint i = 0; i < live->len; i++)
            if (g_array_index (live, LiveThread, i).dynamic)
              {
                victim = &g_array_index (live, LiveThread, i);
                break;
              }
          g_assert (victim != NULL);
          number = live_number (live, victim);

          if (current != number)
            {
              emit (records, current, number, tick);
              written++;
            }
          emit (records, number, number, tick);
          written++;

          d.number = number;
          d.prio = victim->prio;
          g_array_append_val (deleted, d);
          g_array_remove_index (live, (guint) number - 1);

          next = g_rand_int_range (rand, 1, (gint32) live->len + 1);
          emit (records, 0, next, tick);
          written++;
          current = next;

          t.prio = dynamic_prios[dynamic_serial % G_N_ELEMENTS (dynamic_prios)];
          g_snprintf (t.name, sizeof t.name, "job_%u", dynamic_serial++);
          g_array_append_val (live, t);

          next_exit += exit_every;
          left_in_tick = left_in_tick > 3 ? left_in_tick - 3 : 0;
          continue;
        }
      else
        {
          int next = g_rand_int_range (rand, 1, (gint32) live->len);

          if (next >= current)
            next++;
          emit (records, current, next, tick);
          written++;
          current = next;
          left_in_tick--;
        }
    }

  file = g_string_sized_new (records->len + 4096);
  g_string_append (file, "Saved position\n");
  g_string_append_printf (file, "%u.0\n%u.0\n0.0\n1.0\n", FIRST_TICK, tick + 1);
  g_string_append (file, "threads_list\n");
  for (guint i = 0; i < live->len; i++)
    {
      const LiveThread *t = &g_array_index (live, LiveThread, i);

      g_string_append_printf (file, "Thread number %2u : Prio = %3d, Log = Yes, Name = %s\n",
                              i + 1, t->prio, t->name);
    }
  g_string_append (file, "Deleted threads: \n");
  for (guint i = 0; i < deleted->len; i++)
    {
      const DeletedThread *d = &g_array_index (deleted, DeletedThread, i);

      g_string_append_printf (file,
                              "Thread number %2d : Prio = %3d, Log = Yes, Name = Exited dynamic thread\n",
                              d->number, d->prio);
    }
  g_string_append (file, "ch> \nthreads_timestamps\n");
  g_string_append_len (file, records->str, records->len);
  g_string_append (file, "ch> \n");

  return g_file_set_contents (path, file->str, file->len, error);
}

static long
current_rss_kb (void)
{
  g_autofree char *contents = NULL;
  long size = 0;
  long resident = 0;

  if (!g_file_get_contents ("/proc/self/statm", &contents, NULL, NULL) ||
      sscanf (contents, "%ld %ld", &size, &resident) != 2)
    return -1;

  return resident * (sysconf (_SC_PAGESIZE) / 1024);
}

/* Child: load one file, print "ns maxrss_before_kb maxrss_after_kb rss_before_kb
 * rss_after_kb records warnings". */
static int
run_child (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  struct rusage before;
  struct rusage after;
  long rss_before;
  long rss_after;
  guint64 t0;
  guint64 t1;
  guint n_warnings = 0;

  /* Warm up what the first load would otherwise pay for (type registration, locale). */
  g_type_ensure (TKS_TYPE_CAPTURE);

  rss_before = current_rss_kb ();
  getrusage (RUSAGE_SELF, &before);

  t0 = now_ns ();
  capture = tks_capture_new_from_file (path, &error);
  t1 = now_ns ();

  getrusage (RUSAGE_SELF, &after);
  rss_after = current_rss_kb ();

  if (capture == NULL)
    {
      fprintf (stderr, "bench-capture: %s: %s\n", path, error->message);
      return 1;
    }

  tks_capture_get_warnings (capture, &n_warnings);

  printf ("%" G_GUINT64_FORMAT " %ld %ld %ld %ld %u %u",
          t1 - t0, before.ru_maxrss, after.ru_maxrss, rss_before, rss_after,
          tks_capture_get_n_records (capture), n_warnings);

  /* After the measures above: statistics of the whole capture and of a 1 % range in the
   * middle, then each export into memory. */
  {
    double start = tks_capture_get_start (capture);
    double end = tks_capture_get_end (capture);
    double mid = (start + end) / 2;
    g_autoptr(GArray) all = NULL;
    g_autoptr(GArray) range = NULL;

    t0 = now_ns ();
    all = tks_stats_compute (capture, NAN, NAN, NULL, NULL);
    t1 = now_ns ();
    printf (" %" G_GUINT64_FORMAT, t1 - t0);

    t0 = now_ns ();
    range = tks_stats_compute (capture, mid, mid + (end - start) / 100, NULL, NULL);
    t1 = now_ns ();
    printf (" %" G_GUINT64_FORMAT, t1 - t0);

    for (TksExportFormat f = TKS_EXPORT_PERFETTO; f <= TKS_EXPORT_FTRACE; f++)
      {
        g_autoptr(GString) out = g_string_new (NULL);

        t0 = now_ns ();
        tks_export_write (capture, f, 0, out, NULL);
        t1 = now_ns ();
        printf (" %" G_GUINT64_FORMAT " %" G_GSIZE_FORMAT, t1 - t0, out->len);
      }
  }

  printf ("\n");
  return 0;
}

typedef struct
{
  guint64 ns;
  long    peak_kb;     /* growth of the peak resident set during the load */
  long    retained_kb; /* growth of the resident set once loaded */
  guint   records;
  guint   warnings;
  guint64 stats_ns;
  guint64 stats_range_ns;
  guint64 export_ns[3];
  gsize   export_bytes[3];
} ChildResult;

static gboolean
spawn_child (const char   *self,
             const char   *path,
             ChildResult  *result,
             GError      **error)
{
  const char *argv[] = { self, "--child", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  guint64 ns;
  long maxrss_before, maxrss_after, rss_before, rss_after;
  guint records, warnings;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                     &out, &err, &status, error))
    return FALSE;

  if (!g_spawn_check_wait_status (status, error))
    {
      g_prefix_error (error, "%s", err != NULL ? err : "");
      return FALSE;
    }

  if (sscanf (out, "%" G_GUINT64_FORMAT " %ld %ld %ld %ld %u %u"
              " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
              " %" G_GUINT64_FORMAT " %" G_GSIZE_FORMAT
              " %" G_GUINT64_FORMAT " %" G_GSIZE_FORMAT
              " %" G_GUINT64_FORMAT " %" G_GSIZE_FORMAT,
              &ns, &maxrss_before, &maxrss_after, &rss_before, &rss_after, &records, &warnings,
              &result->stats_ns, &result->stats_range_ns,
              &result->export_ns[0], &result->export_bytes[0],
              &result->export_ns[1], &result->export_bytes[1],
              &result->export_ns[2], &result->export_bytes[2]) != 15)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Unexpected child output: %s", out);
      return FALSE;
    }

  result->ns = ns;
  result->peak_kb = maxrss_after - maxrss_before;
  result->retained_kb = rss_after - rss_before;
  result->records = records;
  result->warnings = warnings;
  return TRUE;
}

/* Best time of `wc -w` on the file; with @c_locale, under LC_ALL=C (bytes, not characters). */
static guint64
time_wc (const char *path,
         guint       repeat,
         gboolean    c_locale)
{
  const char *argv[] = { "wc", "-w", path, NULL };
  g_auto(GStrv) envp = g_get_environ ();
  guint64 best = G_MAXUINT64;

  if (c_locale)
    envp = g_environ_setenv (envp, "LC_ALL", "C", TRUE);

  for (guint i = 0; i < repeat; i++)
    {
      g_autofree char *out = NULL;
      int status = 0;
      guint64 t0 = now_ns ();

      if (!g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                         NULL, NULL, &out, NULL, &status, NULL) ||
          !g_spawn_check_wait_status (status, NULL))
        return 0;

      best = MIN (best, now_ns () - t0);
    }

  return best;
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a;
  guint64 y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *sizes_arg = NULL;
  g_autofree char *keep = NULL;
  g_autofree char *self = NULL;
  g_autofree char *dir = NULL;
  g_auto(GStrv) sizes = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) analysis = NULL;
  int repeat = 5;
  int seed = 1;
  int status = 0;
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_arg, "Record counts to measure", "N,N,..." },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Loads per size (the best and the median are shown)", "R" },
    { "keep", 0, 0, G_OPTION_ARG_FILENAME, &keep, "Write the capture files into DIR and keep them", "DIR" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, "Random seed of the generator", "S" },
    { NULL }
  };

  if (argc == 3 && strcmp (argv[1], "--child") == 0)
    return run_child (argv[2]);

  context = g_option_context_new ("- load and rebuild time and memory of big captures");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-capture: %s\n", error->message);
      return 2;
    }
  repeat = CLAMP (repeat, 1, 100);

  self = g_file_read_link ("/proc/self/exe", NULL);
  if (self == NULL)
    self = g_strdup (argv[0]);

  if (keep != NULL)
    {
      dir = g_strdup (keep);
      g_mkdir_with_parents (dir, 0755);
    }
  else if ((dir = g_dir_make_tmp ("tickscope-bench-XXXXXX", &error)) == NULL)
    {
      fprintf (stderr, "bench-capture: %s\n", error->message);
      return 1;
    }

  analysis = g_string_new (NULL);
  sizes = g_strsplit (sizes_arg != NULL ? sizes_arg : "3000,30000,300000,1000000", ",", -1);

  printf ("Load + rebuild (tks_capture_new_from_file) in a fresh process, %d loads per size\n", repeat);
  printf ("%9s %9s %10s %10s %9s %10s %11s %10s %12s %8s\n",
          "records", "file MB", "best ms", "median ms", "peak MB", "peak B/rec",
          "kept B/rec", "wc -w ms", "C wc -w ms", "warnings");

  for (guint s = 0; sizes[s] != NULL; s++)
    {
      guint64 n = g_ascii_strtoull (sizes[s], NULL, 10);
      g_autofree char *name = g_strdup_printf ("bench-%" G_GUINT64_FORMAT ".txt", n);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree guint64 *times = NULL;
      ChildResult last = { 0 };
      GStatBuf st;
      guint64 wc_ns;
      guint64 wc_c_ns;

      if (n == 0 || n > 50000000)
        {
          fprintf (stderr, "bench-capture: bad size “%s”\n", sizes[s]);
          status = 2;
          continue;
        }

      if (!generate_capture (path, (guint) n, (guint32) seed, &error))
        {
          fprintf (stderr, "bench-capture: %s\n", error->message);
          return 1;
        }
      if (g_stat (path, &st) != 0)
        st.st_size = 0;

      times = g_new0 (guint64, repeat);
      for (int r = 0; r < repeat; r++)
        {
          if (!spawn_child (self, path, &last, &error))
            {
              fprintf (stderr, "bench-capture: %" G_GUINT64_FORMAT " records: %s\n",
                       n, error->message);
              g_clear_error (&error);
              status = 1;
              break;
            }
          times[r] = last.ns;
        }
      if (last.ns == 0)
        {
          if (keep == NULL)
            g_unlink (path);
          continue;
        }

      qsort (times, repeat, sizeof *times, compare_u64);
      wc_ns = time_wc (path, (guint) repeat, FALSE);
      wc_c_ns = time_wc (path, (guint) repeat, TRUE);

      printf ("%9" G_GUINT64_FORMAT " %9.1f %10.1f %10.1f %9.1f %10.1f %11.1f %10.1f %12.1f %8u\n",
              n, st.st_size / 1e6, times[0] / 1e6, times[repeat / 2] / 1e6,
              last.peak_kb / 1024.0, last.peak_kb * 1024.0 / n,
              last.retained_kb * 1024.0 / n, wc_ns / 1e6, wc_c_ns / 1e6, last.warnings);
      g_string_append_printf (analysis,
                              "%9" G_GUINT64_FORMAT " %9.1f %11.2f %9.1f %6.0f MB %8.1f %6.0f MB %9.1f %6.0f MB\n",
                              n, last.stats_ns / 1e6, last.stats_range_ns / 1e6,
                              last.export_ns[0] / 1e6, last.export_bytes[0] / 1e6,
                              last.export_ns[1] / 1e6, last.export_bytes[1] / 1e6,
                              last.export_ns[2] / 1e6, last.export_bytes[2] / 1e6);
      if (last.records != n)
        printf ("  (the capture holds %u records, %" G_GUINT64_FORMAT " were written)\n",
                last.records, n);
      fflush (stdout);

      if (keep == NULL)
        g_unlink (path);
    }

  printf ("\nStatistics and exports of the loaded capture (last load), into memory\n");
  printf ("%9s %9s %11s %19s %17s %19s\n",
          "records", "stats ms", "1% stats ms", "perfetto ms / size", "csv ms / size",
          "ftrace ms / size");
  fputs (analysis->str, stdout);
  printf ("\npeak: growth of the loading process's peak resident set; kept: resident growth once\n"
          "loaded; wc -w in the current locale (%s) and in the C locale.\n"
          "Goal: 1M records in <= 100 ms and <= 32 bytes per record.\n",
          g_getenv ("LC_ALL") != NULL ? g_getenv ("LC_ALL")
          : g_getenv ("LANG") != NULL ? g_getenv ("LANG") : "C");

  if (keep == NULL)
    g_rmdir (dir);

  return status;
}
