/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * A byte link to a board: a serial port (libserialport), a pty or any tty libserialport cannot
 * open (termios), "tcp:HOST:PORT" (a TCP connection with TCP_NODELAY) or "demo" (the simulated
 * board running in this process). A transport is used from one thread at a time; every wait is
 * bounded by a timeout and can be cancelled through a GCancellable.
 */

typedef struct _TksTransport TksTransport;

typedef enum
{
  TKS_TRANSPORT_SERIAL,
  TKS_TRANSPORT_TTY,
  TKS_TRANSPORT_TCP,
  TKS_TRANSPORT_DEMO,
} TksTransportKind;

typedef enum
{
  TKS_FLOW_NONE,
  TKS_FLOW_XONXOFF,
  TKS_FLOW_RTSCTS,
} TksFlowControl;

typedef struct
{
  guint          baud;               /* 0: 115200 */
  TksFlowControl flow_control;
  guint          connect_timeout_ms; /* 0: 5000 (TCP connect, demo start) */
} TksTransportOptions;

/* The simulated board, registered by programs that link it: @start serves the board's shell on
 * @fd (one end of a socketpair) and returns a handle; @stop stops that board once the other end
 * is closed. @fd stays the caller's: it is closed after @stop. */
typedef gpointer (*TksDemoStartFunc) (int       fd,
                                      GError  **error);
typedef void     (*TksDemoStopFunc)  (gpointer  board);

void              tks_transport_set_demo_funcs       (TksDemoStartFunc start,
                                                      TksDemoStopFunc  stop);
gboolean          tks_transport_has_demo             (void);

TksTransport     *tks_transport_open                 (const char                *address,
                                                      const TksTransportOptions *options,
                                                      GCancellable              *cancellable,
                                                      GError                   **error);
/* Waits up to @timeout_ms (-1: forever) for bytes. Returns the number read, 0 when the time ran
 * out, -1 with @error set (TKS_ERROR_DISCONNECTED on end of stream, G_IO_ERROR_CANCELLED). */
gssize            tks_transport_read                 (TksTransport  *self,
                                                      guint8        *buf,
                                                      gsize          len,
                                                      int            timeout_ms,
                                                      GCancellable  *cancellable,
                                                      GError       **error);
/* Writes all of @buf within @timeout_ms. */
gboolean          tks_transport_write_all            (TksTransport  *self,
                                                      const void    *buf,
                                                      gsize          len,
                                                      int            timeout_ms,
                                                      GCancellable  *cancellable,
                                                      GError       **error);
TksTransportKind  tks_transport_get_kind             (TksTransport  *self);
const char       *tks_transport_get_address          (TksTransport  *self);
/* e.g. "/dev/ttyACM0 at 115200 baud (STM32 Virtual ComPort, 0483:5740)" */
const char       *tks_transport_get_description      (TksTransport  *self);
guint             tks_transport_get_baud             (TksTransport  *self);
/* The rate the link is expected to sustain, used to scale timeouts: baud / 10 (8N1). */
double            tks_transport_get_bytes_per_second (TksTransport  *self);
void              tks_transport_free                 (TksTransport  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksTransport, tks_transport_free)

/* Serial ports present on this machine (libserialport), for a port chooser. */
typedef struct
{
  char *name;        /* "/dev/ttyACM0", "COM3" */
  char *description; /* "STM32 Virtual ComPort" or the kernel's name */
  int   usb_vid;     /* -1 unless a USB port */
  int   usb_pid;
} TksSerialPortInfo;

void              tks_serial_port_info_free          (TksSerialPortInfo *info);
/* A GPtrArray of TksSerialPortInfo (freed with the array), sorted by name. An empty array when
 * there are no ports or serial support is not built in. */
GPtrArray        *tks_serial_list_ports              (GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksSerialPortInfo, tks_serial_port_info_free)

G_END_DECLS
