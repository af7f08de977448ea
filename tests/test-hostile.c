/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Hostile boards, over real TCP and a real pty: replies that never end (records, a line, help,
 * a trigger or run answer), a reply without its prompt, a prompt in the middle of a reply, NUL
 * bytes in a reply, a board that trickles. Through the session API as the viewer uses it, and
 * through tickscope-cli fetch / trigger / run as a user runs them, with the CLI's peak memory
 * measured. Each ends with a clear message naming the command, within bounded time and
 * memory, and nothing received is lost.
 */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "tks-error.h"
#include "tks-hostile-board.h"
#include "tks-test-wait.h"
#include "tks-session.h"
#include "tks-shell.h"
#include "tks-transport-private.h"

#define OFFERED_BYTES  ((guint64) 256 << 20) /* what an endless board offers at most */
/* The silence a session here takes as a board that stopped answering. Generous: under the
 * sanitizers on a busy machine a healthy board's thread can be kept waiting for a good part of
 * a second, and that is no silence of the board. A board that really stops costs a test this
 * much time. What ended a reply (its bound, a silence, its deadline) the errors say; the tests
 * check that, not how long the machine took. */
#define SILENCE_MS     3000
/* The CLI's peak memory may not pass this. Built with AddressSanitizer, its shadow memory,
 * redzones and allocation records make the peak say nothing of the program's own: unchecked
 * there (the bytes read still are). */
#if defined(__SANITIZE_ADDRESS__)
#define CLI_RSS_MAX_KB G_MAXLONG
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLI_RSS_MAX_KB G_MAXLONG
#endif
#endif
#ifndef CLI_RSS_MAX_KB
#define CLI_RSS_MAX_KB (64 * 1024)
#endif

/* A hostile board listening on TCP, or on a pty. */
typedef struct
{
  GSocketListener  *listener;
  GThread          *accept_thread;
  TksHostileMode    mode;
  const char       *target;
  guint             good;
  TksHostileBoard  *board;
  GMutex            lock;
} Server;

static gpointer
accept_main (gpointer data)
{
  Server *server = data;
  g_autoptr(GSocketConnection) conn = g_socket_listener_accept (server->listener, NULL, NULL, NULL);
  TksHostileBoard *board;

  if (conn == NULL)
    return NULL;
  board = tks_hostile_board_start (dup (g_socket_get_fd (g_socket_connection_get_socket (conn))),
                                   server->mode, server->target, server->good, OFFERED_BYTES);
  g_mutex_lock (&server->lock);
  server->board = board;
  g_mutex_unlock (&server->lock);
  return NULL;
}

/* The address to connect to: tcp:127.0.0.1:PORT, or the pty's path. */
static char *
server_start (Server         *server,
              gboolean        pty,
              TksHostileMode  mode,
              const char     *target,
              guint           good)
{
  g_autoptr(GError) error = NULL;
  guint16 port;

  server->mode = mode;
  server->target = target;
  server->good = good;
  g_mutex_init (&server->lock);
  if (pty)
    {
      int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);

      g_assert_cmpint (master, >=, 0);
      g_assert_cmpint (grantpt (master), ==, 0);
      g_assert_cmpint (unlockpt (master), ==, 0);
      server->board = tks_hostile_board_start (master, mode, target, good, OFFERED_BYTES);
      return g_strdup (ptsname (master));
    }
  server->listener = g_socket_listener_new ();
  port = g_socket_listener_add_any_inet_port (server->listener, NULL, &error);
  g_assert_no_error (error);
  server->accept_thread = g_thread_new ("accept", accept_main, server);
  return g_strdup_printf ("tcp:127.0.0.1:%u", port);
}

static guint64
server_sent (Server *server)
{
  guint64 sent;

  g_mutex_lock (&server->lock);
  sent = server->board != NULL ? tks_hostile_board_get_sent (server->board) : 0;
  g_mutex_unlock (&server->lock);
  return sent;
}

