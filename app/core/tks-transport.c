/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* POLLRDHUP */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gi18n-lib.h>

#include "tks-error.h"
#include "tks-transport-private.h"

#define DEFAULT_BAUD 115200

static TksDemoStartFunc demo_start_func;
static TksDemoStopFunc demo_stop_func;

void
tks_transport_set_demo_funcs (TksDemoStartFunc start,
                              TksDemoStopFunc  stop)
{
  demo_start_func = start;
  demo_stop_func = stop;
}

gboolean
tks_transport_has_demo (void)
{
  return demo_start_func != NULL;
}

TksTransport *
tks_transport_alloc (const TksTransportVTable *vtable,
                     TksTransportKind          kind,
                     const char               *address,
                     guint                     baud)
{
  TksTransport *self = g_new0 (TksTransport, 1);

  self->vtable = vtable;
  self->kind = kind;
  self->address = g_strdup (address);
  self->baud = baud ? baud : DEFAULT_BAUD;
  self->fd = -1;
  self->board_fd = -1;
  return self;
}

void
tks_transport_free (TksTransport *self)
{
  if (self == NULL)
    return;
  if (self->vtable->close != NULL)
    self->vtable->close (self);
  g_free (self->address);
  g_free (self->description);
  g_free (self);
}

TksTransportKind
tks_transport_get_kind (TksTransport *self)
{
  return self->kind;
}

const char *
tks_transport_get_address (TksTransport *self)
{
  return self->address;
}

const char *
tks_transport_get_description (TksTransport *self)
{
  return self->description ? self->description : self->address;
}

guint
tks_transport_get_baud (TksTransport *self)
{
  return self->baud;
}

double
tks_transport_get_bytes_per_second (TksTransport *self)
{
  /* 8N1: ten bit times per byte. A TCP link usually relays a serial one (ser2net) or is
   * faster; the baud rate is the conservative guess for it too. */
  return self->baud / 10.0;
}

gssize
tks_transport_read (TksTransport  *self,
                    guint8        *buf,
                    gsize          len,
                    int            timeout_ms,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (buf != NULL || len == 0, -1);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return -1;
  return self->vtable->read (self, buf, len, timeout_ms, cancellable, error);
}

gboolean
tks_transport_check (TksTransport  *self,
                     GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->vtable->check == NULL)
    return TRUE;
  return self->vtable->check (self, error);
}

gboolean
tks_transport_check_fd (int          fd,
                        const char  *address,
                        GError     **error)
{
  struct pollfd pfd = { fd, POLLIN | POLLRDHUP, 0 };
  guint8 byte;
  gssize n;
  int errsv;
  int r;

  do
    r = poll (&pfd, 1, 0);
  while (r < 0 && errno == EINTR);
  /* Nothing, or bytes the board sent unasked: they stay for the next read. */
  if (r <= 0 || (pfd.revents & (POLLHUP | POLLRDHUP | POLLERR | POLLNVAL)) == 0)
    return TRUE;
  if (pfd.revents & POLLNVAL)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED, _("%s is closed"), address);
      return FALSE;
    }

  /* A socket tells the end of its stream, and its faults, without giving up a byte. */
  n = recv (fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  errsv = errno;
  if (n < 0 && errsv == ENOTSOCK)
    {
      /* A tty that hung up: the other side of a pty closed, a device unplugged. */
      g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                   /* Translators: the port */
                   _("%s hung up: was the cable unplugged or the board stopped?"), address);
      return FALSE;
    }
  if (n == 0 || (n > 0 && (pfd.revents & (POLLHUP | POLLRDHUP))))
    {
      /* The end of the stream, perhaps after a last few bytes: no reply can come any more. */
      g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                   _("%s closed the connection"), address);
      return FALSE;
    }
  if (n > 0)
    {
      int fault = 0;
      socklen_t len = sizeof fault;

      if (getsockopt (fd, SOL_SOCKET, SO_ERROR, &fault, &len) != 0 || fault == 0)
        return TRUE;
      errsv = fault;
    }
  else if (errsv == EAGAIN || errsv == EINTR)
    return TRUE;
  g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
               _("%s went away (%s): was the cable unplugged or the board stopped?"),
               address, g_strerror (errsv));
  return FALSE;
}

