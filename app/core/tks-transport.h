/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * TksTransport:
 *
 * A byte link to a board: a serial port (libserialport), a pty or any tty libserialport cannot
 * open (termios), "tcp:HOST:PORT" (a TCP connection with TCP_NODELAY) or "demo" (the simulated
 * board running in this process). A transport is used from one thread at a time; every wait is
 * bounded by a timeout and can be cancelled through a GCancellable.
 */

typedef struct _TksTransport TksTransport;

/**
 * TksTransportKind:
 * @TKS_TRANSPORT_SERIAL: a serial port, through libserialport
 * @TKS_TRANSPORT_TTY: a pty or a tty libserialport cannot open, through termios
 * @TKS_TRANSPORT_TCP: a TCP connection ("tcp:HOST:PORT")
 * @TKS_TRANSPORT_DEMO: the simulated board running in this process ("demo")
 *
 * What a transport's address named.
 */
typedef enum
{
  TKS_TRANSPORT_SERIAL,
  TKS_TRANSPORT_TTY,
  TKS_TRANSPORT_TCP,
  TKS_TRANSPORT_DEMO,
} TksTransportKind;

/**
 * TksFlowControl:
 * @TKS_FLOW_NONE: none
 * @TKS_FLOW_XONXOFF: software flow control (XON/XOFF)
 * @TKS_FLOW_RTSCTS: hardware flow control (RTS/CTS)
 *
 * The flow control of a serial port or tty.
 */
typedef enum
{
  TKS_FLOW_NONE,
  TKS_FLOW_XONXOFF,
  TKS_FLOW_RTSCTS,
} TksFlowControl;

/**
 * TksTransportOptions:
 * @baud: the baud rate of a serial port or tty; 0: 115200
 * @flow_control: the flow control of a serial port or tty
 * @connect_timeout_ms: how long a TCP connection or the demo board may take to start;
 *   0: 5000
 *
 * How tks_transport_open() opens a link.
 */
typedef struct
{
  guint          baud;               /* 0: 115200 */
  TksFlowControl flow_control;
  guint          connect_timeout_ms; /* 0: 5000 (TCP connect, demo start) */
} TksTransportOptions;

/**
 * TksDemoStartFunc:
 * @fd: one end of a socketpair, on which to serve the board's shell; it stays the caller's,
 *   closed after #TksDemoStopFunc
 * @error: return location for a #GError, or %NULL
 *
 * Starts the simulated board (registered by programs that link it).
 *
 * Returns: (transfer full) (nullable): a handle on the board, or %NULL with @error set
 */
typedef gpointer (*TksDemoStartFunc) (int       fd,
                                      GError  **error);
/**
 * TksDemoStopFunc:
 * @board: (transfer full): the handle #TksDemoStartFunc returned
 *
 * Stops that board, once the other end of its socketpair is closed.
 */
typedef void     (*TksDemoStopFunc)  (gpointer  board);

/**
 * tks_transport_set_demo_funcs:
 * @start: (scope forever): starts the simulated board
 * @stop: (scope forever): stops it
 *
 * Registers the simulated board, so that the address "demo" opens it. Programs that link the
 * board call it before they open a transport.
 */
void              tks_transport_set_demo_funcs       (TksDemoStartFunc start,
                                                      TksDemoStopFunc  stop);
/**
 * tks_transport_has_demo:
 *
 * Whether the simulated board is registered (tks_transport_set_demo_funcs()).
 *
 * Returns: %TRUE when "demo" can be opened
 */
gboolean          tks_transport_has_demo             (void);

/**
 * tks_transport_open:
 * @address: a serial port ("/dev/ttyACM0", "COM3"), a pty or tty, "tcp:HOST:PORT" or "demo"
 * @options: (nullable): how to open it; %NULL: the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * Opens a link to a board. Fails with %TKS_ERROR_USAGE for an address that names nothing
 * Tickscope opens (no address, not a port or a terminal, a rate a port cannot take, "demo"
 * without the simulated board), %TKS_ERROR_DISCONNECTED when the port does not exist,
 * %TKS_ERROR_IO when it cannot be opened (permission denied, busy, another reason the message
 * gives), %TKS_ERROR_TIMEOUT when a TCP host does not answer in time, a #GIOError from TCP,
 * %G_IO_ERROR_CANCELLED.
 *
 * Returns: (transfer full) (nullable): the link (free with tks_transport_free()), or %NULL
 *   with @error set
 */
TksTransport     *tks_transport_open                 (const char                *address,
                                                      const TksTransportOptions *options,
                                                      GCancellable              *cancellable,
                                                      GError                   **error);