static void
server_stop (Server *server)
{
  if (server->listener != NULL)
    {
      g_socket_listener_close (server->listener);
      g_thread_join (server->accept_thread);
      g_clear_object (&server->listener);
    }
  g_clear_pointer (&server->board, tks_hostile_board_stop);
  g_mutex_clear (&server->lock);
}

/* Sessions, through the main loop */

static TksSession *
session_connect_at (const char *address,
                    guint       baud,
                    TksWait    *wait,
                    GError    **error)
{
  g_autoptr(TksSession) session = tks_session_new ();

  tks_session_set_timeout (session, SILENCE_MS);
  tks_session_set_baud (session, baud);
  tks_session_connect_async (session, address, NULL, tks_wait_done, wait);
  if (!tks_session_connect_finish (session, tks_wait_for (wait), error))
    return NULL;
  return g_steal_pointer (&session);
}

/* A fast link: the time a reply is given is its timeout and little more. */
static TksSession *
session_connect (const char *address,
                 TksWait    *wait,
                 GError    **error)
{
  return session_connect_at (address, 4000000, wait, error);
}

static TksCapture *
session_fetch (TksSession *session,
               TksWait    *wait,
               GError    **error)
{
  tks_session_fetch_async (session, NULL, tks_wait_done, wait);
  return tks_session_fetch_finish (session, tks_wait_for (wait), error);
}

/* Disconnects, stops the board, ends the waiting. */
static void
session_end (TksSession *session,
             Server     *server,
             TksWait    *wait)
{
  if (session != NULL)
    tks_session_disconnect (session);
  server_stop (server);
  tks_wait_clear (wait);
}

/* The session still answers: a trigger goes through. */
static void
assert_usable (TksSession *session,
               TksWait    *wait)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;

  tks_session_trigger_async (session, NULL, tks_wait_done, wait);
  reply = tks_session_trigger_finish (session, tks_wait_for (wait), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (reply, ==, "Trigger set by Shell command at   17154");
}

/* The number a message gives before " bytes read". */
static guint64
bytes_read_in (const char *message)
{
  const char *at = strstr (message, " bytes read");

  g_assert_nonnull (at);
  while (at > message && g_ascii_isdigit (at[-1]))
    at--;
  return g_ascii_strtoull (at, NULL, 10);
}

static void
test_session_endless (gconstpointer data)
{
  gboolean pty = GPOINTER_TO_INT (data);
  Server server = { 0 };
  TksWait wait = { 0 };
  g_autofree char *address = server_start (&server, pty, TKS_HOSTILE_ENDLESS, "threads_timestamps", 0);
  g_autoptr(GError) error = NULL;
  /* the bound ends the reply, not its time: what a 3000-record log takes at 115200 baud */
  g_autoptr(TksSession) session = session_connect_at (address, 115200, &wait, &error);
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GPtrArray) history = NULL;
  g_autofree char *kept = NULL;
  gsize kept_len = 0;
  gint64 start;

  g_assert_no_error (error);
  /* A sanitized build on a loaded machine reads a few hundred KB a second: time enough for the
   * bound to end the reply before its deadline does (a minute more than the link's pace). */
  tks_session_set_timeout (session, 60 * 1000);
  start = g_get_monotonic_time ();
  capture = session_fetch (session, &wait, &error);
  g_assert_null (capture);
  g_test_message ("%s (after %.2f s; the board sent %" G_GUINT64_FORMAT " bytes)", error->message,
                  (g_get_monotonic_time () - start) / 1e6, server_sent (&server));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_TOO_LONG);
  g_assert_nonnull (strstr (error->message, "The reply to “threads_timestamps” passed"));
  g_assert_nonnull (strstr (error->message, "stopped reading"));
  /* read no further than the bound: the most records any log is taken to hold */
  g_assert_cmpuint (bytes_read_in (error->message), <, 8 * 1000 * 1000);
  /* (the bound ended it, not its deadline: the error says so; how long reading up to
   * the bound takes is the machine's affair, 0.13 s here, seconds under the sanitizers) */
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_IDLE);

  /* its first and last 64 KiB are kept, with the list before it, not the whole reply */
  history = tks_session_list_history ();
  g_assert_cmpuint (history->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (history, 0), ".raw.txt"));
  g_assert_nonnull (strstr (error->message, g_ptr_array_index (history, 0)));
  g_assert_true (g_file_get_contents (g_ptr_array_index (history, 0), &kept, &kept_len, NULL));
  g_assert_cmpuint (kept_len, <, 200 * 1024);
  g_assert_true (g_str_has_prefix (kept, "threads_list\r\nThread number  1"));
  g_assert_nonnull (strstr (kept, "bytes of the reply to “threads_timestamps” left out here]"));

  /* the board is brought back to a prompt: the session goes on */
  assert_usable (session, &wait);

  session_end (session, &server, &wait);
}

