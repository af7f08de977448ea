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


typedef struct
{
  TksSession *session;
  guint       link_id;
  guint64     bytes;
  guint       records;
  double      fraction;
  double      seconds_left;
} Progress;

/* A link found gone between requests, on its way to the session's main context. */
typedef struct
{
  TksSession *session;
  guint       link_id;
  GError     *error;
} LinkLost;

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
  SIGNAL_LINK_LOST,
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
  g_weak_ref_clear (&link->session);
  g_main_context_unref (link->context);
  g_clear_pointer (&link->shell, tks_shell_free);
  g_clear_error (&link->lost);
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

void
tks_session_job_progress (Job      *job,
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
  else if (link->dead && link->lost != NULL)
    job->error = g_error_copy (link->lost);
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
          tks_session_run_connect (link, job, cancellable);
          break;
        case JOB_COMMAND:
        case JOB_TRIGGER:
        case JOB_RUN:
          tks_session_run_simple (link, job, cancellable);
          break;
        case JOB_FETCH:
          tks_session_run_fetch (link, job, cancellable);
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

static gboolean
lost_in_main (gpointer data)
{
  LinkLost *lost = data;
  TksSession *self = lost->session;

  /* unless disconnected, or connected anew, meanwhile */
  if (self->link != NULL && self->link_id == lost->link_id)
    {
      drop_link (self);
      set_state (self, TKS_SESSION_DISCONNECTED);
      g_signal_emit (self, signals[SIGNAL_LINK_LOST], 0, lost->error);
    }
  return G_SOURCE_REMOVE;
}

static void
lost_free (gpointer data)
{
  LinkLost *lost = data;

  g_object_unref (lost->session);
  g_error_free (lost->error);
  g_free (lost);
}

/* Between requests: looks whether the board is still there, without taking a byte it sent
 * (the next request drops those as it always does). Run by the worker only, so never during
 * a request. A link found gone is told to the session, and the requests already queued fail
 * with the same reason. */
static void
check_idle_link (Link *link)
{
  GError *error = NULL;
  LinkLost *lost;
  TksSession *session;

  if (tks_transport_check (tks_shell_get_transport (link->shell), &error))
    return;
  g_debug ("%s", error->message);
  link->dead = TRUE;
  link->lost = g_error_copy (error);
  session = g_weak_ref_get (&link->session);
  if (session == NULL)
    {
      g_error_free (error);
      return;
    }
  lost = g_new0 (LinkLost, 1);
  lost->session = session;
  lost->link_id = link->id;
  lost->error = error;
  post_to_context (link->context, lost_in_main, lost, lost_free);
}

static gpointer
worker_main (gpointer data)
{
  Link *link = data;

  for (;;)
    {
      Job *job;

      /* Connected and waiting for a request: the link is looked at now and then, so that a
       * board that went away is told at once rather than at the next request. */
      if (link->shell != NULL && !link->dead)
        job = g_async_queue_timeout_pop (link->jobs, IDLE_CHECK_US);
      else
        job = g_async_queue_pop (link->jobs);
      if (job == NULL)
        {
          check_idle_link (link);
          continue;
        }
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
  g_weak_ref_init (&link->session, self);
  link->context = g_main_context_ref_thread_default ();
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
  signals[SIGNAL_LINK_LOST] =
    g_signal_new ("link-lost", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
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
