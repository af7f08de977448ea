/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The simulated board: the mcu-lib thread-timestamps library running on the host under a small
 * deterministic preemptive priority scheduler, with a ChibiOS-like workload (main, idle, static
 * threads at several priorities, dynamic threads created and exiting, unlogged threads, a
 * trigger from code), serving a ChibiOS-style shell (banner, echo, CRLF, "ch> " prompt,
 * "NAME ?" for unknown commands, help, info, systime and the library commands, including
 * threads_dump).
 *
 * Simulated time follows real time from the board's start, whether or not a client is
 * connected, as a real board's clock does: at tick_hz = 1000 and speed = 1.0 the board advances
 * 1000 ticks per real second. The workload is a pure function of the seed: the same seed gives
 * the same threads and the same switches at the same ticks.
 *
 * Its hardware is simulated too: a 168 MHz cycle counter, a tick interrupt every tick
 * (SysTick_Handler, which makes the sleeping threads due ready), a serial interrupt for every
 * chunk of a reply sent (USART2_IRQHandler, 64 bytes at the baud rate, 115200 by default; also
 * when a command line arrives), a sensor interrupt every other tick that wakes the sensor
 * thread (EXTI0_IRQHandler, above the others in priority, so it sometimes interrupts them),
 * the CPU sleeping in the idle thread, and markers and states from the workload (a marker
 * "sample" from the sensor thread, the states "busy" and "calibrate" of a channel "filter").
 * With events (the default) the library records all of it (dump version 2).
 *
 * The board knows what its scheduler did: the ground truth of every run, creation and exit
 * (tks-simboard-private.h, tickscope-simboard --truth FILE). With legacy_defects it behaves
 * like the original threads_utilities library instead of this project's (legacy commands,
 * exits recorded after a trigger froze the log, a history of the last 64 exits whatever the
 * log holds), recorded by tks-simboard-legacy.c; the board library itself stays correct.
 *
 * The board library has global state: only ONE board may run in a process at a time.
 * tks_simboard_start() fails with G_IO_ERROR_BUSY while another board is running, and
 * tks_simboard_serve_fd() returns -1 with errno = EBUSY.
 */

typedef struct
{
  guint32 seed;        /* workload seed; default 1 */
  guint   tick_hz;     /* system tick frequency, 100..100000; default 1000 */
  guint   log_size;    /* records in the log, 16..65536; default 3000 */
  double  speed;       /* simulated seconds per real second, > 0; default 1.0 */
  gboolean banner;     /* print "\r\nChibiOS/RT Shell\r\n" on connect; default TRUE */
  guint   uptime_ms;   /* simulated time already run when the shell starts, so the log holds
                          history from the first fetch; 0..600000; default 0 */
  guint   packet_bytes; /* the shell's output leaves as it is printed, whenever this many bytes
                          are waiting, like a ChibiOS serial-over-USB output buffer; 0 sends
                          each reply whole when it is complete; 0..65536; default 256 */
  guint   baud;         /* the output leaves no faster than a serial line at this rate (ten
                          bits a byte), to see a real link's transfer times; 0 (default): as
                          fast as the reader takes it; else 300..10000000. Also the rate of the
                          simulated serial interrupts (115200 when 0) */
  guint   workers;      /* extra logged threads created at boot, each waking every few ticks,
                          so that more than 63 threads can be alive; 0..200; default 0 */
  gboolean legacy_defects; /* behave like the original threads_utilities library: legacy
                          commands only (no threads_dump), exit records written while the
                          trigger holds the log frozen, a deleted-thread history of the last
                          64 exits whatever the log holds; default FALSE */
  gboolean events;       /* the board library is built with every event option: threads_dump
                          answers dump version 2 (cycle stamps, interrupts, sleep, wake-ups,
                          markers, states) and threads_trigger_when is served; FALSE: the
                          library without them, dump version 1; default TRUE */
  gboolean legacy;       /* serve the original command set only (no threads_dump, no
                          threads_trigger_when), from the library without events; default
                          FALSE */
  guint   systime_bits;  /* width of the kernel's system time: 32, or 16 as on a board in
                          tick-less mode on a 16-bit timer (CH_CFG_ST_RESOLUTION 16: the
                          library's ticks wrap every 65536); default 32 */
  guint   idle_s;        /* a client that sends nothing for this many seconds is told so and
                          let go, for the next one (a recording it left ends before, at the
                          library's silence timeout); 0 (default): never */
} TksSimboardOptions;

typedef struct _TksSimboard TksSimboard;

/* Fills @opts with the defaults above. */
void         tks_simboard_options_init (TksSimboardOptions  *opts);

/* Checks @opts; FALSE with a G_IO_ERROR_INVALID_ARGUMENT message when out of range. */
gboolean     tks_simboard_options_check (const TksSimboardOptions *opts,
                                         GError                  **error);

/* Serves the shell on the connected stream @fd (socket, pty or pipe; read and write) until
 * EOF or an error on @fd, running the board meanwhile. Blocking. Does not close @fd.
 * Returns 0 at EOF, -1 with errno set on an error. */
int          tks_simboard_serve_fd     (const TksSimboardOptions  *opts,
                                        int                        fd);

/* Starts the board in a thread of this process, serving the shell on @fd (e.g. one end of
 * a socketpair()); the board owns nothing: the caller closes @fd after tks_simboard_stop(). */
TksSimboard *tks_simboard_start        (const TksSimboardOptions  *opts,
                                        int                        fd,
                                        GError                   **error);

/* Stops the board started by tks_simboard_start(), waits for its thread and frees it.
 * NULL is ignored. */
void         tks_simboard_stop         (TksSimboard               *board);

/* The demo board of the viewer and the CLI ("demo" address): default options (every event
 * recorded, dump version 2, in a 32768-slot log; version 1 when the environment variable
 * TICKSCOPE_DEMO_EVENTS is "0"), 10 s into its life so that the first fetch shows a full
 * log. Fits
 * tks_transport_set_demo_funcs(). */
gpointer     tks_simboard_start_demo   (int                        fd,
                                        GError                   **error);
void         tks_simboard_stop_demo    (gpointer                   board);

G_END_DECLS
