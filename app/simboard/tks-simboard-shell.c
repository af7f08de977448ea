/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The simulated board's shell: what it prints, its commands, its line editing, and
 * threads_record streamed from the board's loop. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>

#include "ch.h"
#include "chprintf.h"
#include "threads_utilities.h"

#include "tks-simboard-board.h"

/********************                     SHELL                    ********************/


/* What the shell prints: out as it goes, a packet at a time, when the board serves a link. */
static size_t
board_stream_write (void *ip, const uint8_t *bp, size_t n)
{
  BoardStream *s = ip;
  TksSimboardState *b = s->board;

  g_byte_array_append (b->out, bp, (guint) n);
  b->printed += n;
  tks_sim_serial_send (b, n);
  if (b->opts.packet_bytes > 0 && b->fd >= 0 && b->out->len >= b->opts.packet_bytes)
    tks_sim_flush_out (b);
  if (b->writes_per_tick > 0 && ++b->writes % b->writes_per_tick == 0)
    {
      /* The other threads run while the reply is printed (the command itself waits). */
      guint keep = b->writes_per_tick;

      b->writes_per_tick = 0;
      tks_sim_tick (b);
      b->writes_per_tick = keep;
    }
  return n;
}

const struct BaseSequentialStreamVMT tks_sim_stream_vmt = { board_stream_write, NULL };

void
tks_sim_out_str (TksSimboardState *b, const char *s)
{
  g_byte_array_append (b->out, (const guint8 *) s, (guint) strlen (s));
}

typedef TksMcuShellFunc ShellCmd;
typedef TksMcuCommand ShellCommand;

static void
cmd_info (BaseSequentialStream *chp, int argc, char *argv[])
{
  if (argc > 0)
    {
      chprintf (chp, "Usage: info\r\n");
      return;
    }
  chprintf (chp, "Kernel:       %s\r\n", CH_KERNEL_VERSION);
  chprintf (chp, "Compiler:     %s\r\n", "host C compiler");
  chprintf (chp, "Architecture: %s\r\n", "Simulator");
  chprintf (chp, "Core Variant: %s\r\n", "Tickscope simulated board");
  chprintf (chp, "Port Info:    %s\r\n", "Deterministic preemptive priority scheduler");
  chprintf (chp, "Platform:     %s\r\n", "Host");
  chprintf (chp, "Board:        %s\r\n", "tickscope-simboard " PACKAGE_VERSION);
}

static void
cmd_systime (BaseSequentialStream *chp, int argc, char *argv[])
{
  if (argc > 0)
    {
      chprintf (chp, "Usage: systime\r\n");
      return;
    }
  chprintf (chp, "%lu\r\n", (unsigned long) chVTGetSystemTimeX ());
}

static void
cmd_echo (BaseSequentialStream *chp, int argc, char *argv[])
{
  if (argc != 1)
    {
      chprintf (chp, "Usage: echo \"message\"\r\n");
      return;
    }
  chprintf (chp, "%s\r\n", argv[0]);
}

static void cmd_help (BaseSequentialStream *chp, int argc, char *argv[]);

static const ShellCommand shell_builtins[] = {
  { "help", cmd_help },
  { "exit", NULL },
  { "info", cmd_info },
  { "echo", cmd_echo },
  { "systime", cmd_systime },
};

/* The original library's commands, in its order (no threads_dump). */
static const ShellCommand legacy_commands[] = {
  { "threads_list", tks_legacy_cmd_threads_list },
  { "threads_timestamps", tks_legacy_cmd_threads_timestamps },
  { "threads_timestamps_trigger", tks_legacy_cmd_threads_timestamps_trigger },
  { "threads_timestamps_run", tks_legacy_cmd_threads_timestamps_run },
  { "threads_stat", cmd_threads_stat },
  { "threads_uc", cmd_threads_uc },
  { NULL, NULL },
};

static const ShellCommand *
board_commands (const TksSimboardState *b)
{
  return b->legacy != NULL ? legacy_commands : b->commands;
}

/* The commands of the library the board runs; with legacy, those of the original library. */
ShellCommand *
tks_sim_make_commands (const TksSimboardOptions *opts, const TksMcuLib *mcu)
{
  guint n = 0, kept = 0;
  ShellCommand *commands;

  while (mcu->commands[n].name != NULL)
    n++;
  commands = g_new0 (ShellCommand, n + 1);
  for (guint i = 0; i < n; i++)
    if (!opts->legacy || (strcmp (mcu->commands[i].name, "threads_dump") != 0
                          && strcmp (mcu->commands[i].name, "threads_dump_compact") != 0
                          && strcmp (mcu->commands[i].name, "threads_trigger_when") != 0
                          && strcmp (mcu->commands[i].name, "threads_record") != 0))
      commands[kept++] = mcu->commands[i];
  return commands;
}