gboolean
tks_transport_write_all (TksTransport  *self,
                         const void    *buf,
                         gsize          len,
                         int            timeout_ms,
                         GCancellable  *cancellable,
                         GError       **error)
{
  const guint8 *p = buf;
  gint64 deadline = timeout_ms < 0 ? -1 : g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  g_return_val_if_fail (self != NULL, FALSE);

  while (len > 0)
    {
      int left = -1;
      gssize n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (deadline >= 0)
        {
          gint64 now = g_get_monotonic_time ();
          left = now >= deadline ? 0 : (int) ((deadline - now + 999) / 1000);
        }
      n = self->vtable->write (self, p, len, left, cancellable, error);
      if (n < 0)
        return FALSE;
      if (n == 0 && deadline >= 0 && g_get_monotonic_time () >= deadline)
        {
          g_set_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT,
                       /* Translators: the port, then a time in milliseconds */
                       _("Could not send to %s within %d ms: is flow control set right?"),
                       self->address, timeout_ms);
          return FALSE;
        }
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

int
tks_transport_poll_fd (int            fd,
                       short          events,
                       int            timeout_ms,
                       GCancellable  *cancellable,
                       const char    *address,
                       GError       **error)
{
  GPollFD cancel_fd = { -1, 0, 0 };
  struct pollfd fds[2];
  nfds_t nfds = 1;
  gint64 deadline = timeout_ms < 0 ? -1 : g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  int ret = -1;
  gboolean have_cancel_fd = FALSE;

  fds[0].fd = fd;
  fds[0].events = events;
  fds[0].revents = 0;
  if (cancellable != NULL && g_cancellable_make_pollfd (cancellable, &cancel_fd))
    {
      have_cancel_fd = TRUE;
      fds[1].fd = cancel_fd.fd;
      fds[1].events = POLLIN;
      fds[1].revents = 0;
      nfds = 2;
    }

  for (;;)
    {
      int wait_ms = -1;
      int r;

      if (deadline >= 0)
        {
          gint64 now = g_get_monotonic_time ();
          wait_ms = now >= deadline ? 0 : (int) ((deadline - now + 999) / 1000);
        }
      r = poll (fds, nfds, wait_ms);
      if (r < 0)
        {
          int errsv = errno;

          if (errsv == EINTR)
            continue;
          g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Waiting for %s failed: %s"),
                       address, g_strerror (errsv));
          break;
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      if (r == 0)
        {
          ret = 0;
          break;
        }
      if (fds[0].revents & POLLNVAL)
        {
          g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED, _("%s is closed"), address);
          break;
        }
      /* POLLHUP/POLLERR: let the read report what happened (data may still be buffered). */
      if (fds[0].revents != 0)
        {
          ret = 1;
          break;
        }
    }

  if (have_cancel_fd)
    g_cancellable_release_fd (cancellable);
  return ret;
}

gssize
tks_transport_poll_transfer (TksTransport        *self,
                             short                events,
                             TksTransportAttempt  attempt,
                             gpointer             buf,
                             gsize                len,
                             int                  timeout_ms,
                             GCancellable        *cancellable,
                             GError             **error)
{
  for (;;)
    {
      int r = tks_transport_poll_fd (self->fd, events, timeout_ms, cancellable, self->address,
                                     error);
      gssize n;

      if (r <= 0)
        return r;
      n = attempt (self, buf, len, error);
      if (n != TKS_TRANSPORT_AGAIN)
        return n;
    }
}

/* File descriptors: ttys (ptys and serial devices libserialport cannot open) and the
 * simulated board's socket. */

static gssize
fd_read (TksTransport  *self,
         guint8        *buf,
         gsize          len,
         int            timeout_ms,
         GCancellable  *cancellable,
         GError       **error)
{
  for (;;)
    {
      /* Take what has arrived; wait only when nothing has. */
      gssize n = read (self->fd, buf, len);
      int errsv = errno;

      if (n > 0)
        return n;
      if (n < 0 && errsv == EAGAIN && timeout_ms == 0)
        return 0;
      if (n < 0 && errsv == EAGAIN)
        {
          int r = tks_transport_poll_fd (self->fd, POLLIN, timeout_ms, cancellable, self->address,
                                         error);

          if (r <= 0)
            return r;
          continue;
        }
      if (n == 0)
        {
          g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                       _("%s closed the connection"), self->address);
          return -1;
        }
      if (errsv == EINTR)
        continue;
      if (errsv == EIO || errsv == ENXIO || errsv == ENODEV || errsv == ECONNRESET)
        {
          /* A pty whose other side has gone, or a USB device that was unplugged. */
          g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                       /* Translators: the port, then the system's reason */
                       _("%s went away (%s): was the cable unplugged or the board stopped?"),
                       self->address, g_strerror (errsv));
          return -1;
        }
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Reading from %s failed: %s"),
                   self->address, g_strerror (errsv));
      return -1;
    }
}

