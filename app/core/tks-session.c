/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tks-error.h"
#include "tks-parser.h"
#include "tks-session.h"
#include "tks-session-private.h"
#include "tks-shell.h"
#include "tks-transport.h"

#define DEFAULT_BAUD        115200
#define DEFAULT_TIMEOUT_MS  2000
#define DEFAULT_LOG_SIZE    3000
#define MAX_EXPECTED_LOG    (1u << 18) /* what a board's word is taken for, to size buffers */
#define RECORD_BYTES        26    /* "From %2d to %2d at %7d\r\n" */
#define COMPACT_RECORD_BYTES 8    /* a record of threads_dump_compact, events and counter included */
#define LIST_LINE_BYTES     60
#define DUMP_END_BYTES      64    /* "End of dump: N records, checksum X" */
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 20)

/* What each reply can legitimately hold, with a margin: a longer one is not a reply. */
#define LIST_MAX_THREADS    1024
#define LIST_MAX_BYTES      ((gsize) LIST_MAX_THREADS * 128)
#define HELP_MAX_BYTES      ((gsize) 16 * 1024)
#define LINE_MAX_BYTES      ((gsize) 4 * 1024)   /* a one-line answer: trigger, run */
#define COMMAND_MAX_BYTES   ((gsize) 256 * 1024) /* any other command: info, systime, threads_stat */
#define REPLY_MARGIN_BYTES  ((gsize) 64 * 1024)
#define KEPT_END_BYTES      ((gsize) 64 * 1024)  /* of a failed reply: its first and last bytes */
#define DEFAULT_HISTORY_MAX ((guint64) 500 * 1000 * 1000)

/*
 * One connection: a worker thread that owns the transport and the shell, fed through a queue
 * of jobs. Results go back to the main context of whoever asked (GTask).
 */
typedef struct
{
  guint                id;
  GAsyncQueue         *jobs;
  GCancellable        *cancellable;   /* cancelled by disconnect */
  GThread             *thread;

  /* Settings at connect time (read-only afterwards) */
  char                *address;
  TksTransportOptions  options;
  guint                timeout_ms;
  gboolean             slow_paste;
  gboolean             save_history;
  guint64              history_max_bytes;
  gboolean             prefer_snapshot;

  /* Worker thread only, until the connect job completes; read-only afterwards except
   * expected_records (worker only). */
  TksShell            *shell;
  gboolean             dead;
  char                *description;
  GStrv                commands;
  gboolean             has_dump;
  gboolean             has_compact;   /* threads_dump_compact: the log in the compact encoding */
  guint                log_size;         /* from the board, 0 when unknown */
  guint                expected_records; /* largest log seen */
} Link;

typedef enum
{
  JOB_CONNECT,
  JOB_COMMAND,
  JOB_TRIGGER,
  JOB_RUN,
  JOB_FETCH,
  JOB_QUIT,
} JobKind;

typedef struct
{
  JobKind  kind;
  GTask   *task;
  char    *command;
  Link    *link;
  guint    link_id;

  /* filled by the worker */
  GError  *error;
  gpointer result;
  GDestroyNotify result_free;
  gboolean link_lost;
  char    *saved_path;
  char    *raw_path;      /* the received bytes, kept when they arrived damaged */

  /* fetch progress (worker) */
  gint64   start_us;
  gint64   last_progress_us;
  guint64  bytes_before;
  guint64  bytes;
  guint    records;
  gsize    expected_bytes;
  guint    expected_records;
  TksParser *parser;    /* reads the log while it arrives */
  TksShellLimit limit;  /* of the reply being read */
  char    *limit_bound;
  GString *transcript;  /* the replies received so far, as the shell showed them */
} Job;

typedef struct
{
  TksSession *session;
  guint       link_id;
  guint64     bytes;
  guint       records;
  double      fraction;
  double      seconds_left;
} Progress;

struct _TksSession
{
  GObject          parent_instance;

  TksSessionState  state;
  char            *address;
  char            *description;
  guint            baud;
  guint            timeout_ms;
  gboolean         slow_paste;
  guint            flow_control;
  gboolean         save_history;
  guint64          history_max_bytes;
  gboolean         prefer_snapshot;
  char            *last_saved_path;
  guint64          last_fetch_bytes;
  double           last_fetch_seconds;
  char            *last_raw_path;

  Link            *link;
  guint            link_id;   /* of the current link; 0 when none */
  guint            pending;
};

G_DEFINE_FINAL_TYPE (TksSession, tks_session, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (TksSessionState, tks_session_state,
  G_DEFINE_ENUM_VALUE (TKS_SESSION_DISCONNECTED, "disconnected"),
  G_DEFINE_ENUM_VALUE (TKS_SESSION_CONNECTING, "connecting"),
  G_DEFINE_ENUM_VALUE (TKS_SESSION_IDLE, "idle"),
  G_DEFINE_ENUM_VALUE (TKS_SESSION_BUSY, "busy"))

enum
{
  PROP_0,
  PROP_STATE,
  PROP_ADDRESS,
  PROP_DESCRIPTION,
  PROP_BAUD,
  PROP_TIMEOUT,
  PROP_SLOW_PASTE,
  N_PROPS
};

enum
{
  SIGNAL_PROGRESS,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint next_link_id;
static guint signals[N_SIGNALS];

/* Links */

static void
link_free (Link *link)
{
  g_async_queue_unref (link->jobs);
  g_clear_object (&link->cancellable);
  g_clear_pointer (&link->shell, tks_shell_free);
  g_free (link->address);
  g_free (link->description);
  g_strfreev (link->commands);
  g_free (link);
}

static void
job_free (Job *job)
{
  g_clear_object (&job->task);
  g_clear_error (&job->error);
  if (job->result != NULL && job->result_free != NULL)
    job->result_free (job->result);
  g_free (job->command);
  g_free (job->saved_path);
  g_free (job->raw_path);
  g_free (job->limit_bound);
  if (job->transcript != NULL)
    g_string_free (job->transcript, TRUE);
  g_clear_pointer (&job->parser, tks_parser_free);
  g_free (job);
}

static void
set_state (TksSession      *self,
           TksSessionState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
set_description (TksSession *self,
                 const char *description)
{
  if (g_strcmp0 (self->description, description) == 0)
    return;
  g_free (self->description);
  self->description = g_strdup (description);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DESCRIPTION]);
}

/* Ends the current connection: the worker finishes what it holds with a cancellation and
 * closes the link. Bounded: every wait in the worker watches the link's cancellable. */
static void
drop_link (TksSession *self)
{
  Link *link = g_steal_pointer (&self->link);
  GThread *thread;
  Job *quit;

  if (link == NULL)
    return;

  quit = g_new0 (Job, 1);
  quit->kind = JOB_QUIT;
  thread = link->thread;
  g_cancellable_cancel (link->cancellable);
  /* From here on the link belongs to the worker, which frees it after its last job. Joining
   * releases the transport (and the simulated board) before a new connection is made. */
  g_async_queue_push (link->jobs, quit);
  g_thread_join (thread);
  self->pending = 0;
  self->link_id = 0;
}

/* Runs @func in @context's thread, never in the calling worker (g_main_context_invoke() could
 * run it right here when nobody iterates the context at that moment). */
static void
post_to_context (GMainContext   *context,
                 GSourceFunc     func,
                 gpointer        data,
                 GDestroyNotify  notify)
{
  GSource *source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, data, notify);
  g_source_set_static_name (source, "[tickscope] session result");
  g_source_attach (source, context);
  g_source_unref (source);
}