/**
 * tks_transport_read:
 * @self: a transport
 * @buf: (out caller-allocates) (array length=len): where to put the bytes
 * @len: the most bytes to read
 * @timeout_ms: how long to wait for bytes; -1: forever
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * Waits for bytes and reads what arrived. Fails with %TKS_ERROR_DISCONNECTED on end of stream
 * or when the device went away, %TKS_ERROR_IO when reading fails, %G_IO_ERROR_CANCELLED.
 *
 * Returns: the number of bytes read, 0 when the time ran out, -1 with @error set
 */
gssize            tks_transport_read                 (TksTransport  *self,
                                                      guint8        *buf,
                                                      gsize          len,
                                                      int            timeout_ms,
                                                      GCancellable  *cancellable,
                                                      GError       **error);
/**
 * tks_transport_write_all:
 * @self: a transport
 * @buf: (array length=len) (element-type guint8): the bytes to write
 * @len: their number
 * @timeout_ms: how long writing them all may take
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * Writes all of @buf. Fails with %TKS_ERROR_TIMEOUT when the link does not take them within
 * @timeout_ms (flow control), %TKS_ERROR_DISCONNECTED when the link closed,
 * %TKS_ERROR_IO when writing fails, %G_IO_ERROR_CANCELLED.
 *
 * Returns: %TRUE when every byte was written
 */
gboolean          tks_transport_write_all            (TksTransport  *self,
                                                      const void    *buf,
                                                      gsize          len,
                                                      int            timeout_ms,
                                                      GCancellable  *cancellable,
                                                      GError       **error);
/**
 * tks_transport_check:
 * @self: a transport
 * @error: return location for a #GError, or %NULL
 *
 * Looks whether the board is still at the other end, without reading a byte (what it sent
 * stays for the next read) and without waiting: a TCP peer that closed, a pty whose other
 * side closed, a serial device that was unplugged. Fails with %TKS_ERROR_DISCONNECTED then,
 * saying which it was.
 *
 * Returns: %TRUE when nothing says the board went away
 */
gboolean          tks_transport_check                (TksTransport  *self,
                                                      GError       **error);
/**
 * tks_transport_get_kind:
 * @self: a transport
 *
 * Returns: what the transport's address named
 */
TksTransportKind  tks_transport_get_kind             (TksTransport  *self);
/**
 * tks_transport_get_address:
 * @self: a transport
 *
 * Returns: (transfer none): the address it was opened with
 */
const char       *tks_transport_get_address          (TksTransport  *self);
/**
 * tks_transport_get_description:
 * @self: a transport
 *
 * What the link is, for a user: e.g. "/dev/ttyACM0 at 115200 baud (STM32 Virtual ComPort,
 * 0483:5740)".
 *
 * Returns: (transfer none): the description
 */
const char       *tks_transport_get_description      (TksTransport  *self);
/**
 * tks_transport_get_baud:
 * @self: a transport
 *
 * Returns: the link's baud rate
 */
guint             tks_transport_get_baud             (TksTransport  *self);
/**
 * tks_transport_get_bytes_per_second:
 * @self: a transport
 *
 * The rate the link is expected to sustain, used to scale timeouts: baud / 10 (8N1).
 *
 * Returns: bytes per second
 */
double            tks_transport_get_bytes_per_second (TksTransport  *self);
/**
 * tks_transport_free:
 * @self: (nullable): a transport
 *
 * Closes the link and frees @self.
 */
void              tks_transport_free                 (TksTransport  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksTransport, tks_transport_free)

/**
 * TksSerialPortInfo:
 * @name: the port's name: "/dev/ttyACM0", "COM3"
 * @description: "STM32 Virtual ComPort" or the kernel's name
 * @usb_vid: the USB vendor id; -1 unless a USB port
 * @usb_pid: the USB product id; -1 unless a USB port
 *
 * A serial port present on this machine (libserialport), for a port chooser.
 */
typedef struct
{
  char *name;        /* "/dev/ttyACM0", "COM3" */
  char *description; /* "STM32 Virtual ComPort" or the kernel's name */
  int   usb_vid;     /* -1 unless a USB port */
  int   usb_pid;
} TksSerialPortInfo;

/**
 * tks_serial_port_info_free:
 * @info: (nullable): a port's description
 *
 * Frees @info and its strings.
 */
void              tks_serial_port_info_free          (TksSerialPortInfo *info);
/**
 * tks_serial_list_ports:
 * @error: return location for a #GError, or %NULL
 *
 * The serial ports present on this machine. Fails with a %TKS_ERROR error (%TKS_ERROR_IO
 * mostly) when libserialport cannot list them.
 *
 * Returns: (transfer full) (element-type TksSerialPortInfo) (nullable): the ports, sorted by
 *   name, each freed with the array; an empty array when there are no ports or serial support
 *   is not built in; %NULL with @error set
 */
GPtrArray        *tks_serial_list_ports              (GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksSerialPortInfo, tks_serial_port_info_free)

G_END_DECLS
