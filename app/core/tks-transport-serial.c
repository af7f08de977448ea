/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <poll.h>

#include <glib/gi18n-lib.h>

#ifdef HAVE_LIBSERIALPORT
#include <libserialport.h>
#endif

#include "tks-error.h"
#include "tks-transport-private.h"

void
tks_serial_port_info_free (TksSerialPortInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->name);
  g_free (info->description);
  g_free (info);
}

#ifdef HAVE_LIBSERIALPORT

/* libserialport keeps its last error per thread: turn it into a GError right here, in the
 * thread that got it. @what is what was being done, translated (“reading”). */
static void
set_sp_error (GError     **error,
              enum sp_return ret,
              const char  *path,
              const char  *what)
{
  if (ret == SP_ERR_FAIL)
    {
      int code = sp_last_error_code ();
      char *msg = sp_last_error_message ();

      switch (code)
        {
        case EACCES:
        case EPERM:
        case EBUSY:
        case ENOENT:
        case ENODEV:
        case ENXIO:
          tks_transport_set_open_error (error, code, path, msg);
          break;
        case EIO:
          g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                       /* Translators: the port, then the system's reason */
                       _("%s went away (%s): was the cable unplugged?"), path, msg);
          break;
        default:
          /* Translators: the port (or “serial ports”), what was being done (“reading”,
           * “opening”, “setting 115200 baud, 8N1”…), then the system's reason */
          g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("%s %s failed: %s"), path, what, msg);
          break;
        }
      sp_free_error_message (msg);
    }
  else if (ret == SP_ERR_MEM)
    /* Translators: the port, then what was being done (“reading”, “opening”…) */
    g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("%s %s failed: out of memory"), path, what);
  else if (ret == SP_ERR_SUPP)
    /* Translators: the port, then what was being done (“reading”, “opening”…) */
    g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("%s %s: not supported by this port"), path,
                 what);
  else
    /* Translators: the port, then what was being done (“setting 115200 baud, 8N1”…) */
    g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE, _("%s %s: invalid setting"), path, what);
}

static gboolean
sp_would_block (enum sp_return n)
{
  return n == SP_ERR_FAIL && (sp_last_error_code () == EAGAIN || sp_last_error_code () == EINTR);
}

static gssize
serial_read_some (TksTransport  *self,
                  gpointer       buf,
                  gsize          len,
                  GError       **error)
{
  enum sp_return n = sp_nonblocking_read (self->port, buf, len);

  if (n > 0)
    return n;
  if (n == 0)
    {
      /* Readable but empty: the device hung up. */
      g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                   _("%s went away: was the cable unplugged?"), self->address);
      return -1;
    }
  if (sp_would_block (n))
    return TKS_TRANSPORT_AGAIN;
  /* Translators: what was being done on a serial port, in “%s %s failed: %s” */
  set_sp_error (error, n, self->address, _("reading"));
  return -1;
}

static gssize
serial_write_some (TksTransport  *self,
                   gpointer       buf,
                   gsize          len,
                   GError       **error)
{
  enum sp_return n = sp_nonblocking_write (self->port, buf, len);

  if (n >= 0)
    return n;
  if (sp_would_block (n))
    return TKS_TRANSPORT_AGAIN;
  /* Translators: what was being done on a serial port, in “%s %s failed: %s” */
  set_sp_error (error, n, self->address, _("writing"));
  return -1;
}

static gssize
serial_read (TksTransport  *self,
             guint8        *buf,
             gsize          len,
             int            timeout_ms,
             GCancellable  *cancellable,
             GError       **error)
{
  return tks_transport_poll_transfer (self, POLLIN, serial_read_some, buf, len, timeout_ms,
                                      cancellable, error);
}

static gssize
serial_write (TksTransport  *self,
              const guint8  *buf,
              gsize          len,
              int            timeout_ms,
              GCancellable  *cancellable,
              GError       **error)
{
  return tks_transport_poll_transfer (self, POLLOUT, serial_write_some, (gpointer) buf, len,
                                      timeout_ms, cancellable, error);
}