static void
cmd_help (BaseSequentialStream *chp, int argc, char *argv[])
{
  const ShellCommand *commands = board_commands (((BoardStream *) chp)->board);

  if (argc > 0)
    {
      chprintf (chp, "Usage: help\r\n");
      return;
    }

  chprintf (chp, "Commands: ");
  for (guint i = 0; i < G_N_ELEMENTS (shell_builtins); i++)
    chprintf (chp, "%s ", shell_builtins[i].name);
  for (guint i = 0; commands[i].name != NULL; i++)
    chprintf (chp, "%s ", commands[i].name);
  chprintf (chp, "\r\n");
}

/* Splits the line as the ChibiOS shell does: blanks separate words, "quotes" group them. */
static int
split_line (char *line, char *words[], int max_words)
{
  int n = 0;
  char *p = line;

  for (;;)
    {
      char *start;

      while (*p == ' ' || *p == '\t')
        p++;
      if (*p == '\0')
        break;
      if (*p == '"')
        {
          start = ++p;
          while (*p != '\0' && *p != '"')
            p++;
        }
      else
        {
          start = p;
          while (*p != '\0' && *p != ' ' && *p != '\t')
            p++;
        }
      if (n >= max_words)
        return max_words + 1;
      words[n++] = start;
      if (*p == '\0')
        break;
      *p++ = '\0';
    }
  return n;
}

void
tks_sim_run_shell_command (TksSimboardState *b)
{
  BoardStream stream = { { &tks_sim_stream_vmt }, b };
  char *words[SIM_MAX_ARGS + 2] = { NULL };
  char line[SIM_MAX_LINE + 1];
  int n;

  b->command_pending = FALSE;
  b->uart_rx_raised = FALSE;
  memcpy (line, b->line, b->line_len);
  line[b->line_len] = '\0';
  b->line_len = 0;

  n = split_line (line, words, SIM_MAX_ARGS + 1);
  if (n > SIM_MAX_ARGS + 1)
    {
      tks_sim_out_str (b, "too many arguments\r\n");
    }
  else if (n > 0)
    {
      const ShellCommand *commands = board_commands (b);
      ShellCmd func = NULL;
      gboolean found = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (shell_builtins) && !found; i++)
        if (strcmp (words[0], shell_builtins[i].name) == 0)
          {
            func = shell_builtins[i].func;
            found = TRUE;
          }
      for (guint i = 0; commands[i].name != NULL && !found; i++)
        if (strcmp (words[0], commands[i].name) == 0)
          {
            func = commands[i].func;
            found = TRUE;
          }

      if (!found)
        {
          tks_sim_out_str (b, words[0]);
          tks_sim_out_str (b, " ?\r\n");
        }
      else if (func == NULL)
        {
          if (n > 1)
            tks_sim_out_str (b, "Usage: exit\r\n");
          else
            b->want_exit = TRUE;
        }
      else if (strcmp (words[0], "threads_record") == 0
               && (n == 1 || (n == 2 && strcmp (words[1], "events") == 0)))
        {
          /* The shell thread streams from the board's loop (tks_sim_record_step) until the host
           * stops it; the prompt comes then. */
          if (b->mcu->record_begin (&stream.base, n == 2))
            {
              b->recording = TRUE;
              b->tx_backlog = b->out->len;
              b->tx_tick = b->tick;
              return;
            }
        }
      else
        {
          func (&stream.base, n - 1, &words[1]);
        }
    }
  if (!b->want_exit)
    tks_sim_out_str (b, "ch> ");
}

/* A step of threads_record, as its loop on a board runs every few milliseconds: the bytes
 * the host sent go to the library, which streams what the log holds. The serial line drains
 * on the board's clock: while it still has bytes to send, the shell thread waits (a board's
 * chprintf() blocks on a full output queue) and the log fills meanwhile. */
