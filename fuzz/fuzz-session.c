/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the input is the board's side of a session. After its first two bytes
 * (how the bytes are cut into reads, and which fetch), it holds the board's answers, one per
 * line the session sends, separated by the two bytes FF FE. The session then does what it
 * does with a real board: sync and help, a fetch (threads_dump or threads_list then
 * threads_timestamps), trigger and run, through the real shell and session code, over a link
 * that hands out the answers by reads of the sizes the input chose. Nothing may crash, read
 * out of bounds, leak or wait; every reply stays within its bound.
 */
#define _GNU_SOURCE
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tks-error.h"
#include "tks-session-private.h"
#include "tks-transport-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define SEPARATOR    "\xff\xfe"
#define MAX_EMPTY    3   /* reads that find nothing before the link counts as gone */

typedef struct
{
  const guint8 *data;
  gsize         len;
  gsize         pos;        /* next byte of the script */
  gsize         end;        /* of the answer being handed out */
  gboolean      started;    /* the first answer was begun */
  guint         owed;       /* lines sent whose answers have not begun */
  guint8        cut[2];     /* read sizes */
  guint         n_reads;
  guint         empty;
} Script;

static Script script;

static gssize
script_read (TksTransport  *self,
             guint8        *buf,
             gsize          len,
             int            timeout_ms,
             GCancellable  *cancellable,
             GError       **error)
{
  Script *s = &script;
  gsize n;

  if (s->pos == s->end && s->owed > 0 && s->pos < s->len)
    {
      /* the next answer begins, after its separator */
      const guint8 *sep;

      if (s->started)
        s->pos += 2;
      s->started = TRUE;
      s->owed--;
      sep = s->pos < s->len ? memmem (s->data + s->pos, s->len - s->pos, SEPARATOR, 2) : NULL;
      s->end = sep != NULL ? (gsize) (sep - s->data) : MAX (s->len, s->pos);
    }
  if (s->pos >= s->end)
    {
      if (s->pos >= s->len || ++s->empty > MAX_EMPTY)
        {
          g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED, "The board went silent");
          return -1;
        }
      return 0;
    }
  s->empty = 0;
  n = (gsize) 1 + s->cut[s->n_reads++ % 2] * 61u;
  n = MIN (n, MIN (len, s->end - s->pos));
  memcpy (buf, s->data + s->pos, n);
  s->pos += n;
  return (gssize) n;
}

/* Each line the session sends is answered by the board's next answer. */
static gssize
script_write (TksTransport  *self,
              const guint8  *buf,
              gsize          len,
              int            timeout_ms,
              GCancellable  *cancellable,
              GError       **error)
{
  if (len > 0 && buf[len - 1] == '\n')
    {
      script.empty = 0;
      script.owed++;
    }
  return (gssize) len;
}

static const TksTransportVTable script_vtable = { script_read, script_write, NULL };

static void
check_capture (TksCapture *capture)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint n_warnings = 0;

  tks_capture_get_warnings (capture, &n_warnings);
  if (tks_capture_get_n_records (capture) > (1u << 18) * 2)
    abort ();
  tks_capture_write (capture, text, NULL, 0);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(TksShell) shell = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) commands = NULL;
  gboolean use_dump;

  if (size < 2)
    return 0;
  memset (&script, 0, sizeof script);
  script.cut[0] = data[0];
  script.cut[1] = (guint8) (data[0] * 7 + 3);
  use_dump = data[1] & 1;
  script.data = data + 2;
  script.len = size - 2;

  shell = tks_shell_new (tks_transport_alloc (&script_vtable, TKS_TRANSPORT_TCP, "fuzz", 4000000));
  tks_shell_set_timeout (shell, 1000);
  tks_shell_set_quiet_time (shell, 0);

  commands = tks_session_run_on_shell (shell, TKS_SESSION_STEP_CONNECT, FALSE, &error);
  if (g_getenv ("TKS_FUZZ_VERBOSE") != NULL)
    fprintf (stderr, "connect: %s\n", error != NULL ? error->message : "done");
  if (commands == NULL)
    return 0;
  use_dump = use_dump || g_strv_contains ((const char * const *) commands, "threads_dump");

  for (TksSessionStep step = TKS_SESSION_STEP_FETCH; step <= TKS_SESSION_STEP_RUN; step++)
    {
      gpointer result;

      g_clear_error (&error);
      result = tks_session_run_on_shell (shell, step, use_dump, &error);
      /* TKS_FUZZ_VERBOSE=1 says what each step gave, to see what an input reaches. */
      if (g_getenv ("TKS_FUZZ_VERBOSE") != NULL)
        fprintf (stderr, "step %d: %s\n", step,
                 error != NULL ? error->message
                 : step == TKS_SESSION_STEP_FETCH ? "a capture" : (const char *) result);
      if (result == NULL)
        {
          if (error == NULL)
            abort ();
          if (g_error_matches (error, TKS_ERROR, TKS_ERROR_DISCONNECTED)
              && strstr (error->message, "restarted") == NULL)
            break;
          continue;
        }
      if (error != NULL)
        abort ();
      if (step == TKS_SESSION_STEP_FETCH)
        {
          check_capture (result);
          g_object_unref (result);
        }
      else
        {
          /* a one-line answer, within its bound */
          if (strlen (result) > 4096)
            abort ();
          g_free (result);
        }
    }
  return 0;
}
