/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-capture.h"
#include "tks-lane-list.h"
#include "tks-stats.h"
#include "tks-test-data.h"
#include "tks-test-fixtures.h"

#define GROUP_NAME "Exited dynamic thread"

/* The exited threads of @name and @priority among @capture's shown lanes. */
static guint
count_exited (TksCapture *capture,
              const char *name,
              int         priority)
{
  const guint *lanes;
  guint n_lanes, n = 0;

  lanes = tks_capture_get_shown_lanes (capture, FALSE, &n_lanes);
  for (guint i = 0; i < n_lanes; i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, lanes[i]);

      if ((th->flags & (TKS_THREAD_EXITED | TKS_THREAD_DELETED)) &&
          !(th->flags & TKS_THREAD_NOT_LISTED) &&
          g_str_equal (th->name, name) && th->priority == priority)
        n++;
    }
  return n;
}

/* The position of thread @t in the capture's shown lanes. */
static guint
lane_position (TksCapture *capture,
               guint       t)
{
  const guint *lanes;
  guint n_lanes;

  lanes = tks_capture_get_shown_lanes (capture, FALSE, &n_lanes);
  for (guint i = 0; i < n_lanes; i++)
    if (lanes[i] == t)
      return i;
  g_assert_not_reached ();
}

static const TksLaneRow *
row_named (TksLaneList *list,
           const char  *name)
{
  guint n;
  const TksLaneRow *const *rows = tks_lane_list_get_rows (list, &n);

  for (guint i = 0; i < n; i++)
    if (rows[i]->kind != TKS_LANE_ROW_MEMBER && g_str_equal (rows[i]->name, name))
      return rows[i];
  return NULL;
}

static const TksLaneRow *
group_of_priority (TksLaneList *list,
                   int          priority)
{
  guint n;
  const TksLaneRow *const *rows = tks_lane_list_get_rows (list, &n);

  for (guint i = 0; i < n; i++)
    if (rows[i]->kind == TKS_LANE_ROW_GROUP && rows[i]->priority == priority)
      return rows[i];
  return NULL;
}

/* The index of the lane showing @row, or -1. */
static int
lane_of_row (TksLaneList      *list,
             const TksLaneRow *row)
{
  guint n;
  const TksLane *lanes = tks_lane_list_get_lanes (list, &n);

  for (guint i = 0; i < n; i++)
    if (lanes[i].row == row)
      return i;
  return -1;
}

/* Exited threads of one name and priority share a group row, one per (name, priority), with as
 * many members as the capture has such threads; every shown thread is in exactly one row. */
static void
test_groups (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (capture, FALSE, 1000);
  g_autofree guint *seen = g_new0 (guint, tks_capture_get_n_threads (capture));
  const TksLaneRow *const *rows;
  guint n_rows, n_groups = 0, n_shown;

  tks_capture_get_shown_lanes (capture, FALSE, &n_shown);
  rows = tks_lane_list_get_rows (list, &n_rows);
  for (guint i = 0; i < n_rows; i++)
    {
      const TksLaneRow *row = rows[i];

      g_assert_cmpint (row->kind, !=, TKS_LANE_ROW_MEMBER); /* collapsed */
      if (row->kind == TKS_LANE_ROW_GROUP)
        {
          guint expected = count_exited (capture, row->name, row->priority);
          g_autofree char *label = g_strdup_printf ("%s ×%u", row->name, expected);

          n_groups++;
          g_assert_cmpuint (expected, >=, 2);
          g_assert_cmpuint (row->n_threads, ==, expected);
          g_assert_cmpstr (row->label, ==, label);
          g_assert_cmpint (row->number, ==, -1);
        }
      else
        {
          g_assert_cmpuint (row->n_threads, ==, 1);
          g_assert_cmpstr (row->label, ==, row->name);
        }
      for (guint t = 0; t < row->n_threads; t++)
        {
          const TksThread *th = tks_capture_get_thread (capture, row->threads[t]);

          seen[row->threads[t]]++;
          g_assert_cmpstr (th->name, ==, row->name);
          g_assert_cmpint (th->priority, ==, row->priority);
          g_assert_true (tks_lane_list_find_thread (list, row->threads[t]) != NULL);
        }
    }
  /* the three priorities of the exited dynamic threads: three groups */
  g_assert_cmpuint (n_groups, ==, 3);
  for (guint t = 0, total = 0; t < tks_capture_get_n_threads (capture); t++)
    {
      g_assert_cmpuint (seen[t], <=, 1);
      total += seen[t];
      if (t + 1 == tks_capture_get_n_threads (capture))
        g_assert_cmpuint (total, ==, n_shown);
    }
}