/* A dump whose head announces 10 records, then records without end: its bound is tightened
 * by what the head says. */
static void
test_session_endless_dump (void)
{
  Server server = { 0 };
  TksWait wait = { 0 };
  g_autofree char *address = server_start (&server, FALSE, TKS_HOSTILE_ENDLESS, "threads_dump", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksSession) session = session_connect_at (address, 115200, &wait, &error);

  g_assert_no_error (error);
  g_assert_true (tks_session_has_snapshot_command (session));
  g_assert_null (session_fetch (session, &wait, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_TOO_LONG);
  g_assert_nonnull (strstr (error->message, "The reply to “threads_dump” passed"));
  g_assert_nonnull (strstr (error->message, "the log holds at most 10 records"));
  /* 2 × 10 records, a list and the margin: not the 6.9 MB of an unknown log */
  g_assert_cmpuint (bytes_read_in (error->message), <, 256 * 1024);
  session_end (session, &server, &wait);
}

/* Endless replies to commands whose answers are short: help (at connect), trigger, run. */
static void
test_session_endless_short (gconstpointer data)
{
  const char *target = data;
  Server server = { 0 };
  TksWait wait = { 0 };
  g_autofree char *address = server_start (&server, FALSE, TKS_HOSTILE_ENDLESS, target, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksSession) session = NULL;
  g_autofree char *wanted = g_strdup_printf ("The reply to “%s” passed", target);
  gint64 start = g_get_monotonic_time ();

  session = session_connect (address, &wait, &error);
  if (g_str_equal (target, "help"))
    g_assert_null (session);
  else
    {
      g_assert_no_error (error);
      if (g_str_equal (target, "threads_timestamps_trigger"))
        {
          tks_session_trigger_async (session, NULL, tks_wait_done, &wait);
          g_assert_null (tks_session_trigger_finish (session, tks_wait_for (&wait), &error));
        }
      else
        {
          tks_session_run_async (session, NULL, tks_wait_done, &wait);
          g_assert_false (tks_session_run_finish (session, tks_wait_for (&wait), &error));
        }
    }
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_TOO_LONG);
  g_assert_nonnull (strstr (error->message, wanted));
  g_assert_cmpuint (bytes_read_in (error->message), <, 100 * 1024);
  /* (at the bound, not at the reply's deadline: the error says so) */
  g_test_message ("after %.2f s", (g_get_monotonic_time () - start) / 1e6);

  session_end (session, &server, &wait);
}

/* One line that never ends, and a board that sends one byte every 100 ms forever: both end,
 * at the reply's bound or its deadline, and the session goes on. */
