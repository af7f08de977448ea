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
  PROP_MAX_RUN,
  PROP_MEAN_RUN,
  PROP_LONGEST_WAIT,
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

    case PROP_MAX_RUN:
      g_value_set_double (value, or_zero (self->stats.max_run));
      break;

    case PROP_MEAN_RUN:
      g_value_set_double (value, or_zero (self->stats.mean_run));
      break;

    case PROP_LONGEST_WAIT:
      g_value_set_double (value, or_zero (self->stats.longest_wait));
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
  properties[PROP_MAX_RUN] = g_param_spec_double ("max-run", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_MEAN_RUN] = g_param_spec_double ("mean-run", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_LONGEST_WAIT] = g_param_spec_double ("longest-wait", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
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