/* An expanded group's members follow it, in exit order, labelled with their number and exit
 * time; in the timeline the group's one lane becomes a lane per member. */
static void
test_expand (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (capture, FALSE, 1000);
  const TksLaneRow *group = group_of_priority (list, 123);
  const TksLaneRow *const *rows;
  const TksLane *lanes;
  guint n_rows, n_lanes, n_rows_before, n_lanes_before, count;
  int at;
  double last = -INFINITY;

  g_assert_nonnull (group);
  count = count_exited (capture, GROUP_NAME, 123);
  tks_lane_list_get_rows (list, &n_rows_before);
  lanes = tks_lane_list_get_lanes (list, &n_lanes_before);
  at = lane_of_row (list, group);
  g_assert_cmpint (at, >=, 0);
  /* collapsed: one lane, the union of its members */
  g_assert_cmpuint (lanes[at].n_threads, ==, count);
  g_assert_true (memcmp (lanes[at].threads, group->threads, count * sizeof (guint)) == 0);

  g_assert_true (tks_lane_list_set_expanded (list, group->key, TRUE));
  g_assert_true (group->expanded);
  rows = tks_lane_list_get_rows (list, &n_rows);
  g_assert_cmpuint (n_rows, ==, n_rows_before + count);
  for (guint i = 0; i < n_rows; i++)
    if (rows[i] == group)
      {
        for (guint m = 0; m < count; m++)
          {
            const TksLaneRow *member = rows[i + 1 + m];
            const TksThread *th = tks_capture_get_thread (capture, member->threads[0]);
            g_autofree char *label = NULL;

            g_assert_cmpint (member->kind, ==, TKS_LANE_ROW_MEMBER);
            g_assert_true (member->group == group);
            g_assert_cmpuint (member->threads[0], ==, group->threads[m]);
            g_assert_cmpint (member->number, ==, th->number);
            g_assert_true (th->flags & TKS_THREAD_EXITED);
            g_assert_cmpfloat (th->exit_time, >=, last);
            last = th->exit_time;
            /* 1 kHz: a tick is a millisecond */
            label = g_strdup_printf ("#%d, exited at %.1f ms", th->number, th->exit_time);
            g_assert_cmpstr (member->label, ==, label);
          }
        break;
      }
  g_assert_cmpfloat (last, >, -INFINITY);

  lanes = tks_lane_list_get_lanes (list, &n_lanes);
  g_assert_cmpuint (n_lanes, ==, n_lanes_before - 1 + count);
  g_assert_cmpint (lane_of_row (list, group), ==, -1);
  for (guint m = 0; m < count; m++)
    {
      g_assert_true (lanes[at + m].row->group == group);
      g_assert_cmpuint (lanes[at + m].n_threads, ==, 1);
      g_assert_cmpuint (lanes[at + m].threads[0], ==, group->threads[m]);
    }

  /* another tick rate: the labels follow */
  tks_lane_list_set_tick_hz (list, 2000);
  {
    const TksLaneRow *member = tks_lane_list_find_thread (list, group->threads[0]);
    const TksThread *th = tks_capture_get_thread (capture, group->threads[0]);
    g_autofree char *label = g_strdup_printf ("#%d, exited at %.1f ms", th->number,
                                              th->exit_time / 2);
    g_autofree char *from_trigger = NULL;
    double trigger;

    g_assert_cmpstr (member->label, ==, label);
    /* counted from the trigger, as the ruler does */
    g_assert_true (tks_capture_get_trigger (capture, &trigger));
    tks_lane_list_set_time_origin (list, trigger);
    from_trigger = g_strdup_printf ("#%d, exited at %.1f ms", th->number, (th->exit_time - trigger) / 2);
    g_assert_cmpstr (tks_lane_list_find_thread (list, group->threads[0])->label, ==, from_trigger);
    tks_lane_list_set_time_origin (list, 0);
  }

  /* a member can be hidden, not pinned, not expanded */
  {
    const TksLaneRow *member = tks_lane_list_find_thread (list, group->threads[0]);

    g_assert_false (tks_lane_list_set_pinned (list, member->key, TRUE));
    g_assert_false (tks_lane_list_set_expanded (list, member->key, TRUE));
    g_assert_true (tks_lane_list_set_hidden (list, member->key, TRUE));
    tks_lane_list_get_lanes (list, &n_lanes);
    g_assert_cmpuint (n_lanes, ==, n_lanes_before - 1 + count - 1);
    /* collapsed again: one lane without the hidden member */
    g_assert_true (tks_lane_list_set_expanded (list, group->key, FALSE));
    lanes = tks_lane_list_get_lanes (list, &n_lanes);
    g_assert_cmpuint (n_lanes, ==, n_lanes_before);
    g_assert_cmpuint (lanes[at].n_threads, ==, count - 1);
    tks_lane_list_get_rows (list, &n_rows);
    g_assert_cmpuint (n_rows, ==, n_rows_before);
  }
  g_assert_false (tks_lane_list_set_expanded (list, row_named (list, "main")->key, TRUE));
  g_assert_false (tks_lane_list_set_hidden (list, "no such key", TRUE));
}

