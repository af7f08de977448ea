/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <time.h>

#include <glib.h>

/* A monotonic clock in nanoseconds, for the benchmarks' timings. */
static inline guint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * G_GUINT64_CONSTANT (1000000000) + (guint64) ts.tv_nsec;
}

/* For g_array_sort() of doubles, smallest first. */
static inline int
bench_compare_double (gconstpointer a,
                      gconstpointer b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return da < db ? -1 : da > db;
}