/* Completion, in the caller's main context */

static gboolean
complete_in_main (gpointer data)
{
  Job *job = data;
  TksSession *self = g_task_get_source_object (job->task);
  gboolean current = self->link != NULL && self->link_id == job->link_id;

  if (current)
    {
      if (job->kind == JOB_CONNECT)
        {
          if (job->error == NULL)
            {
              set_description (self, job->link->description);
              set_state (self, self->pending > 0 ? TKS_SESSION_BUSY : TKS_SESSION_IDLE);
            }
        }
      else if (self->pending > 0)
        {
          self->pending--;
          if (self->pending == 0 && self->state == TKS_SESSION_BUSY)
            set_state (self, TKS_SESSION_IDLE);
        }

      if (job->saved_path != NULL)
        {
          g_free (self->last_saved_path);
          self->last_saved_path = g_strdup (job->saved_path);
        }
      if (job->kind == JOB_FETCH)
        {
          g_free (self->last_raw_path);
          self->last_raw_path = g_strdup (job->raw_path);
          self->last_fetch_bytes = job->bytes;
          self->last_fetch_seconds = (g_get_monotonic_time () - job->start_us) / (double) G_USEC_PER_SEC;
        }

      if (job->link_lost || (job->kind == JOB_CONNECT && job->error != NULL))
        {
          drop_link (self);
          set_state (self, TKS_SESSION_DISCONNECTED);
        }
    }

  if (job->error != NULL)
    g_task_return_error (job->task, g_steal_pointer (&job->error));
  else if (job->kind == JOB_CONNECT || job->kind == JOB_RUN)
    g_task_return_boolean (job->task, TRUE);
  else
    {
      g_task_return_pointer (job->task, g_steal_pointer (&job->result), job->result_free);
      job->result_free = NULL;
    }
  job_free (job);
  return G_SOURCE_REMOVE;
}

static void
complete_job (Job *job)
{
  post_to_context (g_task_get_context (job->task), complete_in_main, job, NULL);
}

static gboolean
emit_progress_in_main (gpointer data)
{
  Progress *p = data;

  if (p->session->link != NULL && p->session->link_id == p->link_id)
    g_signal_emit (p->session, signals[SIGNAL_PROGRESS], 0,
                   p->bytes, p->records, p->fraction, p->seconds_left);
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *p = data;

  g_object_unref (p->session);
  g_free (p);
}

static void
post_progress (Job      *job,
               gboolean  final)
{
  Progress *p;
  gint64 now = g_get_monotonic_time ();
  double elapsed = (now - job->start_us) / (double) G_USEC_PER_SEC;

  if (job->task == NULL)
    return; /* run on a shell directly: nobody to tell */
  p = g_new0 (Progress, 1);
  p->session = g_object_ref (g_task_get_source_object (job->task));
  p->link_id = job->link_id;
  p->bytes = job->bytes;
  p->records = job->records;
  p->fraction = -1;
  p->seconds_left = -1;
  if (final)
    {
      p->fraction = 1.0;
      p->seconds_left = 0;
    }
  else if (job->expected_records > 0)
    {
      p->fraction = CLAMP ((double) job->records / job->expected_records, 0.0, 0.99);
      if (elapsed > 0.05 && job->bytes > 0)
        {
          double rate = job->bytes / elapsed;
          double left = (double) job->expected_bytes - (double) job->bytes;

          p->seconds_left = left > 0 ? left / rate : 0;
        }
    }
  job->last_progress_us = now;
  post_to_context (g_task_get_context (job->task), emit_progress_in_main, p, progress_free);
}

/* Bounds the reply being read by a log of @records records (0: unknown, the most any board's
 * log is taken to hold), plus @extra bytes for what comes with it. */
static void
set_log_limit (Job   *job,
               guint  records,
               gsize  extra)
{
  gboolean known = records > 0 && records <= MAX_EXPECTED_LOG;

  records = known ? records : MAX_EXPECTED_LOG;
  /* a known size gets twice its bytes; the largest any board is taken to have, its own */
  job->limit.max_bytes = (known ? 2 : 1) * (gsize) records * RECORD_BYTES + extra
                         + REPLY_MARGIN_BYTES;
  g_free (job->limit_bound);
  job->limit_bound = known
    /* Translators: why a reply cannot be longer, in “The reply to “%s” passed %s (%u bytes
     * read; %s): stopped reading” */
    ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "the log holds at most %u record",
                                    "the log holds at most %u records", records), records)
    /* Translators: why a reply cannot be longer, as above */
    : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                    "no board's log is taken to hold more than %u record",
                                    "no board's log is taken to hold more than %u records",
                                    records), records);
  job->limit.bound = job->limit_bound;
}

static void
set_limit (Job        *job,
           gsize       max_bytes,
           const char *bound)
{
  job->limit.max_bytes = max_bytes;
  g_free (job->limit_bound);
  job->limit_bound = g_strdup (bound);
  job->limit.bound = job->limit_bound;
}