/* Each row's share is its threads' run time in the range; together they make the busy share
 * the core's statistics give for the range. */
static void
test_shares (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (capture, TRUE, 1000);
  double start = tks_capture_get_start (capture), end = tks_capture_get_end (capture);
  double ranges[][2] = { { start, end }, { start + (end - start) / 3, start + (end - start) / 2 },
                         { start - 1000, start + 10 } };

  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) stats = NULL;
      TksStatsTotals totals;
      const TksLaneRow *const *rows;
      guint n_rows;
      double sum = 0, sum_time = 0;

      if (r > 0)
        tks_lane_list_set_range (list, ranges[r][0], ranges[r][1]);
      stats = tks_stats_compute (capture, ranges[r][0], ranges[r][1], &totals, &error);
      g_assert_no_error (error);
      rows = tks_lane_list_get_rows (list, &n_rows);
      for (guint i = 0; i < n_rows; i++)
        {
          double busy = 0;

          for (guint t = 0; t < rows[i]->n_threads; t++)
            busy += tks_thread_busy (tks_capture_get_thread (capture, rows[i]->threads[t]),
                                     totals.from, totals.to);
          g_assert_cmpfloat_with_epsilon (rows[i]->run_time, busy, 1e-6);
          g_assert_cmpfloat_with_epsilon (rows[i]->share, busy / totals.duration * 100, 1e-6);
          sum += rows[i]->share;
          sum_time += rows[i]->run_time;
        }
      g_assert_cmpfloat (totals.busy_time, >, 0);
      g_assert_cmpfloat_with_epsilon (sum_time, totals.busy_time, 1e-6);
      g_assert_cmpfloat_with_epsilon (sum, totals.covered_share, 1e-6);
    }

  /* a group's share is the sum of its members' */
  tks_lane_list_set_range (list, start, end);
  {
    const TksLaneRow *group = group_of_priority (list, 129);
    double sum = 0;

    g_assert_true (tks_lane_list_set_expanded (list, group->key, TRUE));
    for (guint m = 0; m < group->n_threads; m++)
      sum += tks_lane_list_find_thread (list, group->threads[m])->share;
    g_assert_cmpfloat (group->share, >, 0);
    g_assert_cmpfloat_with_epsilon (group->share, sum, 1e-9);
  }
}