static void
test_session_endless_line (gconstpointer data)
{
  TksHostileMode mode = GPOINTER_TO_INT (data);
  Server server = { 0 };
  TksWait wait = { 0 };
  g_autofree char *address = server_start (&server, TRUE, mode, "threads_timestamps", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksSession) session = session_connect (address, &wait, &error);
  g_autoptr(TksCapture) capture = NULL;
  gint64 start;

  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  capture = session_fetch (session, &wait, &error);
  g_assert_null (capture);
  g_test_message ("%s (after %.2f s)", error->message, (g_get_monotonic_time () - start) / 1e6);
  if (mode == TKS_HOSTILE_TRICKLE)
    {
      g_assert_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT);
      g_assert_nonnull (strstr (error->message, "“threads_timestamps” was not complete within"));
    }
  else
    {
      g_assert_error (error, TKS_ERROR, TKS_ERROR_TOO_LONG);
      g_assert_nonnull (strstr (error->message, "The reply to “threads_timestamps” passed"));
    }
  /* (each ends by its own rule, the bound or the reply's time, a silence and its transfer time
   * at 4 Mbaud: the errors say which) */
  assert_usable (session, &wait);

  session_end (session, &server, &wait);
}

typedef struct
{
  TksHostileMode  mode;
  const char     *target;
} MidPromptCase;

/* A prompt at the start of a line in the middle of the log, the rest in a write of its own,
 * at once or after a pause: the fetch does not pass half a log off as the whole one. */
static void
test_session_mid_prompt (gconstpointer data)
{
  const MidPromptCase *c = data;
  const char *target = c->target;
  Server server = { 0 };
  TksWait wait = { 0 };
  g_autofree char *address = server_start (&server, FALSE, c->mode, target, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksSession) session = session_connect (address, &wait, &error);
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GPtrArray) history = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *whole = tks_hostile_board_reply (target);

  g_assert_no_error (error);
  capture = session_fetch (session, &wait, &error);
  if (capture != NULL)
    g_test_message ("fetched %u records", tks_capture_get_n_records (capture));
  g_assert_null (capture);
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "arrived damaged"));
  g_assert_nonnull (strstr (error->message, "prompt “ch> ”"));
  g_assert_nonnull (strstr (error->message, target));
  g_assert_nonnull (strstr (error->message, "are kept in"));

  /* everything received is kept: both halves */
  history = tks_session_list_history ();
  g_assert_cmpuint (history->len, ==, 1);
  g_assert_true (g_file_get_contents (g_ptr_array_index (history, 0), &kept, NULL, NULL));
  g_assert_nonnull (strstr (kept, whole + strlen (whole) - 20));
  whole[100] = '\0';
  g_assert_nonnull (strstr (kept, whole));

  /* and the session goes on */
  assert_usable (session, &wait);

  session_end (session, &server, &wait);
}

/* 20 records arrive with a NUL byte: the capture warns of each, from what was received, and
 * the received bytes are kept next to it in the history. */
static void
test_session_nul_damage (void)
{
  Server server = { 0 };
  TksWait wait = { 0 };
  g_autofree char *address = server_start (&server, FALSE, TKS_HOSTILE_NUL_DAMAGE,
                                           "threads_timestamps", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksSession) session = session_connect (address, &wait, &error);
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksCapture) from_raw = NULL;
  g_autoptr(GPtrArray) history = NULL;
  const char * const *warnings;
  guint n_warnings = 0, n_unreadable = 0;
  const char *raw;

  g_assert_no_error (error);
  capture = session_fetch (session, &wait, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 3000 - 20);
  warnings = tks_capture_get_warnings (capture, &n_warnings);
  for (guint i = 0; i < n_warnings; i++)
    if (strstr (warnings[i], "unreadable log line") != NULL)
      n_unreadable++;
  g_assert_cmpuint (n_unreadable, ==, 20);

  /* the bytes as received, next to the capture; the warnings name their lines */
  raw = tks_session_get_last_raw_path (session);
  g_assert_nonnull (raw);
  g_assert_true (g_str_has_suffix (raw, ".raw.txt"));
  from_raw = tks_capture_new_from_file (raw, &error);
  g_assert_no_error (error);
  {
    guint n = 0;
    const char * const *again = tks_capture_get_warnings (from_raw, &n);

    g_assert_cmpuint (n, ==, n_warnings);
    for (guint i = 0; i < n; i++)
      g_assert_cmpstr (again[i], ==, warnings[i]);
  }
  /* one fetch in the history menu: the capture; its received bytes are beside it */
  history = tks_session_list_history ();
  g_assert_cmpuint (history->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (history, 0), ==, tks_session_get_last_saved_path (session));

  session_end (session, &server, &wait);
}