void
tks_sim_record_step (TksSimboardState *b)
{
  BoardStream stream = { { &tks_sim_stream_vmt }, b };
  struct pollfd pfd = { b->fd, POLLIN, 0 };
  guint64 before;

  if (!b->recording)
    return;
  if (b->opts.baud > 0)
    {
      b->tx_backlog -= (double) (b->tick - b->tx_tick) * b->opts.baud / 10.0 / b->opts.tick_hz;
      b->tx_tick = b->tick;
      if (b->tx_backlog > 0)
        return;
      b->tx_backlog = 0;
    }
  /* What the host sent meanwhile (the board's serial interrupt takes it as it comes). */
  if (poll (&pfd, 1, 0) > 0 && (pfd.revents & POLLIN) != 0)
    {
      guint8 buf[64];
      ssize_t n = read (b->fd, buf, sizeof buf);

      if (n > 0)
        {
          g_byte_array_append (b->in, buf, (guint) n);
          b->heard_us = g_get_monotonic_time ();
        }
    }
  /* (what the poll prints goes out a packet at a time meanwhile: counted as printed) */
  before = b->printed;
  if (!b->mcu->record_poll (&stream.base, b->in->data, b->in->len))
    {
      /* The last poll sends what the log held up to the stop byte: the line takes it at its
       * pace before the prompt goes (as the replies after it). */
      if (b->opts.baud > 0)
        b->wire_free_us = g_get_monotonic_time ()
                          + (gint64) ((b->printed - before) * 10 * G_USEC_PER_SEC / b->opts.baud);
      b->recording = FALSE;
      tks_sim_out_str (b, "ch> ");
    }
  b->tx_backlog += (double) (b->printed - before);
  g_byte_array_set_size (b->in, 0);
}

/* Line editing as the ChibiOS shell does it: echo, backspace, CR ends the line, other
 * control characters are ignored, the line holds at most SIM_MAX_LINE - 1 characters. */
void
tks_sim_shell_input (TksSimboardState *b)
{
  guint used = 0;

  while (used < b->in->len && !b->command_pending && !b->want_exit && !b->recording)
    {
      guint8 c = b->in->data[used++];

      if (c == 8 || c == 127)
        {
          if (b->line_len > 0)
            {
              b->line_len--;
              tks_sim_out_str (b, "\b \b");
            }
        }
      else if (c == '\r')
        {
          tks_sim_out_str (b, "\r\n");
          b->command_pending = TRUE;
        }
      else if (c < 0x20)
        {
          continue;
        }
      else if (b->line_len < SIM_MAX_LINE - 1)
        {
          b->line[b->line_len++] = (char) c;
          g_byte_array_append (b->out, &c, 1);
        }
    }
  g_byte_array_remove_range (b->in, 0, used);
}


char *
tks_simboard_state_run_command_slowly (TksSimboardState *b, const char *line,
                                       guint writes_per_tick)
{
  char *reply;

  b->writes_per_tick = writes_per_tick;
  b->writes = 0;
  reply = tks_simboard_state_run_command (b, line);
  b->writes_per_tick = 0;
  return reply;
}

char *
tks_simboard_state_record (TksSimboardState *b, gboolean events, guint64 ticks, guint poll_ticks)
{
  static const uint8_t keep_alive = 0x16, stop = 3;
  BoardStream stream = { { &tks_sim_stream_vmt }, b };
  GByteArray *saved = b->out;
  GByteArray *text = g_byte_array_new ();
  guint64 end = b->tick + ticks;

  g_return_val_if_fail (poll_ticks > 0, NULL);

  b->out = text;
  if (b->mcu->record_begin (&stream.base, events))
    {
      while (b->tick < end)
        {
          tks_simboard_state_advance (b, MIN ((guint64) poll_ticks, end - b->tick));
          b->mcu->record_poll (&stream.base, &keep_alive, 1);
        }
      b->mcu->record_poll (&stream.base, &stop, 1);
    }
  b->out = saved;
  g_byte_array_append (text, (const guint8 *) "", 1);
  return (char *) g_byte_array_free (text, FALSE);
}

char *
tks_simboard_state_run_command (TksSimboardState *b, const char *line)
{
  gsize len = strlen (line);
  GByteArray *saved = b->out;
  GByteArray *reply = g_byte_array_new ();
  char *text;

  b->out = reply;
  b->line_len = (guint) MIN (len, (gsize) SIM_MAX_LINE - 1);
  memcpy (b->line, line, b->line_len);
  b->command_pending = TRUE;
  tks_sim_run_shell_command (b);
  b->out = saved;
  if (reply->len >= 4 && memcmp (reply->data + reply->len - 4, "ch> ", 4) == 0)
    g_byte_array_set_size (reply, reply->len - 4);
  g_byte_array_append (reply, (const guint8 *) "", 1);
  text = (char *) g_byte_array_free (reply, FALSE);
  return text;
}