/* Priority is the timeline's order; load puts the busiest first; name sorts by name. */
static void
test_sort (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (capture, FALSE, 1000);
  const TksLaneRow *const *rows;
  const TksLane *lanes;
  guint n_rows, n_lanes;

  g_assert_cmpint (tks_lane_list_get_sort (list), ==, TKS_LANE_SORT_PRIORITY);
  rows = tks_lane_list_get_rows (list, &n_rows);
  g_assert_cmpuint (n_rows, >, 5);
  for (guint i = 1; i < n_rows; i++)
    g_assert_cmpuint (lane_position (capture, rows[i - 1]->threads[0]), <,
                      lane_position (capture, rows[i]->threads[0]));

  tks_lane_list_set_sort (list, TKS_LANE_SORT_LOAD);
  rows = tks_lane_list_get_rows (list, &n_rows);
  g_assert_cmpfloat (rows[0]->share, >, rows[n_rows - 1]->share);
  for (guint i = 1; i < n_rows; i++)
    g_assert_cmpfloat (rows[i - 1]->share, >=, rows[i]->share);
  /* the timeline follows the sort */
  lanes = tks_lane_list_get_lanes (list, &n_lanes);
  g_assert_cmpuint (n_lanes, ==, n_rows);
  for (guint i = 0; i < n_lanes; i++)
    g_assert_true (lanes[i].row == rows[i]);

  tks_lane_list_set_sort (list, TKS_LANE_SORT_NAME);
  rows = tks_lane_list_get_rows (list, &n_rows);
  for (guint i = 1; i < n_rows; i++)
    g_assert_cmpint (g_utf8_collate (rows[i - 1]->name, rows[i]->name), <=, 0);
  /* same name, different priorities: the timeline's order */
  for (guint i = 1; i < n_rows; i++)
    if (g_str_equal (rows[i - 1]->name, rows[i]->name))
      g_assert_cmpuint (lane_position (capture, rows[i - 1]->threads[0]), <,
                        lane_position (capture, rows[i]->threads[0]));
}

/* Pinned rows come first (in the sort's order); hidden rows stay in the panel but leave the
 * timeline. */