/* A reply without its prompt: a timeout naming the reply, and the session goes on. */
static void
test_session_no_prompt (void)
{
  Server server = { 0 };
  TksWait wait = { 0 };
  g_autofree char *address = server_start (&server, FALSE, TKS_HOSTILE_NO_PROMPT,
                                           "threads_timestamps", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksSession) session = session_connect (address, &wait, &error);
  gint64 start = g_get_monotonic_time ();

  g_assert_no_error (error);
  g_assert_null (session_fetch (session, &wait, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "“threads_timestamps” stopped after"));
  g_test_message ("after %.2f s", (g_get_monotonic_time () - start) / 1e6);
  assert_usable (session, &wait);

  session_end (session, &server, &wait);
}

/* The history keeps to its size: the oldest fetches go first, never the newest. */
static void
test_history_limit (void)
{
  Server server = { 0 };
  TksWait wait = { 0 };
  char *address = server_start (&server, FALSE, TKS_HOSTILE_NONE, "threads_timestamps", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksSession) session = tks_session_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  tks_session_set_timeout (session, SILENCE_MS);
  tks_session_set_baud (session, 4000000);
  /* a capture of this board takes about 80 KB: room for two */
  tks_session_set_history_limit (session, 200 * 1000);
  tks_session_connect_async (session, address, NULL, tks_wait_done, &wait);
  g_free (address);
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait), &error));

  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(TksCapture) capture = session_fetch (session, &wait, &error);
      g_autoptr(GPtrArray) history = NULL;
      guint64 total = 0;

      g_assert_no_error (error);
      g_assert_nonnull (capture);
      g_ptr_array_add (names, g_strdup (tks_session_get_last_saved_path (session)));
      history = tks_session_list_history ();
      for (guint j = 0; j < history->len; j++)
        {
          GStatBuf st;

          g_assert_cmpint (g_stat (g_ptr_array_index (history, j), &st), ==, 0);
          total += (guint64) st.st_size;
        }
      g_assert_cmpuint (total, <=, 200 * 1000);
      g_assert_cmpuint (history->len, ==, MIN (i + 1, 2));
      /* the newest stays, and the one before it */
      g_assert_cmpstr (g_ptr_array_index (history, 0), ==, g_ptr_array_index (names, i));
      if (i > 0)
        g_assert_cmpstr (g_ptr_array_index (history, 1), ==, g_ptr_array_index (names, i - 1));
      g_usleep (2000); /* names have milliseconds */
    }

  tks_session_disconnect (session);
  server_stop (&server);

  /* a limit below one capture still keeps the newest */
  address = server_start (&server, FALSE, TKS_HOSTILE_NONE, "threads_timestamps", 0);
  tks_session_set_history_limit (session, 1000);
  tks_session_connect_async (session, address, NULL, tks_wait_done, &wait);
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait), &error));
  {
    g_autoptr(TksCapture) capture = session_fetch (session, &wait, &error);
    g_autoptr(GPtrArray) history = tks_session_list_history ();

    g_assert_no_error (error);
    g_assert_nonnull (capture);
    g_assert_cmpuint (history->len, ==, 1);
    g_assert_cmpstr (g_ptr_array_index (history, 0), ==, tks_session_get_last_saved_path (session));
  }
  g_free (address);
  session_end (session, &server, &wait);
}

