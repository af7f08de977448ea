/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The board library built with USE_THREADS_TIMESTAMPS = false: the hooks do nothing, the list
 * comes from the kernel registry and the log commands explain how to enable them.
 */
#include <string.h>

#include <glib.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"

#define DISABLED_MESSAGE \
  "The thread timestamps functionality is disabled\r\n" \
  "Please define USE_THREADS_TIMESTAMPS = true in your makefile \r\n"

static thread_t threads[3];

static void
test_disabled (void)
{
  void (*cmds[]) (BaseSequentialStream *, int, char *[]) = {
    tuCmdThreadsTimestamps, tuCmdThreadsTimestampsTrigger, tuCmdThreadsTimestampsRun,
    tuCmdThreadsDump,
  };
  g_autofree char *list = NULL;

  ch_host_reset ();
  memset (threads, 0, sizeof threads);
  ch_host_thread_init (&threads[0], "main", 128, CH_FLAG_MODE_STATIC);
  ch_host_switch (&threads[0]);
  ch_host_thread_init (&threads[1], "idle", 1, CH_FLAG_MODE_STATIC);
  ch_host_thread_init (&threads[2], NULL, 64, CH_FLAG_MODE_HEAP);
  ch_host_switch (&threads[1]);
  ch_host_switch (&threads[2]);
  ch_host_thread_exit (&threads[2]);
  ch_host_switch (&threads[0]);

  list = host_run (tuCmdThreadsList, 0, NULL);
  g_assert_cmpstr (list, ==,
                   "Thread number  1 : Prio = 128, Log =  No, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log =  No, Name = idle\r\n");
  for (guint i = 0; i < G_N_ELEMENTS (cmds); i++)
    {
      g_autofree char *reply = host_run (cmds[i], 0, NULL);
      g_assert_cmpstr (reply, ==, DISABLED_MESSAGE);
    }
  g_assert_null (tuSetTrigger ("x"));
  g_assert_cmpuint (tuThreadLogSetting (), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mcu/disabled/commands", test_disabled);
  return g_test_run ();
}