static void
test_pin_hide (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (capture, FALSE, 1000);
  const TksLaneRow *const *rows;
  const TksLane *lanes;
  const TksLaneRow *idle = row_named (list, "idle"), *main_row = row_named (list, "main");
  const TksLaneRow *group = group_of_priority (list, 143);
  guint n_rows, n_lanes, n_all;

  tks_lane_list_get_lanes (list, &n_all);
  g_assert_nonnull (idle);
  g_assert_nonnull (main_row);
  g_assert_cmpuint (lane_position (capture, main_row->threads[0]), <,
                    lane_position (capture, idle->threads[0]));

  g_assert_true (tks_lane_list_set_pinned (list, idle->key, TRUE));
  g_assert_true (idle->pinned);
  lanes = tks_lane_list_get_lanes (list, &n_lanes);
  g_assert_cmpuint (n_lanes, ==, n_all);
  g_assert_true (lanes[0].row == idle);
  rows = tks_lane_list_get_rows (list, &n_rows);
  g_assert_true (rows[0] == idle);

  /* two pinned rows: in the sort's order */
  g_assert_true (tks_lane_list_set_pinned (list, main_row->key, TRUE));
  lanes = tks_lane_list_get_lanes (list, &n_lanes);
  g_assert_true (lanes[0].row == main_row);
  g_assert_true (lanes[1].row == idle);
  tks_lane_list_set_sort (list, TKS_LANE_SORT_LOAD);
  lanes = tks_lane_list_get_lanes (list, &n_lanes);
  g_assert_true (lanes[0].row == (idle->share >= main_row->share ? idle : main_row));
  tks_lane_list_set_sort (list, TKS_LANE_SORT_PRIORITY);

  /* hiding */
  g_assert_true (tks_lane_list_set_hidden (list, idle->key, TRUE));
  g_assert_true (tks_lane_list_set_hidden (list, group->key, TRUE));
  lanes = tks_lane_list_get_lanes (list, &n_lanes);
  g_assert_cmpuint (n_lanes, ==, n_all - 2);
  g_assert_cmpint (lane_of_row (list, idle), ==, -1);
  g_assert_cmpint (lane_of_row (list, group), ==, -1);
  g_assert_true (lanes[0].row == main_row);
  for (guint i = 0; i < n_lanes; i++)
    for (guint t = 0; t < lanes[i].n_threads; t++)
      {
        const TksThread *th = tks_capture_get_thread (capture, lanes[i].threads[t]);

        g_assert_false (th->priority == 143 && g_str_equal (th->name, GROUP_NAME));
      }
  tks_lane_list_get_rows (list, &n_rows);
  g_assert_cmpuint (n_rows, ==, n_all);
  /* an expanded hidden group stays out of the timeline */
  g_assert_true (tks_lane_list_set_expanded (list, group->key, TRUE));
  tks_lane_list_get_lanes (list, &n_lanes);
  g_assert_cmpuint (n_lanes, ==, n_all - 2);

  g_assert_true (tks_lane_list_set_hidden (list, idle->key, FALSE));
  g_assert_true (tks_lane_list_set_pinned (list, idle->key, FALSE));
  g_assert_true (tks_lane_list_set_pinned (list, main_row->key, FALSE));
  g_assert_true (tks_lane_list_set_hidden (list, group->key, FALSE));
  g_assert_true (tks_lane_list_set_expanded (list, group->key, FALSE));
  tks_lane_list_get_lanes (list, &n_lanes);
  g_assert_cmpuint (n_lanes, ==, n_all);
}

/* The search filters the panel's rows by a case-insensitive part of the name, not the
 * timeline's lanes. */
static void
test_search (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (capture, FALSE, 1000);
  const TksLaneRow *const *rows;
  guint n_rows, n_all, n_lanes, n_lanes_all;
  const TksLaneRow *group = group_of_priority (list, 123);

  tks_lane_list_get_rows (list, &n_all);
  tks_lane_list_get_lanes (list, &n_lanes_all);

  tks_lane_list_set_search (list, "dYNamic");
  rows = tks_lane_list_get_rows (list, &n_rows);
  g_assert_cmpuint (n_rows, ==, 3);
  for (guint i = 0; i < n_rows; i++)
    g_assert_cmpstr (rows[i]->name, ==, GROUP_NAME);
  tks_lane_list_get_lanes (list, &n_lanes);
  g_assert_cmpuint (n_lanes, ==, n_lanes_all);

  /* an expanded group's members match as it does */
  tks_lane_list_set_expanded (list, group->key, TRUE);
  tks_lane_list_get_rows (list, &n_rows);
  g_assert_cmpuint (n_rows, ==, 3 + group->n_threads);

  tks_lane_list_set_search (list, "IDLE");
  rows = tks_lane_list_get_rows (list, &n_rows);
  g_assert_cmpuint (n_rows, ==, 1);
  g_assert_cmpstr (rows[0]->name, ==, "idle");

  tks_lane_list_set_search (list, "no thread has this name");
  tks_lane_list_get_rows (list, &n_rows);
  g_assert_cmpuint (n_rows, ==, 0);

  tks_lane_list_set_search (list, "");
  tks_lane_list_get_rows (list, &n_rows);
  g_assert_cmpuint (n_rows, ==, n_all + group->n_threads);
  tks_lane_list_set_search (list, NULL);
  tks_lane_list_get_rows (list, &n_rows);
  g_assert_cmpuint (n_rows, ==, n_all + group->n_threads);
}