static gssize
fd_send (TksTransport  *self,
         gpointer       buf,
         gsize          len,
         GError       **error)
{
  gssize n = send (self->fd, buf, len, MSG_NOSIGNAL);
  int errsv;

  if (n < 0 && errno == ENOTSOCK)
    n = write (self->fd, buf, len);
  if (n >= 0)
    return n;
  errsv = errno;
  if (errsv == EINTR || errsv == EAGAIN)
    return TKS_TRANSPORT_AGAIN;
  if (errsv == EPIPE || errsv == EIO || errsv == ENXIO || errsv == ENODEV || errsv == ECONNRESET)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                   _("%s went away (%s): was the cable unplugged or the board stopped?"),
                   self->address, g_strerror (errsv));
      return -1;
    }
  g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Writing to %s failed: %s"),
               self->address, g_strerror (errsv));
  return -1;
}

static gssize
fd_write (TksTransport  *self,
          const guint8  *buf,
          gsize          len,
          int            timeout_ms,
          GCancellable  *cancellable,
          GError       **error)
{
  return tks_transport_poll_transfer (self, POLLOUT, fd_send, (gpointer) buf, len, timeout_ms,
                                      cancellable, error);
}

static void
fd_close (TksTransport *self)
{
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
}

static gboolean
fd_check (TksTransport  *self,
          GError       **error)
{
  return tks_transport_check_fd (self->fd, self->address, error);
}

static const TksTransportVTable fd_vtable = { fd_read, fd_write, fd_close, fd_check };

static void
demo_close (TksTransport *self)
{
  /* Our end first: the board sees the end of the stream and stops serving. */
  fd_close (self);
  if (self->board != NULL && demo_stop_func != NULL)
    demo_stop_func (self->board);
  self->board = NULL;
  if (self->board_fd >= 0)
    close (self->board_fd);
  self->board_fd = -1;
}

static const TksTransportVTable demo_vtable = { fd_read, fd_write, demo_close, fd_check };

TksTransport *
tks_transport_open_fd (int               fd,
                       TksTransportKind  kind,
                       const char       *address,
                       guint             baud,
                       const char       *description)
{
  TksTransport *self = tks_transport_alloc (&fd_vtable, kind, address, baud);

  /* Reads take what has arrived and wait only when nothing has. */
  g_unix_set_fd_nonblocking (fd, TRUE, NULL);
  self->fd = fd;
  self->description = g_strdup (description);
  return self;
}

void
tks_transport_set_open_error (GError     **error,
                              int          errsv,
                              const char  *path,
                              const char  *detail)
{
  switch (errsv)
    {
    case EACCES:
    case EPERM:
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO,
                   _("Permission denied on %s: add yourself to the dialout group "
                     "(sudo usermod -aG dialout $USER), then log out and back in"), path);
      break;
    case EBUSY:
    case EWOULDBLOCK:
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO,
                   _("%s is busy: another program (a serial terminal, ModemManager, another "
                     "Tickscope) has it open; close it and try again"), path);
      break;
    case ENOENT:
    case ENODEV:
    case ENXIO:
      g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                   _("No such port %s: is the board plugged in?"), path);
      break;
    default:
      /* Translators: the port, then the system's reason */
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Could not open %s: %s"), path,
                   detail ? detail : g_strerror (errsv));
      break;
    }
}

gboolean
tks_transport_lock_tty (int          fd,
                        const char  *path,
                        GError     **error)
{
  /* flock() holds between cooperating programs even for root; TIOCEXCL keeps others out. */
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      tks_transport_set_open_error (error, errno == EWOULDBLOCK ? EBUSY : errno, path, NULL);
      return FALSE;
    }
  if (isatty (fd))
    ioctl (fd, TIOCEXCL);
  return TRUE;
}

