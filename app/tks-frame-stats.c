/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The viewer's frame times, for benchmarks: with TICKSCOPE_FRAME_STATS=FILE in the
 * environment, each frame of the window's frame clock is timed from its "before-paint" phase
 * to the end of its "after-paint" phase (updates, layout, the widgets' snapshots and GSK's
 * rendering of them), and every ten seconds a line is appended to FILE:
 *
 *   frames: 12.0 s 14 frames, median 1.92 ms, 90th 3.10 ms, worst 4.42 ms (layout 1.20, paint 3.01), 1 preempted, 0 over 5 ms, 48 page faults
 *
 * (on one line): the worst frame's time split between its update and layout phases and its
 * paint phase (a frame without a layout phase counts whole as paint), how many of the frames
 * lost the processor to another thread or process at least once, how many took more than 5 ms
 * (the tail a slow frame comes from), and the main thread's minor page faults in the frames
 * (each costs it a few µs: a frame that touches fresh memory, e.g. a new paint buffer from the
 * system, is slower for it). A frame slower than 8 ms gets a line of its own at once, with
 * what the main thread did meanwhile, to tell work from waiting:
 *
 *   slow frame: 1950.3 s 17.54 ms (layout 0.29, paint 17.25); main thread 16.80 ms on a
 *   processor, 0.41 ms waiting for one, 2 waits, 1 preemption, 310 page faults; from
 *   5402.118003 s to 5402.135543 s of the monotonic clock
 *
 * (on one line: its time on a processor and its time ready to run but waiting for one, both
 * from the scheduler's own count in nanoseconds (/proc/self/task/TID/schedstat); the times it
 * blocked, e.g. on the X server, the times the system took the processor from it, and its
 * minor page faults, in the frame; and when it began and ended on CLOCK_MONOTONIC, e.g. to
 * find its samples in a profile recorded with `perf record -k CLOCK_MONOTONIC`).
 *
 * Without the variable nothing is connected and nothing costs. */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tks-frame-stats.h"
#include "tks-timeline-view.h"

#define PERIOD_US (10 * G_USEC_PER_SEC)
#define SLOW_US   (8 * 1000)
#define LONG_US   (5 * 1000)

#ifdef RUSAGE_THREAD
#define TKS_RUSAGE_WHO RUSAGE_THREAD
#else
#define TKS_RUSAGE_WHO RUSAGE_SELF
#endif

typedef struct
{
  FILE   *out;
  gint64  started;     /* the first frame */
  gint64  period_end;
  gint64  begin;       /* the frame under way's before-paint, or 0 */
  gint64  paint;       /* its paint phase's start: the end of its layout, or 0 */
  GArray *times;       /* the period's frame times, in µs (gint64) */
  gint64  worst;       /* the period's worst frame, whole and its paint phase */
  gint64  worst_paint;
  guint   preempted;   /* the period's frames that lost the processor */
  guint   long_frames; /* the period's frames over LONG_US */
  glong   faults;      /* the period's minor page faults in frames */
  struct rusage usage; /* the main thread's, at the frame's start */
  /* TICKSCOPE_BENCH_VIEW: the steps still to take, the one under way, and each frame's time
   * (µs) and page faults since the first step */
  GtkWidget *window;
  gint64  last_frame;    /* the end of the last frame */
  guint   bench_steps;
  guint   bench_step;
  guint   bench_id;
  GArray *bench_times;
  GArray *bench_faults;
  GArray *bench_on_cpu;  /* each frame's time on a processor (µs), when the system tells it */
  GString *bench_line;
  int     schedstat;   /* the main thread's schedstat, -1: not readable */
  gint64  run_ns;      /* from it at the frame's start: time on a processor, */
  gint64  wait_ns;     /* and time waiting for one */
} FrameStats;

/* The main thread's time on a processor and time waiting for one, in ns, from the scheduler
 * (both -1 without /proc or the scheduler's statistics). */
static void
read_schedstat (FrameStats *s,
                gint64     *run_ns,
                gint64     *wait_ns)
{
  char buf[96];
  ssize_t n = s->schedstat >= 0 ? pread (s->schedstat, buf, sizeof buf - 1, 0) : -1;
  long long run, wait;

  *run_ns = *wait_ns = -1;
  if (n <= 0)
    return;
  buf[n] = '\0';
  if (sscanf (buf, "%lld %lld", &run, &wait) == 2)
    {
      *run_ns = run;
      *wait_ns = wait;
    }
}