/* A new capture of the same board keeps what the user chose for the rows found again. */
static void
test_rebuild_keeps_state (void)
{
  g_autoptr(TksCapture) first = tks_test_load_data ("board-run-mode.raw.txt");
  g_autoptr(TksCapture) second = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (first, FALSE, 1000);
  g_autofree char *group_key = NULL, *idle_key = NULL, *main_key = NULL;
  const TksLaneRow *group, *idle, *main_row;
  const TksLane *lanes;
  guint n_lanes;

  group = group_of_priority (list, 129);
  idle = row_named (list, "idle");
  main_row = row_named (list, "main");
  g_assert_nonnull (group);
  g_assert_cmpuint (group->n_threads, ==, count_exited (first, GROUP_NAME, 129));
  group_key = g_strdup (group->key);
  idle_key = g_strdup (idle->key);
  main_key = g_strdup (main_row->key);
  g_assert_true (tks_lane_list_set_expanded (list, group_key, TRUE));
  g_assert_true (tks_lane_list_set_pinned (list, group_key, TRUE));
  g_assert_true (tks_lane_list_set_hidden (list, idle_key, TRUE));
  g_assert_true (tks_lane_list_set_pinned (list, main_key, TRUE));
  g_assert_true (tks_lane_list_set_pinned (list, main_key, FALSE));
  tks_lane_list_set_sort (list, TKS_LANE_SORT_NAME);

  tks_lane_list_set_capture (list, second, FALSE);
  g_assert_true (tks_lane_list_get_capture (list) == second);
  g_assert_cmpint (tks_lane_list_get_sort (list), ==, TKS_LANE_SORT_NAME);
  group = tks_lane_list_find_row (list, group_key);
  idle = tks_lane_list_find_row (list, idle_key);
  main_row = tks_lane_list_find_row (list, main_key);
  g_assert_nonnull (group);
  g_assert_nonnull (idle);
  g_assert_nonnull (main_row);
  /* the group has the new capture's members */
  g_assert_cmpuint (group->n_threads, ==, count_exited (second, GROUP_NAME, 129));
  g_assert_true (group->expanded);
  g_assert_true (group->pinned);
  g_assert_true (idle->hidden);
  g_assert_false (idle->pinned);
  g_assert_false (main_row->pinned);
  g_assert_false (main_row->hidden);
  lanes = tks_lane_list_get_lanes (list, &n_lanes);
  for (guint m = 0; m < group->n_threads; m++)
    {
      g_assert_true (lanes[m].row->group == group);
      g_assert_cmpuint (lanes[m].threads[0], ==, group->threads[m]);
    }
  g_assert_cmpint (lane_of_row (list, idle), ==, -1);
}

static void
count_changes (TksLaneList *list,
               guint       *n)
{
  (*n)++;
}

/* Every change says so, for the panel and the timeline to follow. */
static void
test_changed (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (capture, FALSE, 1000);
  const TksLaneRow *group = group_of_priority (list, 123);
  guint n = 0;

  g_signal_connect (list, "changed", G_CALLBACK (count_changes), &n);
  tks_lane_list_set_sort (list, TKS_LANE_SORT_NAME);
  g_assert_cmpuint (n, ==, 1);
  tks_lane_list_set_search (list, "x");
  g_assert_cmpuint (n, ==, 2);
  tks_lane_list_set_range (list, 0, 100);
  g_assert_cmpuint (n, ==, 3);
  tks_lane_list_set_expanded (list, group->key, TRUE);
  g_assert_cmpuint (n, ==, 4);
  tks_lane_list_set_tick_hz (list, 10000);
  g_assert_cmpuint (n, ==, 5);
  tks_lane_list_set_capture (list, capture, TRUE);
  g_assert_cmpuint (n, ==, 6);
  /* nothing for a key that names no row */
  g_assert_false (tks_lane_list_set_pinned (list, "nothing", TRUE));
  g_assert_cmpuint (n, ==, 6);
}

