/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Hand-made captures shared by the core tests (statistics, exports, the CLI). */

/*
 * Three logged threads, two records sharing tick 103 (placed at 103 and 103.5).
 *
 *   100    main → idle      (main's leading OUT is not at tick 0: dropped)
 *   102    idle → worker
 *   103    worker → main
 *   103.5  main → worker
 *   106    worker → idle
 *   110    idle → main      (main runs to the end of the capture)
 *
 * Runs: idle [100,102] [106,110]; worker [102,103] [103.5,106]; main [103,103.5] [110,end].
 */
static const char tks_test_simple_transcript[] =
  "threads_list\r\n"
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
  "Thread number  3 : Prio = 130, Log = Yes, Name = worker\r\n"
  "ch> threads_timestamps\r\n"
  "From  1 to  2 at     100\r\n"
  "From  2 to  3 at     102\r\n"
  "From  3 to  1 at     103\r\n"
  "From  1 to  3 at     103\r\n"
  "From  3 to  2 at     106\r\n"
  "From  2 to  1 at     110\r\n"
  "ch> ";

/* An exit, a thread that is not logged, a name that needs quoting, two records in one tick,
 * and a trigger. */
static const char tks_test_mixed_transcript[] =
  "threads_list\r\n"
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
  "Thread number  3 : Prio =  20, Log =  No, Name = odd, \"name\"\r\n"
  "Deleted threads: \r\n"
  "Thread number  4 : Prio = 140, Log = Yes, Name = Exited dynamic thread\r\n"
  "ch> threads_timestamps\r\n"
  "Triggered at     205\r\n"
  "From  1 to  4 at     200\r\n"
  "From  4 to  4 at     204\r\n"
  "From  0 to  2 at     204\r\n"
  "From  2 to  3 at     207\r\n"
  "From  3 to  1 at     209\r\n"
  "From  1 to  2 at     211\r\n"
  "ch> ";

/*
 * @text with @n more exited threads at the head of every "Deleted threads" list, as the
 * original library keeps them (up to 64) after their exit records have left the log: threads
 * that exited before the log begins. They are numbered 1, 2, … (any number a thread had).
 * Free with g_free().
 */
static inline char *
tks_test_with_stale_history (const char *text,
                             guint       n)
{
  GString *out = g_string_new (NULL);
  const char *p = text, *q;

  while ((q = strstr (p, "Deleted threads: ")) != NULL)
    {
      const char *eol = strchr (q, '\n');

      eol = eol != NULL ? eol + 1 : q + strlen (q);
      g_string_append_len (out, p, eol - p);
      for (guint i = 0; i < n; i++)
        g_string_append_printf (out, "Thread number %2u : Prio = %3u, Log = Yes, "
                                "Name = Exited dynamic thread\r\n", 1 + i % 9, 100 + i);
      p = eol;
    }
  g_string_append (out, p);
  return g_string_free (out, FALSE);
}

/* The file @path with @n threads that exited before the log (see above); its text as it is in
 * @plain when not NULL. Free both with g_free(). */
static inline char *
tks_test_read_with_stale_history (const char  *path,
                                  guint        n,
                                  char       **plain)
{
  g_autofree char *text = NULL;
  char *stale;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  stale = tks_test_with_stale_history (text, n);
  if (plain != NULL)
    *plain = g_steal_pointer (&text);
  return stale;
}

/*
 * A saved capture whose log has a hole: the board printed a reply from tick 103 to 150 and did
 * not record 40 switches then. The test adds any further records and the prompt line.
 *
 *   100 main → fast, 101 fast → main, 102 main → idle, [hole 103..150], 152 fast → main,
 *   153 main → idle, 160 idle → fast
 *
 * Runs: idle [102,103] [153,160]; main [101,102] [152,153]; fast [100,101] [150,152] [160,…].
 */
#define TKS_TEST_GAP_CAPTURE \
  "Saved position\n100.0\n172.0\n5.0\n35.0\n" \
  "Tickscope capture 1\n" \
  "Tickscope gap before record 3, ticks 103 to 150, 40 switches dropped\n" \
  "threads_list\n" \
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\n" \
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\n" \
  "Thread number  3 : Prio = 140, Log = Yes, Name = fast\n" \
  "Deleted threads: \nch> \n" \
  "threads_timestamps\n" \
  "From  1 to  3 at     100\nFrom  3 to  1 at     101\nFrom  1 to  2 at     102\n" \
  "From  3 to  1 at     152\nFrom  1 to  2 at     153\nFrom  2 to  3 at     160\n"