/* Called by the shell in the worker after every chunk. */
static void
fetch_progress (guint64  bytes,
                guint    lines,
                gpointer user_data)
{
  Job *job = user_data;

  guint announced = tks_parser_get_announced_records (job->parser);

  job->bytes = job->bytes_before + bytes;
  job->records = tks_parser_get_n_records (job->parser);
  if (announced > 0 && announced != job->expected_records)
    {
      /* The dump's header says how many records follow: the rest of the way is known. */
      job->expected_records = announced;
      job->expected_bytes = job->bytes + (gsize) (announced - MIN (job->records, announced)) * RECORD_BYTES
                            + DUMP_END_BYTES;
      set_log_limit (job, announced, LIST_MAX_BYTES);
    }
  if (g_get_monotonic_time () - job->last_progress_us >= PROGRESS_INTERVAL_US)
    post_progress (job, FALSE);
}

/* History */

char *
tks_session_get_history_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "tickscope", "captures", NULL);
}

static int
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  const char *pa = *(char * const *) a;
  const char *pb = *(char * const *) b;
  g_autofree char *ba = g_path_get_basename (pa);
  g_autofree char *bb = g_path_get_basename (pb);

  return -g_strcmp0 (ba, bb);
}

GPtrArray *
tks_session_list_history (void)
{
  g_autofree char *dir_path = tks_session_get_history_dir ();
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  if (dir == NULL)
    return files;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (!g_str_has_suffix (name, ".txt") || name[0] == '.')
        continue;
      /* The received bytes kept next to a capture built from them are not a second fetch. */
      if (g_str_has_suffix (name, ".raw.txt"))
        {
          g_autofree char *stem = g_strndup (name, strlen (name) - strlen (".raw.txt"));
          g_autofree char *capture = g_strconcat (dir_path, G_DIR_SEPARATOR_S, stem, ".txt", NULL);

          if (g_file_test (capture, G_FILE_TEST_EXISTS))
            continue;
        }
      g_ptr_array_add (files, g_build_filename (dir_path, name, NULL));
    }
  g_ptr_array_sort (files, compare_newest_first);
  return files;
}

/* Keeps the history folder under @max_bytes (0: no limit): the oldest files go first, never
 * @keep nor @keep_too (the fetch just saved and the bytes kept with it). */
static void
prune_history (guint64     max_bytes,
               const char *keep,
               const char *keep_too)
{
  g_autofree char *dir_path = tks_session_get_history_dir ();
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint64 total = 0;
  gboolean over = FALSE;

  if (max_bytes == 0 || (dir = g_dir_open (dir_path, 0, NULL)) == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".txt") && name[0] != '.')
      g_ptr_array_add (files, g_build_filename (dir_path, name, NULL));
  g_ptr_array_sort (files, compare_newest_first);

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      GStatBuf st;

      if (g_stat (path, &st) != 0)
        continue;
      if (g_strcmp0 (path, keep) == 0 || g_strcmp0 (path, keep_too) == 0)
        {
          total += (guint64) st.st_size;
          continue;
        }
      if (!over && total + (guint64) st.st_size <= max_bytes)
        {
          total += (guint64) st.st_size;
          continue;
        }
      over = TRUE;
      if (g_unlink (path) != 0)
        g_message ("Could not remove %s from the history: %s", path, g_strerror (errno));
    }
}

static char *
history_path (const char *address,
              const char *suffix,
              GError    **error)
{
  g_autofree char *dir = tks_session_get_history_dir ();
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d_%H-%M-%S");
  g_autofree char *safe = g_strdup (address);
  char *path = NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int errsv = errno;

      /* Translators: a folder, then the system's reason */
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Could not create the history folder %s: %s"),
                   dir, g_strerror (errsv));
      return NULL;
    }
  g_strcanon (safe, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.", '_');
  for (guint i = 0; i < 1000 && path == NULL; i++)
    {
      g_autofree char *name = i == 0
        ? g_strdup_printf ("%s.%03d_%s%s", stamp, g_date_time_get_microsecond (now) / 1000, safe, suffix)
        : g_strdup_printf ("%s.%03d_%s-%u%s", stamp, g_date_time_get_microsecond (now) / 1000, safe, i, suffix);
      char *candidate = g_build_filename (dir, name, NULL);

      if (!g_file_test (candidate, G_FILE_TEST_EXISTS))
        path = candidate;
      else
        g_free (candidate);
    }
  if (path == NULL)
    g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Could not name a file in %s"), dir);
  return path;
}

/* Worker */

static gboolean
job_failed (Job    *job,
            GError *error)
{
  /* The link itself is gone: no later command can work. */
  if (g_error_matches (error, TKS_ERROR, TKS_ERROR_DISCONNECTED))
    job->link_lost = TRUE;
  job->error = error;
  return FALSE;
}

static void meet_board (Link         *link,
                        Job          *job,
                        GCancellable *cancellable);

static void
run_connect (Link         *link,
             Job          *job,
             GCancellable *cancellable)
{
  GError *error = NULL;
  TksTransport *transport;

  transport = tks_transport_open (link->address, &link->options, cancellable, &error);
  if (transport == NULL)
    {
      job_failed (job, error);
      return;
    }
  link->shell = tks_shell_new (transport);
  tks_shell_set_timeout (link->shell, link->timeout_ms);
  tks_shell_set_slow_paste (link->shell, link->slow_paste);
  meet_board (link, job, cancellable);
}