static void
frame_stats_free (gpointer data)
{
  FrameStats *s = data;

  fclose (s->out);
  g_clear_handle_id (&s->bench_id, g_source_remove);
  g_array_unref (s->bench_times);
  g_array_unref (s->bench_faults);
  g_array_unref (s->bench_on_cpu);
  if (s->bench_line != NULL)
    g_string_free (s->bench_line, TRUE);
  if (s->schedstat >= 0)
    close (s->schedstat);
  g_array_unref (s->times);
  g_free (s);
}

static int
compare_times (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
report (FrameStats *s,
        gint64      now)
{
  gint64 *t = (gint64 *) (gpointer) s->times->data;
  guint n = s->times->len;

  if (n == 0)
    return;
  g_array_sort (s->times, compare_times);
  fprintf (s->out, "frames: %.1f s %u frames, median %.2f ms, 90th %.2f ms, worst %.2f ms "
           "(layout %.2f, paint %.2f), %u preempted, %u over 5 ms, %ld page faults\n",
           (now - s->started) / 1e6, n, t[n / 2] / 1e3, t[n * 9 / 10] / 1e3, t[n - 1] / 1e3,
           (s->worst - s->worst_paint) / 1e3, s->worst_paint / 1e3, s->preempted,
           s->long_frames, s->faults);
  fflush (s->out);
  g_array_set_size (s->times, 0);
  s->worst = 0;
  s->preempted = 0;
  s->long_frames = 0;
  s->faults = 0;
}

static void
before_paint_cb (GdkFrameClock *clock,
                 FrameStats    *s)
{
  s->begin = g_get_monotonic_time ();
  s->paint = 0;
  getrusage (TKS_RUSAGE_WHO, &s->usage);
  read_schedstat (s, &s->run_ns, &s->wait_ns);
  if (s->started == 0)
    {
      s->started = s->begin;
      s->period_end = s->begin + PERIOD_US;
    }
}

static void
layout_done_cb (GdkFrameClock *clock,
                FrameStats    *s)
{
  s->paint = g_get_monotonic_time ();
}

static gint64
cpu_us (const struct rusage *u)
{
  return (gint64) (u->ru_utime.tv_sec + u->ru_stime.tv_sec) * G_USEC_PER_SEC +
         u->ru_utime.tv_usec + u->ru_stime.tv_usec;
}

/* A frame slower than SLOW_US, of @took µs ending at @now, the main thread's usage @u then:
 * its line */
static void
report_slow (FrameStats          *s,
             gint64               now,
             gint64               took,
             const struct rusage *u)
{
  gint64 paint = s->paint >= s->begin ? now - s->paint : took;
  gint64 run_ns, wait_ns;
  g_autofree char *on = NULL;

  read_schedstat (s, &run_ns, &wait_ns);
  if (run_ns >= 0 && s->run_ns >= 0)
    on = g_strdup_printf ("%.2f ms on a processor, %.2f ms waiting for one",
                          (run_ns - s->run_ns) / 1e6, (wait_ns - s->wait_ns) / 1e6);
  else
    /* without the scheduler's count: user and system time, which Linux splits by the ticks
     * it sampled (a frame's difference may be a few ms off) */
    on = g_strdup_printf ("%.2f ms on a processor", (cpu_us (u) - cpu_us (&s->usage)) / 1e3);
  fprintf (s->out, "slow frame: %.1f s %.2f ms (layout %.2f, paint %.2f); main thread %s, "
           "%ld waits, %ld preemptions, %ld page faults; from %.6f s to %.6f s of the monotonic "
           "clock\n",
           (now - s->started) / 1e6, took / 1e3, (took - paint) / 1e3, paint / 1e3, on,
           u->ru_nvcsw - s->usage.ru_nvcsw, u->ru_nivcsw - s->usage.ru_nivcsw,
           u->ru_minflt - s->usage.ru_minflt, s->begin / 1e6, now / 1e6);
  fflush (s->out);
}

static void
after_paint_cb (GdkFrameClock *clock,
                FrameStats    *s)
{
  gint64 now = g_get_monotonic_time ();
  struct rusage u;
  gint64 took;

  if (s->begin == 0)
    return;
  took = now - s->begin;
  getrusage (TKS_RUSAGE_WHO, &u);
  s->preempted += u.ru_nivcsw != s->usage.ru_nivcsw;
  s->long_frames += took > LONG_US;
  s->faults += u.ru_minflt - s->usage.ru_minflt;
  if (took > SLOW_US)
    report_slow (s, now, took, &u);
  if (took > s->worst)
    {
      s->worst = took;
      s->worst_paint = s->paint >= s->begin ? now - s->paint : took;
    }
  s->begin = 0;
  s->last_frame = now;
  g_array_append_val (s->times, took);
  if (s->bench_line != NULL)
    {
      glong faults = u.ru_minflt - s->usage.ru_minflt;
      gint64 run_ns, wait_ns;

      read_schedstat (s, &run_ns, &wait_ns);
      g_array_append_val (s->bench_times, took);
      g_array_append_val (s->bench_faults, faults);
      if (run_ns >= 0 && s->run_ns >= 0)
        {
          gint64 on = (run_ns - s->run_ns) / 1000;

          g_array_append_val (s->bench_on_cpu, on);
          g_string_append_printf (s->bench_line, " %.2f (%.2f)", took / 1e3, on / 1e3);
        }
      else
        g_string_append_printf (s->bench_line, " %.2f", took / 1e3);
    }
  if (now >= s->period_end)
    {
      report (s, now);
      s->period_end = now + PERIOD_US;
    }
}

/* TICKSCOPE_BENCH_VIEW=N: once the window has shown a capture for two seconds, N steps of
 * zoom, pan and fit a third of a second apart, as a user takes them (the window's actions,
 * the viewport's pan); each frame's time is printed after its step's name, and at the end
 * how many frames took more than 8 ms, and the window closes. */
static const char * const bench_step_names[] = {
  "zoom-in", "zoom-in", "pan-right", "zoom-in", "pan-left", "zoom-out", "pan-right",
  "zoom-fit", "zoom-in", "pan-right", "zoom-in", "zoom-fit",
};

static TksTimelineView *
find_timeline (GtkWidget *widget)
{
  if (TKS_IS_TIMELINE_VIEW (widget))
    return TKS_TIMELINE_VIEW (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      TksTimelineView *view = find_timeline (c);

      if (view != NULL)
        return view;
    }
  return NULL;
}

static void
bench_print_step (FrameStats *s)
{
  if (s->bench_line != NULL && s->bench_step > 0)
    g_print ("bench: step %2u %-9s frames, wall (main thread on a processor), goal <= 8 ms:%s ms\n",
             s->bench_step,
             bench_step_names[(s->bench_step - 1) % G_N_ELEMENTS (bench_step_names)],
             s->bench_line->str);
}

static void
bench_finish (FrameStats *s)
{
  gint64 *t = (gint64 *) (gpointer) s->bench_times->data;
  guint n = s->bench_times->len, over = 0;
  glong faults = 0;

  glong worst_faults = 0;
  guint faulting = 0;

  for (guint i = 0; i < n; i++)
    {
      glong f = g_array_index (s->bench_faults, glong, i);

      over += t[i] > SLOW_US;
      faults += f;
      faulting += f >= 100;
      worst_faults = MAX (worst_faults, f);
    }
  g_array_sort (s->bench_times, compare_times);
  if (n > 0)
    {
      g_print ("bench: %u steps, %u frames, wall time: median %.2f ms, worst %.2f ms, %u over 8 ms "
               "(goal: 0; a shared machine's waits for a processor included)\n",
               s->bench_step, n, t[n / 2] / 1e3, t[n - 1] / 1e3, over);
      g_print ("bench: page faults of the main thread: %.1f a frame, worst %ld, %u frames with "
               "100 or more (goal: 0)\n", (double) faults / n, worst_faults, faulting);
    }
  else
    g_print ("bench: no frame\n");
  n = s->bench_on_cpu->len;
  t = (gint64 *) (gpointer) s->bench_on_cpu->data;
  over = 0;
  for (guint i = 0; i < n; i++)
    over += t[i] > SLOW_US;
  g_array_sort (s->bench_on_cpu, compare_times);
  if (n > 0)
    g_print ("bench: the main thread on a processor in them: median %.2f ms, worst %.2f ms, "
             "%u over 8 ms (goal: 0; a shared machine's waits for a processor left out)\n",
             t[n / 2] / 1e3, t[n - 1] / 1e3, over);
}

static gboolean
bench_step_cb (gpointer data)
{
  FrameStats *s = data;
  TksTimelineView *view = find_timeline (s->window);
  TksViewport *viewport;
  const char *name;

  if (view == NULL || tks_timeline_view_get_capture (view) == NULL)
    return G_SOURCE_CONTINUE;
  if (s->bench_line == NULL)
    {
      /* the capture shown, its coverage summaries and the images they give drawn: no frame
       * for half a second, then the steps from the next tick */
      if (s->last_frame == 0 || g_get_monotonic_time () - s->last_frame < G_USEC_PER_SEC / 2)
        return G_SOURCE_CONTINUE;
      s->bench_line = g_string_new (NULL);
      return G_SOURCE_CONTINUE;
    }
  bench_print_step (s);
  g_string_truncate (s->bench_line, 0);
  if (s->bench_step == s->bench_steps)
    {
      bench_finish (s);
      s->bench_id = 0;
      gtk_window_destroy (GTK_WINDOW (s->window));
      return G_SOURCE_REMOVE;
    }
  name = bench_step_names[s->bench_step++ % G_N_ELEMENTS (bench_step_names)];
  viewport = tks_timeline_view_get_viewport (view);
  if (g_str_equal (name, "pan-right"))
    tks_viewport_pan (viewport, 0.25);
  else if (g_str_equal (name, "pan-left"))
    tks_viewport_pan (viewport, -0.25);
  else
    {
      g_autofree char *action = g_strconcat ("win.", name, NULL);

      gtk_widget_activate_action (s->window, action, NULL);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
bench_start_cb (gpointer data)
{
  FrameStats *s = data;

  s->bench_id = g_timeout_add (333, bench_step_cb, s);
  return G_SOURCE_REMOVE;
}

static void
realize_cb (GtkWidget *widget,
            FrameStats *s)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);

  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), s);
  /* after the window's layout, which GTK connected when the window was realized: the paint
   * phase (snapshots and their rendering) starts next */
  g_signal_connect (clock, "layout", G_CALLBACK (layout_done_cb), s);
  /* after the window's own after-paint work */
  g_signal_connect_after (clock, "after-paint", G_CALLBACK (after_paint_cb), s);
}