/* A reply that keeps coming, never pausing, under a generous bound: it still ends at its
 * deadline, checked on every read and not only when a read brings nothing. */
static void
test_shell_deadline (void)
{
  TksShellLimit limit = { (gsize) 1 << 30, "a bound far away", FALSE };
  g_autoptr(TksShell) shell = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;
  TksHostileBoard *board;
  gint64 start;
  int fds[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), ==, 0);
  /* (offering without end: the reply must end at its deadline, not when the board stops) */
  board = tks_hostile_board_start (fds[1], TKS_HOSTILE_STEADY, "threads_timestamps", 0, 0);
  shell = tks_shell_new (tks_transport_open_fd (fds[0], TKS_TRANSPORT_DEMO, "test board", 115200,
                                                NULL));
  tks_shell_set_timeout (shell, SILENCE_MS);
  start = g_get_monotonic_time ();
  reply = tks_shell_command_limited (shell, &(TksShellRequest) { "threads_timestamps", 0, &limit,
                                                                 NULL, NULL, NULL },
                                     NULL, NULL, &error);
  g_test_message ("%s (after %.2f s; the board sent %" G_GUINT64_FORMAT " bytes)",
                  error ? error->message : "a reply", (g_get_monotonic_time () - start) / 1e6,
                  tks_hostile_board_get_sent (board));
  g_assert_null (reply);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT);
  /* (at its deadline while bytes kept coming: no silence ended it) */
  g_assert_nonnull (strstr (error->message, "“threads_timestamps” was not complete within 3.0 s"));
  g_clear_pointer (&shell, tks_shell_free);
  tks_hostile_board_stop (board);
}

/* tickscope-cli as a user runs it, with its peak memory (ru_maxrss) and time. */

typedef struct
{
  int    status;
  char  *out;
  char  *err;
  glong  maxrss_kb;
  double seconds;
} CliRun;

static void
cli_run_clear (CliRun *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliRun, cli_run_clear)

static CliRun
run_cli (const char *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  /* in English, whatever language the user asks for */
  g_auto(GStrv) envp = g_environ_unsetenv (g_environ_setenv (g_get_environ (), "LC_ALL", "C.UTF-8",
                                                             TRUE), "LANGUAGE");
  g_autoptr(GError) error = NULL;
  GString *out = g_string_new (NULL);
  GString *err = g_string_new (NULL);
  struct rusage ru;
  CliRun r = { 0 };
  int out_fd, err_fd, status = 0;
  gint64 start = g_get_monotonic_time ();
  GPid pid;
  va_list ap;

  /* the history in this test's own folder */
  envp = g_environ_setenv (envp, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_ptr_array_add (argv, (char *) TICKSCOPE_CLI);
  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv->pdata, envp,
                                           G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                           NULL, &out_fd, &err_fd, &error));
  g_assert_no_error (error);
  {
    struct pollfd fds[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
    GString *into[2] = { out, err };

    while (fds[0].fd >= 0 || fds[1].fd >= 0)
      {
        g_assert_cmpint (poll (fds, 2, 60 * 1000), >, 0);
        for (int i = 0; i < 2; i++)
          if (fds[i].fd >= 0 && fds[i].revents != 0)
            {
              char buf[4096];
              gssize n = read (fds[i].fd, buf, sizeof buf);

              if (n > 0)
                g_string_append_len (into[i], buf, n);
              else
                {
                  close (fds[i].fd);
                  fds[i].fd = -1;
                }
            }
      }
  }
  g_assert_cmpint (wait4 (pid, &status, 0, &ru), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (WIFEXITED (status));
  r.status = WEXITSTATUS (status);
  r.maxrss_kb = ru.ru_maxrss;
  r.seconds = (g_get_monotonic_time () - start) / 1e6;
  r.out = g_string_free (out, FALSE);
  r.err = g_string_free (err, FALSE);
  g_test_message ("exit %d after %.2f s, peak %ld KiB; stderr: %s", r.status, r.seconds,
                  r.maxrss_kb, r.err);
  return r;
}

typedef struct
{
  const char     *cli_command;  /* fetch, trigger, run */
  TksHostileMode  mode;
  const char     *target;
  gboolean        pty;
} CliCase;

/* An endless reply to each of fetch, trigger and run: a message naming the command and the
 * bytes read, within seconds, and the CLI's memory stays small while the board offers
 * 256 MiB. */
static void
test_cli_endless (gconstpointer data)
{
  const CliCase *c = data;
  Server server = { 0 };
  g_autofree char *address = server_start (&server, c->pty, c->mode, c->target, 0);
  g_autofree char *wanted = g_strdup_printf ("The reply to “%s” passed", c->target);
  g_autofree char *prefix = g_strdup_printf ("tickscope-cli %s: ", c->cli_command);
  g_auto(CliRun) r = { 0 };

  if (g_str_equal (c->cli_command, "fetch"))
    r = run_cli ("fetch", address, "-o", "-", "--quiet", NULL);
  else
    r = run_cli (c->cli_command, address, NULL);
  g_test_message ("the board sent %" G_GUINT64_FORMAT " bytes", server_sent (&server));
  server_stop (&server);

  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, prefix));
  g_assert_nonnull (strstr (r.err, wanted));
  g_assert_nonnull (strstr (r.err, "stopped reading"));
  g_assert_cmpstr (r.out, ==, "");
  /* (at the bound, not at the reply's deadline, 15.5 s for a 3000-record log at 115200 baud:
   * "stopped reading" says so) */
  g_assert_cmpuint (bytes_read_in (r.err), <, 8 * 1000 * 1000);
  g_assert_cmpint (r.maxrss_kb, <, CLI_RSS_MAX_KB);
}

