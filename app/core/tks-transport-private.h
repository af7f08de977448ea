/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-transport.h"

G_BEGIN_DECLS

typedef struct
{
  gssize (*read)  (TksTransport  *self,
                   guint8        *buf,
                   gsize          len,
                   int            timeout_ms,
                   GCancellable  *cancellable,
                   GError       **error);
  gssize (*write) (TksTransport  *self,
                   const guint8  *buf,
                   gsize          len,
                   int            timeout_ms,
                   GCancellable  *cancellable,
                   GError       **error);
  void   (*close) (TksTransport  *self);
  /* Whether the board is still there, without reading a byte or waiting. */
  gboolean (*check) (TksTransport  *self,
                     GError       **error);
} TksTransportVTable;

struct _TksTransport
{
  const TksTransportVTable *vtable;
  TksTransportKind          kind;
  char                     *address;
  char                     *description;
  guint                     baud;
  int                       fd;     /* tty and demo: the descriptor; serial: the port's handle */
  gpointer                  port;   /* serial: the struct sp_port */
  GSocketConnection        *conn;   /* tcp */
  gpointer                  board;  /* demo: the simulated board */
  int                       board_fd; /* demo: the board's end of the socketpair */
};

TksTransport *tks_transport_alloc          (const TksTransportVTable *vtable,
                                            TksTransportKind          kind,
                                            const char               *address,
                                            guint                     baud);

/* Waits until @fd is ready for @events (POLLIN/POLLOUT) or @cancellable fires. Returns 1 when
 * ready, 0 on timeout, -1 with @error set. */
int           tks_transport_poll_fd        (int            fd,
                                            short          events,
                                            int            timeout_ms,
                                            GCancellable  *cancellable,
                                            const char    *address,
                                            GError       **error);

/* Looks at @fd (a socket or a tty) without reading a byte or waiting: FALSE with
 * %TKS_ERROR_DISCONNECTED when its other end has closed or hung up. */
gboolean      tks_transport_check_fd       (int            fd,
                                            const char    *address,
                                            GError       **error);

/* What one attempt at a transfer did: the bytes it moved (>= 0), TKS_TRANSPORT_AGAIN when none
 * could move yet, or -1 with @error set. */
#define TKS_TRANSPORT_AGAIN (-2)
typedef gssize (*TksTransportAttempt)      (TksTransport  *self,
                                            gpointer       buf,
                                            gsize          len,
                                            GError       **error);

/* Waits until @self's descriptor is ready for @events, then makes @attempt, again as long as
 * it says TKS_TRANSPORT_AGAIN. Returns what it moved, 0 on timeout, -1 with @error set. */
gssize        tks_transport_poll_transfer  (TksTransport        *self,
                                            short                events,
                                            TksTransportAttempt  attempt,
                                            gpointer             buf,
                                            gsize                len,
                                            int                  timeout_ms,
                                            GCancellable        *cancellable,
                                            GError             **error);

TksTransport *tks_transport_open_tty       (const char                *path,
                                            const TksTransportOptions *options,
                                            GError                   **error);
TksTransport *tks_transport_open_fd        (int                        fd,
                                            TksTransportKind           kind,
                                            const char                *address,
                                            guint                      baud,
                                            const char                *description);
TksTransport *tks_transport_open_serial    (const char                *name,
                                            const TksTransportOptions *options,
                                            gboolean                  *try_tty,
                                            GError                   **error);
TksTransport *tks_transport_open_tcp       (const char                *address,
                                            const TksTransportOptions *options,
                                            GCancellable              *cancellable,
                                            GError                   **error);

/* Locks a tty against a second user (TIOCEXCL and flock). */
gboolean      tks_transport_lock_tty       (int          fd,
                                            const char  *path,
                                            GError     **error);
/* An actionable GError for a failed open() of a serial device. */
void          tks_transport_set_open_error (GError     **error,
                                            int          errsv,
                                            const char  *path,
                                            const char  *detail);

G_END_DECLS