/* Brings the board's shell to a prompt and asks what it offers. */
static void
meet_board (Link         *link,
            Job          *job,
            GCancellable *cancellable)
{
  /* Translators: why a reply cannot be longer, as above */
  TksShellLimit limit = { HELP_MAX_BYTES, _("a help lists a few dozen commands"), FALSE };
  GError *error = NULL;
  g_autofree char *help = NULL;

  if (!tks_shell_sync (link->shell, cancellable, &error))
    {
      job_failed (job, error);
      return;
    }

  help = tks_shell_command_limited (link->shell,
                                    &(TksShellRequest) { "help", 512, &limit, NULL, NULL, NULL },
                                    NULL, cancellable, &error);
  if (help == NULL)
    {
      if (!g_error_matches (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND))
        {
          job_failed (job, error);
          return;
        }
      g_clear_error (&error);
      link->commands = g_new0 (char *, 1);
    }
  else
    link->commands = tks_shell_parse_help (help);

  link->has_dump = g_strv_contains ((const char * const *) link->commands, "threads_dump");
  link->has_compact = g_strv_contains ((const char * const *) link->commands, "threads_dump_compact");
  g_free (link->description);
  /* Translators: the link (“/dev/ttyACM0 at 115200 baud”, “the simulated board”); shown in
   * the viewer's header, and kept as the source of the captures fetched through it */
  link->description = g_strdup_printf (_("ChibiOS shell on %s"),
                                       tks_transport_get_description (tks_shell_get_transport (link->shell)));
}

static void
feed_parser (const char *data,
             gsize       len,
             gpointer    user_data)
{
  Job *job = user_data;

  tks_parser_feed (job->parser, data, len);
}

static void
transcript_add (GString    *transcript,
                const char *command,
                const char *reply,
                gsize       len)
{
  g_string_append (transcript, command);
  g_string_append (transcript, "\r\n");
  g_string_append_len (transcript, reply, (gssize) len);
  g_string_append (transcript, TKS_SHELL_PROMPT);
}

/* Writes @text into the history under a new name ending in @suffix; the path, or NULL. */
static char *
save_in_history (Link       *link,
                 const char *suffix,
                 GString    *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = history_path (link->address, suffix, &error);

  if (path == NULL || !g_file_set_contents (path, text->str, (gssize) text->len, &error))
    {
      g_message ("Could not keep the received bytes: %s", error->message);
      return NULL;
    }
  return g_steal_pointer (&path);
}

/* Adds a sentence to the job's error. */
static void append_to_error (Job        *job,
                             const char *format,
                             ...) G_GNUC_PRINTF (2, 3);

static void
append_to_error (Job        *job,
                 const char *format,
                 ...)
{
  g_autofree char *more = NULL;
  char *message;
  va_list args;

  va_start (args, format);
  more = g_strdup_vprintf (format, args);
  va_end (args);
  message = g_strconcat (job->error->message, g_str_has_suffix (job->error->message, ".") ? " " : ". ",
                         more, NULL);
  g_free (job->error->message);
  job->error->message = message;
}

/* Keeps what the board sent when it could not be rebuilt, so nothing is lost; says where in
 * the job's error. */
static void
save_raw (Link    *link,
          Job     *job,
          GString *transcript)
{
  if (!link->save_history)
    return;
  job->saved_path = save_in_history (link, ".raw.txt", transcript);
  if (job->saved_path == NULL)
    return;
  prune_history (link->history_max_bytes, job->saved_path, NULL);
  append_to_error (job, _("The received bytes are kept in %s"), job->saved_path);
}

/* A reply that passed its bound: its first and last bytes are kept, with what came before it
 * in this fetch, and a line saying how much was left out between them. */
static void
save_failed_reply (Link       *link,
                   Job        *job,
                   const char *command)
{
  gsize len = 0;
  const guint8 *data = tks_shell_get_failed_reply (link->shell, &len);
  g_autoptr(GString) text = NULL;

  if (data == NULL || !link->save_history)
    return;
  text = g_string_new (job->transcript != NULL ? job->transcript->str : "");
  if (len <= 2 * KEPT_END_BYTES)
    g_string_append_len (text, (const char *) data, (gssize) len);
  else
    {
      g_string_append_len (text, (const char *) data, (gssize) KEPT_END_BYTES);
      g_string_append_printf (text, "\r\n[Tickscope: %" G_GSIZE_FORMAT " bytes of the reply to "
                              "“%s” left out here]\r\n", len - 2 * KEPT_END_BYTES, command);
      g_string_append_len (text, (const char *) data + len - KEPT_END_BYTES,
                           (gssize) KEPT_END_BYTES);
    }
  job->saved_path = save_in_history (link, ".raw.txt", text);
  if (job->saved_path == NULL)
    return;
  prune_history (link->history_max_bytes, job->saved_path, NULL);
  if (len <= 2 * KEPT_END_BYTES)
    append_to_error (job, _("Its bytes are kept in %s"), job->saved_path);
  else
    append_to_error (job, _("Its first and last 64 KiB are kept in %s"), job->saved_path);
}

/* Runs @command for a fetch, bounded by the job's limit; with @section, its reply goes into
 * the job's parser as it arrives (the parser then holds it all; on failure it is to be
 * dropped). The reply joins the job's transcript. */
static char *
checked_command (Link             *link,
                 Job              *job,
                 const char       *command,
                 gsize             expected_bytes,
                 TksParserSection  section,
                 gsize            *len,
                 GCancellable     *cancellable)
{
  GError *error = NULL;
  TksShellRequest request;
  char *reply;

  if (section != TKS_PARSER_SECTION_NONE)
    tks_parser_begin_reply (job->parser, section);
  /* A list or a log has no end of its own: a prompt ends it only once the board answers an
   * empty line after it with a bare prompt (text of the reply that came late is kept, and
   * shows as a prompt inside it). A dump's last line says it is whole. */
  job->limit.confirm_end = section == TKS_PARSER_SECTION_LIST || section == TKS_PARSER_SECTION_LOG;
  request = (TksShellRequest) { command, expected_bytes, &job->limit, fetch_progress,
                                section != TKS_PARSER_SECTION_NONE ? feed_parser : NULL, job };
  reply = tks_shell_command_limited (link->shell, &request, len, cancellable, &error);
  if (reply == NULL)
    {
      gboolean too_long = g_error_matches (error, TKS_ERROR, TKS_ERROR_TOO_LONG);

      job_failed (job, error);
      if (too_long)
        save_failed_reply (link, job, command);
      return NULL;
    }
  if (section != TKS_PARSER_SECTION_NONE)
    tks_parser_feed (job->parser, "\n", 1);
  transcript_add (job->transcript, command, reply, *len);
  return reply;
}

/* The capture @parsed gives (taken; NULL gives NULL), named for the link it came through
 * whatever the bytes say. */
