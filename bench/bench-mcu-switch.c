/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Cost of the board library's context-switch hook on the host: N threads, a fixed random
 * sequence of switches, the hook called as the kernel calls it. Prints nanoseconds per switch;
 * bench/mcu-cost.sh runs it under callgrind for instructions per switch. Built twice: as
 * bench-mcu-switch (switches only) and as bench-mcu-events (every event option: the switch
 * carries the cycle counter; mode "irq" runs an interrupt handler instead of each switch).
 *
 *   bench-mcu-switch [THREADS] [SWITCHES] [logged|mixed|unlogged|frozen|irq]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "ch.h"
#include "threads_utilities.h"

#define MAX_THREADS 63

static thread_t threads[MAX_THREADS];
static guint16 sequence[1 << 16];

/* An interrupt handler as a board writes it. */
G_GNUC_NO_INLINE static void
Bench_IRQHandler (void)
{
  CH_IRQ_PROLOGUE ();
  CH_IRQ_EPILOGUE ();
}

G_GNUC_NO_INLINE static void
run_handlers (guint n)
{
  for (guint i = 0; i < n; i++)
    {
      ch_host_time = i / 8;
      ch_host_counter = i * 1000U;
      Bench_IRQHandler ();
    }
}

/* Kept out of line so that the hook's own cost is what callgrind counts. */
G_GNUC_NO_INLINE static void
run_switches (guint n_switches)
{
  guint cur = 0;

  for (guint i = 0; i < n_switches; i++)
    {
      guint next = sequence[i & (G_N_ELEMENTS (sequence) - 1)];

      ch_host_time = i / 8;   /* 8 switches per tick */
      ch_host_counter = i * 1000U;
      tuContextSwitchHook (&threads[next], &threads[cur]);
      cur = next;
    }
}

/* @n threads created after the others and exiting at once, each with its name in a buffer
 * (heap: its name is copied at exit; static: its pointer is kept). */
static void
run_exits (guint n_threads, guint n, tmode_t mode)
{
  static thread_t spawned;
  char name[16] = "worker_12";

  for (guint i = 0; i < n; i++)
    {
      ch_host_time = i;
      ch_host_thread_init (&spawned, name, 64, mode);
      tuContextSwitchHook (&spawned, &threads[0]);
      ch_host_thread_exit (&spawned);
      tuContextSwitchHook (&threads[i % n_threads], &spawned);
    }
}

int
main (int argc, char *argv[])
{
  guint n_threads = argc > 1 ? (guint) atoi (argv[1]) : 16;
  guint n_switches = argc > 2 ? (guint) atoi (argv[2]) : 1000000;
  const char *mode = argc > 3 ? argv[3] : "logged";
  guint32 rng = 12345;
  gint64 t0, t1;
  guint cur = 0;

  if (n_threads < 2 || n_threads > MAX_THREADS - 2 || n_switches == 0)
    {
      fprintf (stderr, "usage: %s [THREADS 2..61] [SWITCHES] "
               "[logged|mixed|unlogged|frozen|irq|exit-static|exit-heap]\n",
               argv[0]);
      return 2;
    }

  ch_host_reset ();
  tuResetState ();
  for (guint i = 0; i < n_threads; i++)
    {
      gboolean logged = strcmp (mode, "unlogged") != 0 && (strcmp (mode, "mixed") != 0 || i % 2 == 0);

      if (logged)
        tuLogNextCreatedThreads ();
      else
        tuDontLogNextCreatedThreads ();
      ch_host_thread_init (&threads[i], "t", 64, CH_FLAG_MODE_STATIC);
    }
  for (guint i = 0; i < G_N_ELEMENTS (sequence); i++)
    {
      guint next;

      do
        {
          rng ^= rng << 13;
          rng ^= rng >> 17;
          rng ^= rng << 5;
          next = rng % n_threads;
        }
      while (next == cur);
      sequence[i] = (guint16) next;
      cur = next;
    }
  if (strcmp (mode, "frozen") == 0)
    {
      tuSetTrigger ("bench");
      run_switches (THREADS_TIMESTAMPS_LOG_SIZE);
    }

  t0 = g_get_monotonic_time ();
  if (strcmp (mode, "irq") == 0)
    run_handlers (n_switches);
  else if (g_str_has_prefix (mode, "exit-"))
    run_exits (n_threads, n_switches,
               strcmp (mode, "exit-heap") == 0 ? CH_FLAG_MODE_HEAP : CH_FLAG_MODE_STATIC);
  else
    run_switches (n_switches);
  t1 = g_get_monotonic_time ();

  printf ("threads %u, mode %s: %u %s, %.2f ns each\n", n_threads, mode, n_switches,
          strcmp (mode, "irq") == 0 ? "handlers" : "switches",
          (double) (t1 - t0) * 1000.0 / n_switches);
  return 0;
}