/* Times @widget's frames when TICKSCOPE_FRAME_STATS names a file (see above). */
void
tks_frame_stats_attach_from_env (GtkWidget *widget)
{
  const char *path = g_getenv ("TICKSCOPE_FRAME_STATS");
  g_autofree char *schedstat = NULL;
  FrameStats *s;
  FILE *out;

  if (path == NULL || *path == '\0')
    return;
  out = fopen (path, "a");
  if (out == NULL)
    {
      g_warning ("TICKSCOPE_FRAME_STATS: cannot write %s", path);
      return;
    }
  s = g_new0 (FrameStats, 1);
  s->out = out;
  /* the main thread's (this one's) */
  schedstat = g_strdup_printf ("/proc/self/task/%d/schedstat", (int) gettid ());
  s->schedstat = open (schedstat, O_RDONLY | O_CLOEXEC);
  s->times = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->bench_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->bench_faults = g_array_new (FALSE, FALSE, sizeof (glong));
  s->bench_on_cpu = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->window = widget;
  if (g_getenv ("TICKSCOPE_BENCH_VIEW") != NULL && GTK_IS_WINDOW (widget))
    {
      s->bench_steps = MAX (1, (guint) g_ascii_strtoull (g_getenv ("TICKSCOPE_BENCH_VIEW"), NULL, 10));
      /* two seconds for the start, the capture's first image and its summaries */
      s->bench_id = g_timeout_add_seconds (2, bench_start_cb, s);
    }
  g_object_set_data_full (G_OBJECT (widget), "tks-frame-stats", s, frame_stats_free);
  g_signal_connect (widget, "realize", G_CALLBACK (realize_cb), s);
}