static TksCapture *
link_capture (Link      *link,
              TksParsed *parsed)
{
  if (parsed == NULL)
    return NULL;
  g_free (parsed->source);
  parsed->source = g_strdup (link->description != NULL ? link->description : link->address);
  return tks_capture_new_from_parsed (parsed);
}

/* The capture the job's parser read, or NULL with @error set. */
static TksCapture *
finish_parser (Job     *job,
               GError **error)
{
  TksParser *parser = g_steal_pointer (&job->parser);
  TksParsed *parsed = tks_parser_finish (parser, error);

  tks_parser_free (parser);
  return link_capture (job->link, parsed);
}

static void
run_simple (Link         *link,
            Job          *job,
            GCancellable *cancellable)
{
  GError *error = NULL;
  const char *command = job->kind == JOB_TRIGGER ? "threads_timestamps_trigger"
                        : job->kind == JOB_RUN ? "threads_timestamps_run"
                        : job->command;
  /* Translators: why a reply cannot be longer, as above */
  TksShellLimit limit = { LINE_MAX_BYTES, _("the board answers it with one line"), FALSE };
  TksShellRequest request;
  char *reply;

  if (job->kind == JOB_COMMAND && g_str_has_prefix (command, "threads_"))
    /* the log library's commands: as much as the largest log and its list */
    limit = (TksShellLimit) { (gsize) MAX_EXPECTED_LOG * RECORD_BYTES + LIST_MAX_BYTES + REPLY_MARGIN_BYTES,
                              _("no board's log is taken to hold more than 262144 records"),
                              FALSE };
  else if (job->kind == JOB_COMMAND)
    limit = (TksShellLimit) { COMMAND_MAX_BYTES, _("no other shell command prints more"), FALSE };
  request = (TksShellRequest) { command, job->kind == JOB_COMMAND ? 4096 : 0, &limit,
                                NULL, NULL, NULL };
  reply = tks_shell_command_limited (link->shell, &request, NULL, cancellable, &error);
  if (reply == NULL)
    {
      job_failed (job, error);
      return;
    }
  if (job->kind == JOB_COMMAND)
    {
      job->result = reply;
      job->result_free = g_free;
      return;
    }

  g_strstrip (reply);
  if (job->kind == JOB_TRIGGER)
    {
      if (!g_str_has_prefix (reply, "Trigger set"))
        {
          job->error = g_error_new (TKS_ERROR, TKS_ERROR_PARSE,
                                    _("The board did not set the trigger; it answered “%s”"),
                                    reply);
          g_free (reply);
          return;
        }
      job->result = reply;
      job->result_free = g_free;
      return;
    }
  if (strstr (reply, "Run mode") == NULL)
    job->error = g_error_new (TKS_ERROR, TKS_ERROR_PARSE,
                              _("The board did not restart logging; it answered “%s”"), reply);
  g_free (reply);
}

typedef enum
{
  DAMAGE_NONE,
  DAMAGE_BYTES,   /* bytes no reply holds: the lines holding them are unreadable */
  DAMAGE_PROMPT,  /* a prompt inside the reply: where it really ended is not known */
} Damage;

/* How a reply was damaged on the way: a prompt at the start of a line inside it (the board
 * went on after what looked like the reply's end), or a byte no reply holds (NUL and other
 * control characters). @how names the first such place. */
static Damage
reply_damage (const char  *command,
              const char  *reply,
              gsize        len,
              char       **how)
{
  Damage found = DAMAGE_NONE;
  guint line = 1;

  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) reply[i];

      if ((i == 0 || reply[i - 1] == '\n') && len - i >= strlen (TKS_SHELL_PROMPT)
          && memcmp (reply + i, TKS_SHELL_PROMPT, strlen (TKS_SHELL_PROMPT)) == 0)
        {
          g_free (*how);
          /* Translators: how a reply is damaged: the shell command, then a line number */
          *how = g_strdup_printf (_("the reply to “%s” holds a prompt “ch> ” at the start of "
                                    "its line %u, and goes on after it"), command, line);
          return DAMAGE_PROMPT;
        }
      if (c == '\n')
        line++;
      else if (found == DAMAGE_NONE && ((c < 0x20 && c != '\r' && c != '\t') || c == 0x7f))
        {
          found = DAMAGE_BYTES;
          /* Translators: how a reply is damaged: the shell command, a byte, a line number */
          *how = g_strdup_printf (_("the reply to “%s” holds the byte 0x%02x on its line %u"),
                                  command, c, line);
        }
    }
  return found;
}

/* Saves the capture in the history, with the bytes it was built from next to it when they
 * arrived damaged (@received), so the damage stays to be seen. */
static void
keep_in_history (Link       *link,
                 Job        *job,
                 TksCapture *capture,
                 GString    *received)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *path = NULL;

  if (!link->save_history)
    return;
  if (!tks_capture_write (capture, text, NULL, 0)
      || (path = save_in_history (link, ".txt", text)) == NULL)
    {
      g_message ("Could not keep the capture in the history");
      return;
    }
  if (received != NULL)
    {
      g_autofree char *stem = g_strndup (path, strlen (path) - strlen (".txt"));
      g_autofree char *raw = g_strconcat (stem, ".raw.txt", NULL);
      g_autoptr(GError) error = NULL;

      if (g_file_set_contents (raw, received->str, (gssize) received->len, &error))
        job->raw_path = g_steal_pointer (&raw);
      else
        g_message ("Could not keep the received bytes: %s", error->message);
    }
  prune_history (link->history_max_bytes, path, job->raw_path);
  job->saved_path = g_steal_pointer (&path);
}