static void
serial_close (TksTransport *self)
{
  if (self->port != NULL)
    {
      sp_close (self->port);
      sp_free_port (self->port);
    }
  self->port = NULL;
  self->fd = -1;
}

static gboolean
serial_check (TksTransport  *self,
              GError       **error)
{
  enum sp_return waiting;
  char *msg;

  if (!tks_transport_check_fd (self->fd, self->address, error))
    return FALSE;
  /* An unplugged device fails every request on its handle (ENXIO, ENODEV, EIO), even one
   * that only counts the bytes waiting. Other answers tell nothing about the board. */
  waiting = sp_input_waiting (self->port);
  if (waiting != SP_ERR_FAIL)
    return TRUE;
  msg = sp_last_error_message ();
  g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
               _("%s went away (%s): was the cable unplugged?"), self->address, msg);
  sp_free_error_message (msg);
  return FALSE;
}

static const TksTransportVTable serial_vtable = { serial_read, serial_write, serial_close,
                                                  serial_check };

static char *
describe_port (struct sp_port *port)
{
  const char *desc = sp_get_port_description (port);
  int vid = -1, pid = -1;

  if (sp_get_port_transport (port) == SP_TRANSPORT_USB
      && sp_get_port_usb_vid_pid (port, &vid, &pid) == SP_OK)
    return g_strdup_printf ("%s, %04x:%04x", desc ? desc : "USB", vid, pid);
  return g_strdup (desc);
}

/* Opens and locks the port @name: its handle in @fd. NULL with @error set (and *@try_tty when
 * the device may be a tty libserialport cannot drive). */
static struct sp_port *
open_port (const char  *name,
           int         *fd,
           gboolean    *try_tty,
           GError     **error)
{
  struct sp_port *port = NULL;
  enum sp_return ret = sp_get_port_by_name (name, &port);

  if (ret != SP_OK)
    {
      *try_tty = TRUE;
      if (ret == SP_ERR_FAIL || ret == SP_ERR_ARG)
        tks_transport_set_open_error (error, ENOENT, name, NULL);
      else
        /* Translators: what was being done on a serial port, in “%s %s failed: %s” */
        set_sp_error (error, ret, name, _("opening"));
      return NULL;
    }

  ret = sp_open (port, SP_MODE_READ_WRITE);
  if (ret != SP_OK)
    {
      int code = ret == SP_ERR_FAIL ? sp_last_error_code () : 0;

      /* Not a permission, busy or missing device: maybe a tty libserialport cannot drive. */
      *try_tty = code != EACCES && code != EPERM && code != EBUSY && code != ENOENT;
      set_sp_error (error, ret, name, _("opening"));
      sp_free_port (port);
      return NULL;
    }

  if (sp_get_port_handle (port, fd) != SP_OK || *fd < 0 || !tks_transport_lock_tty (*fd, name, error))
    {
      if (error && *error == NULL)
        g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Could not open %s"), name);
      sp_close (port);
      sp_free_port (port);
      return NULL;
    }
  return port;
}

/* Sets @baud, 8N1 and the flow control @options ask for on @port. */
static gboolean
configure_port (struct sp_port            *port,
                const char                *name,
                guint                      baud,
                const TksTransportOptions *options,
                GError                   **error)
{
  struct sp_port_config *config = NULL;
  enum sp_flowcontrol flow = SP_FLOWCONTROL_NONE;
  enum sp_return ret;
  g_autofree char *what = NULL;

  if (options && options->flow_control == TKS_FLOW_RTSCTS)
    flow = SP_FLOWCONTROL_RTSCTS;
  else if (options && options->flow_control == TKS_FLOW_XONXOFF)
    flow = SP_FLOWCONTROL_XONXOFF;

  /* Translators: what was being done on a serial port, in “%s %s failed: %s” */
  what = g_strdup_printf (_("setting %u baud, 8N1"), baud);
  if ((ret = sp_new_config (&config)) != SP_OK
      || (ret = sp_set_config_baudrate (config, (int) baud)) != SP_OK
      || (ret = sp_set_config_bits (config, 8)) != SP_OK
      || (ret = sp_set_config_parity (config, SP_PARITY_NONE)) != SP_OK
      || (ret = sp_set_config_stopbits (config, 1)) != SP_OK
      || (ret = sp_set_config_flowcontrol (config, flow)) != SP_OK
      || (ret = sp_set_config (port, config)) != SP_OK)
    {
      set_sp_error (error, ret, name, what);
      if (config)
        sp_free_config (config);
      return FALSE;
    }
  sp_free_config (config);
  return TRUE;
}