static speed_t
baud_to_speed (guint baud)
{
  static const struct { guint baud; speed_t speed; } table[] = {
    { 1200, B1200 }, { 2400, B2400 }, { 4800, B4800 }, { 9600, B9600 }, { 19200, B19200 },
    { 38400, B38400 }, { 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 },
    { 460800, B460800 }, { 500000, B500000 }, { 921600, B921600 }, { 1000000, B1000000 },
    { 2000000, B2000000 }, { 3000000, B3000000 }, { 4000000, B4000000 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (table); i++)
    if (table[i].baud == baud)
      return table[i].speed;
  return 0;
}

TksTransport *
tks_transport_open_tty (const char                *path,
                        const TksTransportOptions *options,
                        GError                   **error)
{
  guint baud = options && options->baud ? options->baud : DEFAULT_BAUD;
  speed_t speed = baud_to_speed (baud);
  struct termios tio;
  TksTransport *self;
  int fd;

  if (speed == 0)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   /* Translators: a baud rate, then the port */
                   _("%u baud is not a standard rate; %s needs one of 9600, 19200, 38400, "
                     "57600, 115200, 230400, 460800, 921600…"), baud, path);
      return NULL;
    }

  fd = open (path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    {
      tks_transport_set_open_error (error, errno, path, NULL);
      return NULL;
    }
  if (!isatty (fd))
    {
      close (fd);
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   _("%s is not a serial port or a terminal"), path);
      return NULL;
    }
  if (!tks_transport_lock_tty (fd, path, error))
    {
      close (fd);
      return NULL;
    }
  if (tcgetattr (fd, &tio) != 0)
    {
      tks_transport_set_open_error (error, errno, path, NULL);
      close (fd);
      return NULL;
    }
  cfmakeraw (&tio);
  tio.c_cflag &= ~(CSTOPB | PARENB | CSIZE | CRTSCTS);
  tio.c_cflag |= CS8 | CLOCAL | CREAD;
  tio.c_iflag &= ~(IXON | IXOFF | IXANY);
  if (options && options->flow_control == TKS_FLOW_RTSCTS)
    tio.c_cflag |= CRTSCTS;
  else if (options && options->flow_control == TKS_FLOW_XONXOFF)
    tio.c_iflag |= IXON | IXOFF;
  tio.c_cc[VMIN] = 1;
  tio.c_cc[VTIME] = 0;
  cfsetispeed (&tio, speed);
  cfsetospeed (&tio, speed);
  if (tcsetattr (fd, TCSANOW, &tio) != 0)
    {
      tks_transport_set_open_error (error, errno, path, NULL);
      close (fd);
      return NULL;
    }
  tcflush (fd, TCIFLUSH);

  self = tks_transport_open_fd (fd, TKS_TRANSPORT_TTY, path, baud, NULL);
  /* Translators: the port and its baud rate; shown for the link, and kept as the source of
   * the captures fetched through it */
  self->description = g_strdup_printf (_("%s at %u baud"), path, baud);
  return self;
}

/* A pty (or a symlink to one, as socat makes) cannot be opened by libserialport. */
static gboolean
is_pty (const char *path)
{
  g_autofree char *real = realpath (path, NULL);
  struct stat st;
  guint maj;

  if (real != NULL && (g_str_has_prefix (real, "/dev/pts/") || g_str_equal (real, "/dev/ptmx")))
    return TRUE;
  if (stat (path, &st) != 0 || !S_ISCHR (st.st_mode))
    return FALSE;
  maj = major (st.st_rdev);
  /* Unix98 pty slaves (136–143) and BSD pty slaves (3) */
  return (maj >= 136 && maj <= 143) || maj == 3;
}

static TksTransport *
open_demo (const TksTransportOptions *options,
           GError                   **error)
{
  TksTransport *self;
  gpointer board;
  int fds[2];

  if (demo_start_func == NULL)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   _("The simulated board (“demo”) is not built into this program"));
      return NULL;
    }
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    {
      int errsv = errno;

      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Could not start the simulated board: %s"),
                   g_strerror (errsv));
      return NULL;
    }
  board = demo_start_func (fds[1], error);
  if (board == NULL)
    {
      close (fds[0]);
      close (fds[1]);
      return NULL;
    }
  g_unix_set_fd_nonblocking (fds[0], TRUE, NULL);
  self = tks_transport_alloc (&demo_vtable, TKS_TRANSPORT_DEMO, "demo",
                              options && options->baud ? options->baud : DEFAULT_BAUD);
  self->fd = fds[0];
  self->board = board;
  self->board_fd = fds[1];
  /* Translators: the link's description, as in “ChibiOS shell on the simulated board” */
  self->description = g_strdup (_("the simulated board"));
  return self;
}

TksTransport *
tks_transport_open (const char                *address,
                    const TksTransportOptions *options,
                    GCancellable              *cancellable,
                    GError                   **error)
{
  gboolean try_tty = FALSE;
  GError *serial_error = NULL;
  TksTransport *self;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (address == NULL || *address == '\0')
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   _("No port given: name a serial port (/dev/ttyACM0, COM3), a pty, "
                     "tcp:HOST:PORT or demo"));
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if (g_str_equal (address, "demo"))
    return open_demo (options, error);
  if (g_str_has_prefix (address, "tcp:"))
    return tks_transport_open_tcp (address, options, cancellable, error);

  if (g_path_is_absolute (address) && is_pty (address))
    return tks_transport_open_tty (address, options, error);

  self = tks_transport_open_serial (address, options, &try_tty, &serial_error);
  if (self != NULL)
    return self;
  if (try_tty && g_path_is_absolute (address) && g_file_test (address, G_FILE_TEST_EXISTS))
    {
      g_debug ("libserialport cannot use %s (%s); using termios", address, serial_error->message);
      g_clear_error (&serial_error);
      return tks_transport_open_tty (address, options, error);
    }
  g_propagate_error (error, serial_error);
  return NULL;
}