static void
run_fetch (Link         *link,
           Job          *job,
           GCancellable *cancellable)
{
  guint expected = link->log_size ? link->log_size : MAX (link->expected_records, DEFAULT_LOG_SIZE);
  g_autoptr(TksCapture) capture = NULL;
  g_autofree char *how = NULL;
  GError *error = NULL;
  Damage damage = DAMAGE_NONE;

  job->start_us = job->last_progress_us = g_get_monotonic_time ();
  job->expected_records = expected;
  job->expected_bytes = 64 * LIST_LINE_BYTES + (gsize) expected * RECORD_BYTES;
  job->parser = tks_parser_new ();
  job->transcript = g_string_new (NULL);
  tks_parser_reserve (job->parser, job->expected_bytes);

  if (link->has_dump && link->prefer_snapshot)
    {
      /* One consistent snapshot: header, list and log taken together, with a checksum; in
       * the compact encoding when the board has it (about 20 times fewer bytes). */
      const char *command = link->has_compact ? "threads_dump_compact" : "threads_dump";
      g_autofree char *dump = NULL;
      gsize dump_len = 0;

      if (link->has_compact)
        job->expected_bytes = 64 * LIST_LINE_BYTES + (gsize) expected * COMPACT_RECORD_BYTES;
      set_log_limit (job, link->log_size, LIST_MAX_BYTES);
      dump = checked_command (link, job, command, job->expected_bytes + 1024,
                              TKS_PARSER_SECTION_DUMP, &dump_len, cancellable);
      if (dump == NULL)
        return;

      capture = finish_parser (job, &error);
      damage = reply_damage (command, dump, dump_len, &how);
      if (capture != NULL && (tks_capture_get_damage (capture) != NULL || damage != DAMAGE_NONE))
        {
          /* A live fetch can simply be repeated: a damaged one is an error, not a capture. */
          /* Translators: how the dump is damaged follows */
          error = g_error_new (TKS_ERROR, TKS_ERROR_PARSE, _("The board's dump arrived damaged: %s"),
                               tks_capture_get_damage (capture) != NULL
                               ? tks_capture_get_damage (capture) : how);
          g_clear_object (&capture);
        }
      if (capture == NULL)
        {
          job->error = error;
          save_raw (link, job, job->transcript);
          return;
        }

      if (tks_capture_get_log_size (capture) > 0)
        link->log_size = MIN (tks_capture_get_log_size (capture), MAX_EXPECTED_LOG);
    }
  else
    {
      g_autofree char *list = NULL;
      g_autofree char *log = NULL;
      gsize list_len = 0, log_len = 0;
      g_autofree char *log_how = NULL;
      Damage log_damage;

      /* The list, then the log (the board runs on in between: docs/rebuild.md). */
      /* Translators: why a reply cannot be longer, as above */
      set_limit (job, LIST_MAX_BYTES, _("a thread list is taken to hold at most 1024 threads"));
      list = checked_command (link, job, "threads_list", 64 * LIST_LINE_BYTES,
                              TKS_PARSER_SECTION_LIST, &list_len, cancellable);
      if (list == NULL)
        return;
      job->bytes_before = job->bytes;
      set_log_limit (job, link->log_size, 0);
      log = checked_command (link, job, "threads_timestamps", (gsize) expected * RECORD_BYTES + 64,
                             TKS_PARSER_SECTION_LOG, &log_len, cancellable);
      if (log == NULL)
        return;

      damage = reply_damage ("threads_list", list, list_len, &how);
      log_damage = reply_damage ("threads_timestamps", log, log_len, &log_how);
      if (log_damage > damage)
        {
          damage = log_damage;
          g_free (how);
          how = g_steal_pointer (&log_how);
        }
      if (tks_parser_get_n_unreadable (job->parser) > 0 && damage == DAMAGE_NONE)
        {
          guint n = tks_parser_get_n_unreadable (job->parser);

          damage = DAMAGE_BYTES;
          /* Translators: how a reply is damaged */
          how = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%u line of the replies is unreadable",
                                              "%u lines of the replies are unreadable", n), n);
        }

      if (damage == DAMAGE_PROMPT)
        {
          /* Cut in two by what looks like its end: what belongs to it cannot be told. */
          job->error = g_error_new (TKS_ERROR, TKS_ERROR_PARSE,
                                    /* Translators: how the reply is damaged follows */
                                    _("The board's reply arrived damaged: %s. Fetch again."),
                                    how);
          save_raw (link, job, job->transcript);
          return;
        }
      if (damage != DAMAGE_NONE)
        {
          /* The capture, and its warnings, from the bytes as received: the lines the warnings
           * name are lines of those bytes, kept next to the capture. */
          g_clear_pointer (&job->parser, tks_parser_free);
          capture = link_capture (link, tks_parse_text (job->transcript->str,
                                                        job->transcript->len, &error));
        }
      else
        capture = finish_parser (job, &error);
      if (capture == NULL)
        {
          job->error = error;
          save_raw (link, job, job->transcript);
          return;
        }
      if (damage != DAMAGE_NONE)
        g_debug ("Fetched with damage: %s", how);
    }

  link->expected_records = MIN (MAX (link->expected_records, tks_capture_get_n_records (capture)),
                                MAX_EXPECTED_LOG);

  keep_in_history (link, job, capture, damage != DAMAGE_NONE ? job->transcript : NULL);

  job->records = tks_capture_get_n_records (capture);
  post_progress (job, TRUE);
  job->result = g_steal_pointer (&capture);
  job->result_free = g_object_unref;
}

gpointer
tks_session_run_on_shell (TksShell        *shell,
                          TksSessionStep   step,
                          gboolean         use_dump,
                          GError         **error)
{
  Link link = { 0 };
  Job job = { 0 };
  gpointer result = NULL;

  link.shell = shell;
  link.address = (char *) "shell";
  link.has_dump = use_dump;
  link.prefer_snapshot = TRUE;
  link.description = g_strdup ("a shell");
  job.link = &link;
  switch (step)
    {
    case TKS_SESSION_STEP_CONNECT:
      job.kind = JOB_CONNECT;
      meet_board (&link, &job, NULL);
      if (job.error == NULL)
        result = g_steal_pointer (&link.commands);
      break;
    case TKS_SESSION_STEP_FETCH:
      job.kind = JOB_FETCH;
      run_fetch (&link, &job, NULL);
      break;
    case TKS_SESSION_STEP_TRIGGER:
    case TKS_SESSION_STEP_RUN:
      job.kind = step == TKS_SESSION_STEP_TRIGGER ? JOB_TRIGGER : JOB_RUN;
      run_simple (&link, &job, NULL);
      if (job.error == NULL && step == TKS_SESSION_STEP_RUN)
        result = g_strdup ("Run mode");
      break;
    default:
      g_assert_not_reached ();
    }
  if (job.result != NULL)
    result = g_steal_pointer (&job.result);
  if (job.error != NULL)
    g_propagate_error (error, g_steal_pointer (&job.error));
  g_strfreev (link.commands);
  g_free (link.description);
  g_free (job.saved_path);
  g_free (job.raw_path);
  g_free (job.limit_bound);
  if (job.transcript != NULL)
    g_string_free (job.transcript, TRUE);
  g_clear_pointer (&job.parser, tks_parser_free);
  return result;
}