TksTransport *
tks_transport_open_serial (const char                *name,
                           const TksTransportOptions *options,
                           gboolean                  *try_tty,
                           GError                   **error)
{
  guint baud = options && options->baud ? options->baud : 115200;
  struct sp_port *port;
  TksTransport *self = NULL;
  g_autofree char *desc = NULL;
  int fd = -1;

  *try_tty = FALSE;

  port = open_port (name, &fd, try_tty, error);
  if (port == NULL)
    return NULL;
  if (!configure_port (port, name, baud, options, error))
    {
      sp_close (port);
      sp_free_port (port);
      return NULL;
    }
  sp_flush (port, SP_BUF_INPUT);

  self = tks_transport_alloc (&serial_vtable, TKS_TRANSPORT_SERIAL, name, baud);
  self->port = port;
  self->fd = fd;
  desc = describe_port (port);
  if (desc != NULL && *desc != '\0')
    /* Translators: the port, its baud rate, then the device's description */
    self->description = g_strdup_printf (_("%s at %u baud (%s)"), name, baud, desc);
  else
    self->description = g_strdup_printf (_("%s at %u baud"), name, baud);
  return self;
}

static int
compare_info (gconstpointer a,
              gconstpointer b)
{
  const TksSerialPortInfo *ia = *(TksSerialPortInfo * const *) a;
  const TksSerialPortInfo *ib = *(TksSerialPortInfo * const *) b;

  return g_strcmp0 (ia->name, ib->name);
}

GPtrArray *
tks_serial_list_ports (GError **error)
{
  GPtrArray *ports = g_ptr_array_new_with_free_func ((GDestroyNotify) tks_serial_port_info_free);
  struct sp_port **list = NULL;
  enum sp_return ret = sp_list_ports (&list);

  if (ret != SP_OK)
    {
      /* Translators: in “%s %s failed: %s”, where the port and what was being done go */
      set_sp_error (error, ret, _("serial ports"), _("listing"));
      g_ptr_array_unref (ports);
      return NULL;
    }
  for (guint i = 0; list[i] != NULL; i++)
    {
      TksSerialPortInfo *info = g_new0 (TksSerialPortInfo, 1);
      const char *desc = sp_get_port_description (list[i]);

      info->name = g_strdup (sp_get_port_name (list[i]));
      info->description = g_strdup (desc ? desc : "");
      info->usb_vid = info->usb_pid = -1;
      if (sp_get_port_transport (list[i]) == SP_TRANSPORT_USB)
        sp_get_port_usb_vid_pid (list[i], &info->usb_vid, &info->usb_pid);
      g_ptr_array_add (ports, info);
    }
  sp_free_port_list (list);
  g_ptr_array_sort (ports, compare_info);
  return ports;
}

#else /* !HAVE_LIBSERIALPORT */

TksTransport *
tks_transport_open_serial (const char                *name,
                           const TksTransportOptions *options,
                           gboolean                  *try_tty,
                           GError                   **error)
{
  *try_tty = TRUE;
  g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
               _("Serial port support (libserialport) is not built in; cannot open %s"), name);
  return NULL;
}

GPtrArray *
tks_serial_list_ports (GError **error)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) tks_serial_port_info_free);
}

#endif
