/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "tks-stats-row.h"

struct _TksStatsRow
{
  GObject         parent_instance;

  char           *name;
  int             priority;
  guint           lane;
  TksThreadStats  stats;
};

G_DEFINE_FINAL_TYPE (TksStatsRow, tks_stats_row, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_PRIORITY,
  PROP_LANE,
  PROP_ACTIVATIONS,
  PROP_RUN_TIME,
  PROP_SHARE,
  PROP_MIN_RUN,
  PROP_MAX_RUN,
  PROP_MEAN_RUN,
  PROP_LONGEST_WAIT,
  PROP_MARKS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static double
or_zero (double v)
{
  return isnan (v) ? 0.0 : v;
}

static void
tks_stats_row_finalize (GObject *object)
{
  TksStatsRow *self = TKS_STATS_ROW (object);

  g_free (self->name);
  G_OBJECT_CLASS (tks_stats_row_parent_class)->finalize (object);
}

static void
tks_stats_row_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TksStatsRow *self = TKS_STATS_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_PRIORITY:
      g_value_set_int (value, self->priority);
      break;

    case PROP_LANE:
      g_value_set_uint (value, self->lane);
      break;

    case PROP_ACTIVATIONS:
      g_value_set_uint (value, self->stats.activations);
      break;

    case PROP_RUN_TIME:
      g_value_set_double (value, or_zero (self->stats.run_time));
      break;

    case PROP_SHARE:
      g_value_set_double (value, or_zero (self->stats.share));
      break;

    case PROP_MIN_RUN:
      g_value_set_double (value, or_zero (self->stats.min_run));
      break;

    case PROP_MAX_RUN:
      g_value_set_double (value, or_zero (self->stats.max_run));
      break;

    case PROP_MEAN_RUN:
      g_value_set_double (value, or_zero (self->stats.mean_run));
      break;

    case PROP_LONGEST_WAIT:
      g_value_set_double (value, or_zero (self->stats.longest_wait));
      break;

    case PROP_MARKS:
      g_value_set_uint (value, self->stats.n_in_marks + self->stats.n_out_marks);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_stats_row_class_init (TksStatsRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = tks_stats_row_finalize;
  object_class->get_property = tks_stats_row_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_PRIORITY] = g_param_spec_int ("priority", NULL, NULL, G_MININT, G_MAXINT, 0, flags);
  properties[PROP_LANE] = g_param_spec_uint ("lane", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_ACTIVATIONS] = g_param_spec_uint ("activations", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_RUN_TIME] = g_param_spec_double ("run-time", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_SHARE] = g_param_spec_double ("share", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_MIN_RUN] = g_param_spec_double ("min-run", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_MAX_RUN] = g_param_spec_double ("max-run", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_MEAN_RUN] = g_param_spec_double ("mean-run", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_LONGEST_WAIT] = g_param_spec_double ("longest-wait", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  /* threads that are not logged: their IN and OUT marks */
  properties[PROP_MARKS] = g_param_spec_uint ("marks", NULL, NULL, 0, G_MAXUINT, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tks_stats_row_init (TksStatsRow *self)
{
}

TksStatsRow *
tks_stats_row_new (const TksThread      *thread,
                   guint                 lane,
                   const TksThreadStats *stats)
{
  TksStatsRow *self;

  g_return_val_if_fail (thread != NULL, NULL);
  g_return_val_if_fail (stats != NULL, NULL);

  self = g_object_new (TKS_TYPE_STATS_ROW, NULL);
  self->name = g_strdup (thread->name != NULL ? thread->name : "?");
  self->priority = thread->priority;
  self->lane = lane;
  self->stats = *stats;
  return self;
}

const char *
tks_stats_row_get_name (TksStatsRow *self)
{
  g_return_val_if_fail (TKS_IS_STATS_ROW (self), NULL);
  return self->name;
}

guint
tks_stats_row_get_lane (TksStatsRow *self)
{
  g_return_val_if_fail (TKS_IS_STATS_ROW (self), 0);
  return self->lane;
}

const TksThreadStats *
tks_stats_row_get_stats (TksStatsRow *self)
{
  g_return_val_if_fail (TKS_IS_STATS_ROW (self), NULL);
  return &self->stats;
}

/* ------------------------------------------------------------------------------------------ */

struct _TksStatsLine
{
  GObject  parent_instance;

  char    *name;
  double  *values;
  guint    n_values;
  guint   *histogram;
  guint    n_buckets;
  double   bucket;
  int      worst_kind;  /* TksWorstKind, -1: none */
  guint    worst_key;
};

G_DEFINE_FINAL_TYPE (TksStatsLine, tks_stats_line, G_TYPE_OBJECT)

static void
tks_stats_line_finalize (GObject *object)
{
  TksStatsLine *self = TKS_STATS_LINE (object);

  g_free (self->name);
  g_free (self->values);
  g_free (self->histogram);
  G_OBJECT_CLASS (tks_stats_line_parent_class)->finalize (object);
}

static void
tks_stats_line_class_init (TksStatsLineClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tks_stats_line_finalize;
}

static void
tks_stats_line_init (TksStatsLine *self)
{
  self->worst_kind = -1;
}

/**
 * tks_stats_line_new:
 * @name: what the line is about (a thread, a handler, a marker)
 * @values: (array length=n_values): its figures, NAN where there is none
 * @n_values: how many
 *
 * Returns: (transfer full): a line of one of the events' tables
 */
TksStatsLine *
tks_stats_line_new (const char   *name,
                    const double *values,
                    guint         n_values)
{
  TksStatsLine *self;

  g_return_val_if_fail (n_values == 0 || values != NULL, NULL);

  self = g_object_new (TKS_TYPE_STATS_LINE, NULL);
  self->name = g_strdup (name != NULL ? name : "?");
  self->values = g_memdup2 (values, n_values * sizeof *values);
  self->n_values = n_values;
  return self;
}

const char *
tks_stats_line_get_name (TksStatsLine *self)
{
  g_return_val_if_fail (TKS_IS_STATS_LINE (self), NULL);
  return self->name;
}

/* The figure of column @i, NAN when there is none. */
double
tks_stats_line_get_value (TksStatsLine *self,
                          guint         i)
{
  g_return_val_if_fail (TKS_IS_STATS_LINE (self), NAN);
  return i < self->n_values ? self->values[i] : NAN;
}

/* Takes a copy of @counts: @n_buckets buckets of @bucket each. */
void
tks_stats_line_set_histogram (TksStatsLine *self,
                              const guint  *counts,
                              guint         n_buckets,
                              double        bucket)
{
  g_return_if_fail (TKS_IS_STATS_LINE (self));
  g_return_if_fail (n_buckets == 0 || counts != NULL);

  g_free (self->histogram);
  self->histogram = g_memdup2 (counts, n_buckets * sizeof *counts);
  self->n_buckets = n_buckets;
  self->bucket = bucket;
}

const guint *
tks_stats_line_get_histogram (TksStatsLine *self,
                              guint        *n_buckets,
                              double       *bucket)
{
  g_return_val_if_fail (TKS_IS_STATS_LINE (self), NULL);

  if (n_buckets != NULL)
    *n_buckets = self->n_buckets;
  if (bucket != NULL)
    *bucket = self->bucket;
  return self->histogram;
}

/* The instances behind the line: tks_stats_worst() of @kind and @key. */
void
tks_stats_line_set_worst (TksStatsLine *self,
                          TksWorstKind  kind,
                          guint         key)
{
  g_return_if_fail (TKS_IS_STATS_LINE (self));
  self->worst_kind = kind;
  self->worst_key = key;
}

/* FALSE: the line has no instances. */
gboolean
tks_stats_line_get_worst (TksStatsLine *self,
                          TksWorstKind *kind,
                          guint        *key)
{
  g_return_val_if_fail (TKS_IS_STATS_LINE (self), FALSE);

  if (self->worst_kind < 0)
    return FALSE;
  *kind = self->worst_kind;
  *key = self->worst_key;
  return TRUE;
}

/**
 * tks_stats_line_compare:
 * @a: a line
 * @b: another
 * @column: the figure to compare, G_MAXUINT: the names
 *
 * Orders two lines for a table's sorter: by the figure of @column (lines without one first),
 * by name with G_MAXUINT.
 *
 * Returns: negative, 0 or positive
 */
int
tks_stats_line_compare (TksStatsLine *a,
                        TksStatsLine *b,
                        guint         column)
{
  double va, vb;

  g_return_val_if_fail (TKS_IS_STATS_LINE (a), 0);
  g_return_val_if_fail (TKS_IS_STATS_LINE (b), 0);

  if (column == G_MAXUINT)
    return g_utf8_collate (a->name, b->name);

  va = tks_stats_line_get_value (a, column);
  vb = tks_stats_line_get_value (b, column);
  if (isnan (va))
    return isnan (vb) ? 0 : -1;
  if (isnan (vb))
    return 1;
  return (va > vb) - (va < vb);
}
