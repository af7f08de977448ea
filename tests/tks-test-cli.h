/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Runs tickscope-cli as a user runs it, for the CLI tests. Define TICKSCOPE_CLI. */

#include <stdarg.h>
#include <string.h>

#include <gio/gio.h>

typedef struct
{
  int   status;
  char *out;
  char *err;
} TksCliResult;

static inline void
tks_cli_result_clear (TksCliResult *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TksCliResult, tks_cli_result_clear)

/* @input goes to standard input when not NULL; standard output goes to the file @stdout_path,
 * or is kept when NULL. */
static inline TksCliResult
tks_run_cli_va (const char *stdout_path,
                const char *input,
                va_list     ap)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) in = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  TksCliResult r = { 0 };
  const char *arg;

  g_ptr_array_add (argv, (char *) TICKSCOPE_CLI);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        (stdout_path == NULL ? G_SUBPROCESS_FLAGS_STDOUT_PIPE : 0) |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (stdout_path != NULL)
    g_subprocess_launcher_set_stdout_file_path (launcher, stdout_path);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);

  in = g_bytes_new (input != NULL ? input : "", input != NULL ? strlen (input) : 0);
  g_assert_true (g_subprocess_communicate (proc, in, NULL, &out, &err, &error));
  g_assert_no_error (error);

  g_assert_true (g_subprocess_get_if_exited (proc));
  r.status = g_subprocess_get_exit_status (proc);
  r.out = out == NULL ? g_strdup ("")
          : g_strndup (g_bytes_get_size (out) > 0 ? g_bytes_get_data (out, NULL) : "",
                       g_bytes_get_size (out));
  r.err = g_strndup (g_bytes_get_size (err) > 0 ? g_bytes_get_data (err, NULL) : "",
                     g_bytes_get_size (err));
  return r;
}

/* The arguments end with NULL. */
static inline TksCliResult
tks_run_cli (const char *input,
             ...)
{
  TksCliResult r;
  va_list ap;

  va_start (ap, input);
  r = tks_run_cli_va (NULL, input, ap);
  va_end (ap);
  return r;
}

/* tks_run_cli() with standard output going to the file @stdout_path. */
static inline TksCliResult
tks_run_cli_to (const char *stdout_path,
                const char *input,
                ...)
{
  TksCliResult r;
  va_list ap;

  va_start (ap, input);
  r = tks_run_cli_va (stdout_path, input, ap);
  va_end (ap);
  return r;
}