static void
cancel_other (GCancellable *source,
              gpointer      data)
{
  g_cancellable_cancel (G_CANCELLABLE (data));
}

static void
run_job (Link *link,
         Job  *job)
{
  GCancellable *user = g_task_get_cancellable (job->task);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  gulong link_id, user_id = 0;
  GPollFD cancel_fd;
  gboolean have_fd;

  link_id = g_cancellable_connect (link->cancellable, G_CALLBACK (cancel_other),
                                   g_object_ref (cancellable), g_object_unref);
  if (user != NULL)
    user_id = g_cancellable_connect (user, G_CALLBACK (cancel_other),
                                     g_object_ref (cancellable), g_object_unref);

  /* Every wait of the job polls this cancellable: holding its file descriptor for the whole
   * job saves making and closing one per read. */
  have_fd = g_cancellable_make_pollfd (cancellable, &cancel_fd);

  if (g_cancellable_set_error_if_cancelled (cancellable, &job->error))
    ;
  else if (link->dead)
    job->error = g_error_new (TKS_ERROR, TKS_ERROR_DISCONNECTED,
                              _("Not connected to %s"), link->address);
  else if (job->kind != JOB_CONNECT && link->shell == NULL)
    job->error = g_error_new (TKS_ERROR, TKS_ERROR_DISCONNECTED,
                              _("Not connected to %s"), link->address);
  else
    {
      switch (job->kind)
        {
        case JOB_CONNECT:
          run_connect (link, job, cancellable);
          break;
        case JOB_COMMAND:
        case JOB_TRIGGER:
        case JOB_RUN:
          run_simple (link, job, cancellable);
          break;
        case JOB_FETCH:
          run_fetch (link, job, cancellable);
          break;
        case JOB_QUIT:
        default:
          g_assert_not_reached ();
        }
    }

  if (job->link_lost || (job->kind == JOB_CONNECT && job->error != NULL))
    link->dead = TRUE;

  if (have_fd)
    g_cancellable_release_fd (cancellable);
  g_cancellable_disconnect (link->cancellable, link_id);
  if (user != NULL)
    g_cancellable_disconnect (user, user_id);
}

static gpointer
worker_main (gpointer data)
{
  Link *link = data;

  for (;;)
    {
      Job *job = g_async_queue_pop (link->jobs);

      if (job->kind == JOB_QUIT)
        {
          job_free (job);
          break;
        }
      run_job (link, job);
      complete_job (job);
    }

  link_free (link);
  return NULL;
}

/* Main thread API */

static void
submit (TksSession *self,
        Job        *job)
{
  job->link = self->link;
  job->link_id = self->link_id;
  g_async_queue_push (self->link->jobs, job);
}

static gboolean
check_connected (TksSession *self,
                 GTask      *task)
{
  if (self->link == NULL)
    {
      g_task_return_new_error (task, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                               _("Not connected to a board"));
      g_object_unref (task);
      return FALSE;
    }
  return TRUE;
}

static void
submit_board_job (TksSession          *self,
                  JobKind              kind,
                  const char          *command,
                  gpointer             source_tag,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Job *job;

  g_task_set_source_tag (task, source_tag);
  if (!check_connected (self, task))
    return;

  job = g_new0 (Job, 1);
  job->kind = kind;
  job->task = task;
  job->command = g_strdup (command);
  self->pending++;
  if (self->state == TKS_SESSION_IDLE)
    set_state (self, TKS_SESSION_BUSY);
  submit (self, job);
}

TksSession *
tks_session_new (void)
{
  return g_object_new (TKS_TYPE_SESSION, NULL);
}

TksSessionState
tks_session_get_state (TksSession *self)
{
  g_return_val_if_fail (TKS_IS_SESSION (self), TKS_SESSION_DISCONNECTED);
  return self->state;
}

const char *
tks_session_get_address (TksSession *self)
{
  g_return_val_if_fail (TKS_IS_SESSION (self), NULL);
  return self->address;
}

const char *
tks_session_get_description (TksSession *self)
{
  g_return_val_if_fail (TKS_IS_SESSION (self), NULL);
  return self->description;
}

guint
tks_session_get_baud (TksSession *self)
{
  g_return_val_if_fail (TKS_IS_SESSION (self), DEFAULT_BAUD);
  return self->baud;
}

void
tks_session_set_baud (TksSession *self,
                      guint       baud)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  if (baud == 0)
    baud = DEFAULT_BAUD;
  if (self->baud == baud)
    return;
  self->baud = baud;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BAUD]);
}

void
tks_session_set_timeout (TksSession *self,
                         guint       timeout_ms)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  if (timeout_ms == 0)
    timeout_ms = DEFAULT_TIMEOUT_MS;
  if (self->timeout_ms == timeout_ms)
    return;
  self->timeout_ms = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT]);
}

void
tks_session_set_slow_paste (TksSession *self,
                            gboolean    slow_paste)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  slow_paste = !!slow_paste;
  if (self->slow_paste == slow_paste)
    return;
  self->slow_paste = slow_paste;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SLOW_PASTE]);
}

void
tks_session_set_flow_control (TksSession *self,
                              guint       flow_control)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  g_return_if_fail (flow_control <= TKS_FLOW_RTSCTS);
  self->flow_control = flow_control;
}

void
tks_session_set_save_history (TksSession *self,
                              gboolean    save_history)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  self->save_history = !!save_history;
}

void
tks_session_set_prefer_snapshot (TksSession *self,
                                 gboolean    prefer_snapshot)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  self->prefer_snapshot = !!prefer_snapshot;
}

void
tks_session_set_history_limit (TksSession *self,
                               guint64     max_bytes)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  self->history_max_bytes = max_bytes;
}

