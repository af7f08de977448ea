/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Times as the program writes them: one home for every tooltip, panel, list and export. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "tks-time-format.h"

char *
tks_time_format_us (double us)
{
  double a = fabs (us);

  if (a < 1000.0)
    return g_strdup_printf (_("%.1f µs"), us);
  if (a < 1e6)
    return g_strdup_printf (_("%.3f ms"), us / 1e3);
  return g_strdup_printf (_("%.6f s"), us / 1e6);
}

int
tks_time_tick_decimals (double resolution)
{
  int d;

  if (!(resolution > 0) || resolution >= 1 || !isfinite (resolution))
    return 0;
  d = (int) ceil (-log10 (resolution) - 1e-9);
  return CLAMP (d, 0, 6);
}

/* @ticks at the data's precision, "-0" written "0". */
static char *
tick_number (double ticks,
             int    decimals)
{
  double shown = round (ticks * pow (10, decimals)) / pow (10, decimals);

  return g_strdup_printf ("%.*f", decimals, shown == 0 ? 0.0 : shown);
}

char *
tks_time_format_position (double t)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char *end;

  g_ascii_formatd (buf, sizeof buf, "%.6f", t);
  end = buf + strlen (buf);
  while (end > buf && end[-1] == '0')
    *--end = '\0';
  if (end > buf && end[-1] == '.')
    *--end = '\0';
  if (strcmp (buf, "-0") == 0)
    return g_strdup ("0");
  return g_strdup (buf);
}

char *
tks_time_format_ticks (double ticks)
{
  g_autofree char *number = tks_time_format_position (ticks);

  /* Translators: a number of board ticks; %s: the number, as "7904" or "17.34" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s tick", "%s ticks",
                                       g_str_equal (number, "1") || g_str_equal (number, "-1")
                                       ? 1 : 2), number);
}

char *
tks_time_format_span (double ticks,
                      double tick_hz)
{
  g_autofree char *count = tks_time_format_ticks (ticks);
  g_autofree char *time = NULL;

  if (!(tick_hz > 0) || !isfinite (tick_hz))
    return g_steal_pointer (&count);
  time = tks_time_format_us (ticks * 1e6 / tick_hz);
  /* Translators: a length of time, then its ticks: "2.000 ms (2 ticks)" */
  return g_strdup_printf (_("%s (%s)"), time, count);
}

char *
tks_time_format_at (double t,
                    double origin,
                    double tick_hz,
                    double resolution)
{
  g_autofree char *tick = tick_number (t, tks_time_tick_decimals (resolution));
  g_autofree char *time = NULL;

  if (!(tick_hz > 0) || !isfinite (tick_hz))
    /* Translators: a point in time as the board's tick; %s: the tick's number */
    return g_strdup_printf (_("tick %s"), tick);
  time = tks_time_format_us ((t - origin) * 1e6 / tick_hz);
  /* Translators: a point in time from the ruler's 0, then the board's tick: "-1.250 ms (tick
   * 7904)" */
  return g_strdup_printf (_("%s (tick %s)"), time, tick);
}