/* A prompt in the middle of the log: the fetch fails as damaged, exit 1, the received bytes
 * kept; NUL bytes in 20 records: the capture is written, with 20 warnings from what was
 * received, and the received bytes kept next to it. */
static void
test_cli_damage (gconstpointer data)
{
  TksHostileMode mode = GPOINTER_TO_INT (data);
  Server server = { 0 };
  g_autofree char *address = server_start (&server, TRUE, mode, "threads_timestamps", 0);
  g_autofree char *dir = g_dir_make_tmp ("tickscope-hostile-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "fetched.txt", NULL);
  g_auto(CliRun) r = run_cli ("fetch", address, "-o", out, NULL);

  server_stop (&server);
  if (mode == TKS_HOSTILE_MID_PROMPT || mode == TKS_HOSTILE_MID_PROMPT_PAUSE)
    {
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, "arrived damaged"));
      g_assert_nonnull (strstr (r.err, "the reply to “threads_timestamps” holds a prompt “ch> ” "
                                       "at the start of its line "));
      g_assert_nonnull (strstr (r.err, "are kept in"));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  else
    {
      g_auto(GStrv) lines = g_strsplit (r.err, "\n", -1);
      guint n_unreadable = 0;

      g_assert_cmpint (r.status, ==, 0);
      for (guint i = 0; lines[i] != NULL; i++)
        if (g_str_has_prefix (lines[i], "tickscope-cli fetch: line ")
            && strstr (lines[i], "warning: unreadable log line skipped") != NULL)
          n_unreadable++;
      g_assert_cmpuint (n_unreadable, ==, 20);
      g_assert_nonnull (strstr (r.err, "warning: the board's replies arrived damaged; the bytes "
                                       "as received are kept in "));
      g_assert_nonnull (strstr (r.err, "2980 records"));
      g_unlink (out);
    }
  g_rmdir (dir);
}