const char *
tks_session_get_last_raw_path (TksSession *self)
{
  g_return_val_if_fail (TKS_IS_SESSION (self), NULL);
  return self->last_raw_path;
}

void
tks_session_get_last_fetch_size (TksSession *self,
                                 guint64    *bytes,
                                 double     *seconds)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  *bytes = self->last_fetch_bytes;
  *seconds = self->last_fetch_seconds;
}

const char *
tks_session_get_last_saved_path (TksSession *self)
{
  g_return_val_if_fail (TKS_IS_SESSION (self), NULL);
  return self->last_saved_path;
}

gboolean
tks_session_has_snapshot_command (TksSession *self)
{
  g_return_val_if_fail (TKS_IS_SESSION (self), FALSE);
  return self->link != NULL && self->state != TKS_SESSION_CONNECTING && self->link->has_dump;
}

const char * const *
tks_session_get_board_commands (TksSession *self)
{
  static const char * const none[] = { NULL };

  g_return_val_if_fail (TKS_IS_SESSION (self), none);
  if (self->link == NULL || self->state == TKS_SESSION_CONNECTING || self->link->commands == NULL)
    return none;
  return (const char * const *) self->link->commands;
}

void
tks_session_connect_async (TksSession          *self,
                           const char          *address,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GTask *task;
  Link *link;
  Job *job;

  g_return_if_fail (TKS_IS_SESSION (self));
  g_return_if_fail (address != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tks_session_connect_async);

  drop_link (self);

  if (g_strcmp0 (self->address, address) != 0)
    {
      g_free (self->address);
      self->address = g_strdup (address);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ADDRESS]);
    }
  set_description (self, NULL);

  link = g_new0 (Link, 1);
  link->id = ++next_link_id;
  link->jobs = g_async_queue_new ();
  link->cancellable = g_cancellable_new ();
  link->address = g_strdup (address);
  link->options.baud = self->baud;
  link->options.flow_control = self->flow_control;
  link->options.connect_timeout_ms = MAX (self->timeout_ms, 1000);
  link->timeout_ms = self->timeout_ms;
  link->slow_paste = self->slow_paste;
  link->save_history = self->save_history;
  link->history_max_bytes = self->history_max_bytes;
  link->prefer_snapshot = self->prefer_snapshot;
  link->thread = g_thread_new ("tks-session", worker_main, link);
  self->link = link;
  self->link_id = link->id;

  set_state (self, TKS_SESSION_CONNECTING);

  job = g_new0 (Job, 1);
  job->kind = JOB_CONNECT;
  job->task = task;
  submit (self, job);
}

gboolean
tks_session_connect_finish (TksSession    *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
tks_session_disconnect (TksSession *self)
{
  g_return_if_fail (TKS_IS_SESSION (self));

  drop_link (self);
  set_state (self, TKS_SESSION_DISCONNECTED);
}

void
tks_session_command_async (TksSession          *self,
                           const char          *command,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  g_return_if_fail (command != NULL);

  submit_board_job (self, JOB_COMMAND, command, tks_session_command_async,
                    cancellable, callback, user_data);
}

char *
tks_session_command_finish (TksSession    *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
tks_session_trigger_async (TksSession          *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  submit_board_job (self, JOB_TRIGGER, NULL, tks_session_trigger_async,
                    cancellable, callback, user_data);
}

char *
tks_session_trigger_finish (TksSession    *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
tks_session_run_async (TksSession          *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  submit_board_job (self, JOB_RUN, NULL, tks_session_run_async,
                    cancellable, callback, user_data);
}

gboolean
tks_session_run_finish (TksSession    *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
tks_session_fetch_async (TksSession          *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (TKS_IS_SESSION (self));
  submit_board_job (self, JOB_FETCH, NULL, tks_session_fetch_async,
                    cancellable, callback, user_data);
}

TksCapture *
tks_session_fetch_finish (TksSession    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* GObject */

static void
tks_session_dispose (GObject *object)
{
  TksSession *self = TKS_SESSION (object);

  drop_link (self);
  G_OBJECT_CLASS (tks_session_parent_class)->dispose (object);
}

static void
tks_session_finalize (GObject *object)
{
  TksSession *self = TKS_SESSION (object);

  g_free (self->address);
  g_free (self->description);
  g_free (self->last_saved_path);
  g_free (self->last_raw_path);
  G_OBJECT_CLASS (tks_session_parent_class)->finalize (object);
}

static void
tks_session_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TksSession *self = TKS_SESSION (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_ADDRESS:
      g_value_set_string (value, self->address);
      break;
    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;
    case PROP_BAUD:
      g_value_set_uint (value, self->baud);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout_ms);
      break;
    case PROP_SLOW_PASTE:
      g_value_set_boolean (value, self->slow_paste);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_session_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TksSession *self = TKS_SESSION (object);

  switch (prop_id)
    {
    case PROP_BAUD:
      tks_session_set_baud (self, g_value_get_uint (value));
      break;
    case PROP_TIMEOUT:
      tks_session_set_timeout (self, g_value_get_uint (value));
      break;
    case PROP_SLOW_PASTE:
      tks_session_set_slow_paste (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_session_class_init (TksSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tks_session_dispose;
  object_class->finalize = tks_session_finalize;
  object_class->get_property = tks_session_get_property;
  object_class->set_property = tks_session_set_property;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, TKS_TYPE_SESSION_STATE, TKS_SESSION_DISCONNECTED,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ADDRESS] =
    g_param_spec_string ("address", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BAUD] =
    g_param_spec_uint ("baud", NULL, NULL, 0, G_MAXUINT, DEFAULT_BAUD,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 0, G_MAXUINT, DEFAULT_TIMEOUT_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SLOW_PASTE] =
    g_param_spec_boolean ("slow-paste", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_UINT64, G_TYPE_UINT, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
}

static void
tks_session_init (TksSession *self)
{
  self->state = TKS_SESSION_DISCONNECTED;
  self->baud = DEFAULT_BAUD;
  self->timeout_ms = DEFAULT_TIMEOUT_MS;
  self->save_history = TRUE;
  self->history_max_bytes = DEFAULT_HISTORY_MAX;
  self->prefer_snapshot = TRUE;
}