/* Names as a board may send them: a control character is shown escaped as the command line
 * shows it (the panel draws no box for it), an empty name as "(no name)", in the rows' labels
 * and in their groups'. */
static void
test_shown_names (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "board-trigger-exits.raw.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) odd = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksLaneList) list = NULL;
  const TksLaneRow *const *rows;
  gboolean escaped = FALSE, unnamed = FALSE;
  guint n;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  odd = g_string_new (text);
  g_assert_cmpuint (g_string_replace (odd, "Name = console\r", "Name = con\x1b[2Jsole\r", 0), >, 0);
  g_assert_cmpuint (g_string_replace (odd, "Name = idle\r", "Name = \r", 0), >, 0);
  capture = tks_test_capture_of_text (odd->str, odd->len);
  list = tks_lane_list_new (capture, FALSE, 1000);
  rows = tks_lane_list_get_rows (list, &n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_null (strchr (rows[i]->label, '\x1b'));
      g_assert_cmpstr (rows[i]->label, !=, "");
      escaped |= g_str_equal (rows[i]->label, "con\\x1b[2Jsole");
      unnamed |= g_str_equal (rows[i]->label, "(no name)");
    }
  g_assert_true (escaped);
  g_assert_true (unnamed);

  /* the same names in the timeline's tooltips */
  {
    g_autofree char *none = tks_lane_list_shown_name (NULL);
    g_autofree char *bell = tks_lane_list_shown_name ("ring\a");
    g_autofree char *plain = tks_lane_list_shown_name ("sensor");

    g_assert_cmpstr (none, ==, "(no name)");
    g_assert_cmpstr (bell, ==, "ring\\x07");
    g_assert_cmpstr (plain, ==, "sensor");
  }
}

/* The keys of the top-level rows, in order. */
static char *
order_of (TksLaneList *list)
{
  GString *order = g_string_new (NULL);
  guint n;
  const TksLaneRow *const *rows = tks_lane_list_get_rows (list, &n);

  for (guint i = 0; i < n; i++)
    if (rows[i]->kind != TKS_LANE_ROW_MEMBER)
      g_string_append_printf (order, "%s|", rows[i]->key);
  return g_string_free (order, FALSE);
}

/* The load order is taken when asked for: a new range (a pan, a zoom) or a new capture of the
 * same threads (a recording's next second) changes the shares, never the lanes' order; asked
 * again, it follows the shares of the range then. */
static void
test_load_order_holds (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (capture, FALSE, 1000);
  g_autofree char *taken = NULL, *after_range = NULL, *after_capture = NULL, *again = NULL;
  double start = tks_capture_get_start (capture), end = tks_capture_get_log_end (capture, NULL);
  const TksLaneRow *const *rows;
  guint n_rows;

  tks_lane_list_set_sort (list, TKS_LANE_SORT_LOAD);
  taken = order_of (list);
  rows = tks_lane_list_get_rows (list, &n_rows);
  for (guint i = 1; i < n_rows; i++)
    g_assert_cmpfloat (rows[i - 1]->share, >=, rows[i]->share);

  /* a range of its own (the first tenth), whose shares would order the rows otherwise (see
   * below) */
  tks_lane_list_set_range (list, start, start + (end - start) / 10);
  after_range = order_of (list);
  g_assert_cmpstr (after_range, ==, taken);

  tks_lane_list_set_capture (list, capture, FALSE);
  after_capture = order_of (list);
  g_assert_cmpstr (after_capture, ==, taken);

  /* asked again: the shares of the range now */
  tks_lane_list_sort_again (list);
  again = order_of (list);
  g_assert_cmpstr (again, !=, taken);
  rows = tks_lane_list_get_rows (list, &n_rows);
  for (guint i = 1; i < n_rows; i++)
    g_assert_cmpfloat (rows[i - 1]->share, >=, rows[i]->share);
}