static const MidPromptCase mid_prompt_cases[] = {
  { TKS_HOSTILE_MID_PROMPT, "threads_timestamps" },
  { TKS_HOSTILE_MID_PROMPT, "threads_list" },
  { TKS_HOSTILE_MID_PROMPT_PAUSE, "threads_timestamps" },
  { TKS_HOSTILE_MID_PROMPT_PAUSE, "threads_list" },
};

static const CliCase cli_cases[] = {
  { "fetch", TKS_HOSTILE_ENDLESS, "threads_timestamps", FALSE },
  { "fetch", TKS_HOSTILE_ENDLESS_LINE, "threads_timestamps", TRUE },
  { "fetch", TKS_HOSTILE_ENDLESS, "threads_list", FALSE },
  { "fetch", TKS_HOSTILE_ENDLESS, "help", TRUE },
  { "trigger", TKS_HOSTILE_ENDLESS, "threads_timestamps_trigger", FALSE },
  { "run", TKS_HOSTILE_ENDLESS, "threads_timestamps_run", TRUE },
};

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_data_func ("/hostile/session/tcp/endless-records", GINT_TO_POINTER (FALSE), test_session_endless);
  g_test_add_data_func ("/hostile/session/pty/endless-records", GINT_TO_POINTER (TRUE), test_session_endless);
  g_test_add_data_func ("/hostile/session/endless-help", "help", test_session_endless_short);
  g_test_add_func ("/hostile/session/endless-dump", test_session_endless_dump);
  g_test_add_data_func ("/hostile/session/endless-trigger", "threads_timestamps_trigger", test_session_endless_short);
  g_test_add_data_func ("/hostile/session/endless-run", "threads_timestamps_run", test_session_endless_short);
  g_test_add_data_func ("/hostile/session/pty/endless-line", GINT_TO_POINTER (TKS_HOSTILE_ENDLESS_LINE), test_session_endless_line);
  g_test_add_data_func ("/hostile/session/pty/trickle", GINT_TO_POINTER (TKS_HOSTILE_TRICKLE), test_session_endless_line);
  for (guint i = 0; i < G_N_ELEMENTS (mid_prompt_cases); i++)
    {
      const MidPromptCase *c = &mid_prompt_cases[i];
      g_autofree char *path = g_strdup_printf ("/hostile/session/%s-%s",
                                               c->mode == TKS_HOSTILE_MID_PROMPT_PAUSE
                                               ? "mid-prompt-pause" : "mid-prompt",
                                               g_str_equal (c->target, "threads_list")
                                               ? "list" : "log");

      g_test_add_data_func (path, c, test_session_mid_prompt);
    }
  g_test_add_func ("/hostile/session/nul-damage", test_session_nul_damage);
  g_test_add_func ("/hostile/session/no-prompt", test_session_no_prompt);
  g_test_add_func ("/hostile/session/history-limit", test_history_limit);
  g_test_add_func ("/hostile/shell/deadline", test_shell_deadline);
  for (guint i = 0; i < G_N_ELEMENTS (cli_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/hostile/cli/%s/%s/%s-%s", cli_cases[i].cli_command,
                                               cli_cases[i].pty ? "pty" : "tcp",
                                               cli_cases[i].mode == TKS_HOSTILE_ENDLESS_LINE
                                               ? "endless-line" : "endless", cli_cases[i].target);

      g_test_add_data_func (path, &cli_cases[i], test_cli_endless);
    }
  g_test_add_data_func ("/hostile/cli/fetch/pty/mid-prompt", GINT_TO_POINTER (TKS_HOSTILE_MID_PROMPT), test_cli_damage);
  g_test_add_data_func ("/hostile/cli/fetch/pty/mid-prompt-pause",
                        GINT_TO_POINTER (TKS_HOSTILE_MID_PROMPT_PAUSE), test_cli_damage);
  g_test_add_data_func ("/hostile/cli/fetch/pty/nul-damage", GINT_TO_POINTER (TKS_HOSTILE_NUL_DAMAGE), test_cli_damage);

  return g_test_run ();
}