/* @capture's text with the threads of another program: the same group of exited threads,
 * every other thread named otherwise. */
static TksCapture *
other_board (void)
{
  static const char * const names[] = { "main", "console", "control", "sensor", "blinker",
                                         "logger", "filter", "spawner", "shell1",
                                         "housekeep" };
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "board-trigger-exits.raw.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) other = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  other = g_string_new (text);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *from = g_strdup_printf ("Name = %s\r", names[i]);
      g_autofree char *to = g_strdup_printf ("Name = other%u\r", i);

      g_assert_cmpuint (g_string_replace (other, from, to, 0), >, 0);
    }
  return tks_test_capture_of_text (other->str, other->len);
}

/* A group expanded stays so for the same board's captures only: another board's capture
 * opens with it collapsed, though it has a group of the same key. */
static void
test_expansion_per_board (void)
{
  g_autoptr(TksCapture) first = tks_test_load_data ("board-run-mode.raw.txt");
  g_autoptr(TksCapture) same = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksCapture) other = other_board ();
  g_autoptr(TksLaneList) list = tks_lane_list_new (first, FALSE, 1000);
  g_autofree char *key = NULL;
  const TksLaneRow *group = group_of_priority (list, 129);

  g_assert_nonnull (group);
  key = g_strdup (group->key);
  g_assert_true (tks_lane_list_set_expanded (list, key, TRUE));

  tks_lane_list_set_capture (list, same, FALSE);
  group = tks_lane_list_find_row (list, key);
  g_assert_nonnull (group);
  g_assert_true (group->expanded);

  tks_lane_list_set_capture (list, other, FALSE);
  group = tks_lane_list_find_row (list, key);
  g_assert_nonnull (group);
  g_assert_false (group->expanded);
  g_assert_cmpint (lane_of_row (list, group), >=, 0);
}

/* A group's members show their own name where the board gives one ("worker #7, exited at…");
 * "Exited dynamic thread" is no name of their own: "#7, exited at…". */
static void
test_member_names (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "board-trigger-exits.raw.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) named = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksLaneList) list = NULL;
  const TksLaneRow *group;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  named = g_string_new (text);
  g_assert_cmpuint (g_string_replace (named, "Name = " GROUP_NAME "\r", "Name = worker\r", 0), >, 0);
  capture = tks_test_capture_of_text (named->str, named->len);
  list = tks_lane_list_new (capture, FALSE, 1000);
  group = row_named (list, "worker");
  g_assert_nonnull (group);
  g_assert_cmpint (group->kind, ==, TKS_LANE_ROW_GROUP);
  for (guint m = 0; m < group->n_threads; m++)
    {
      const TksLaneRow *member = tks_lane_list_find_thread (list, group->threads[m]);
      const TksThread *th = tks_capture_get_thread (capture, group->threads[m]);
      g_autofree char *label = g_strdup_printf ("worker #%d, exited at %.1f ms", th->number,
                                                th->exit_time);

      g_assert_cmpstr (member->label, ==, label);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/lane-list/groups", test_groups);
  g_test_add_func ("/model/lane-list/expand", test_expand);
  g_test_add_func ("/model/lane-list/shares", test_shares);
  g_test_add_func ("/model/lane-list/sort", test_sort);
  g_test_add_func ("/model/lane-list/load-order-holds", test_load_order_holds);
  g_test_add_func ("/model/lane-list/expansion-per-board", test_expansion_per_board);
  g_test_add_func ("/model/lane-list/member-names", test_member_names);
  g_test_add_func ("/model/lane-list/pin-hide", test_pin_hide);
  g_test_add_func ("/model/lane-list/search", test_search);
  g_test_add_func ("/model/lane-list/rebuild-keeps-state", test_rebuild_keeps_state);
  g_test_add_func ("/model/lane-list/changed", test_changed);
  g_test_add_func ("/model/lane-list/shown-names", test_shown_names);

  return g_test_run ();
}
