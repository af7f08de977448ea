/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exporting: the view as PNG, SVG or PDF (drawn again at the window's size and in its font,
 * the lane headers widened to the longest name, under a band of the capture's name, range
 * and legend: tks-timeline-export.h), the whole capture as a Perfetto trace, CSV,
 * ftrace text, a Paraver trace (NAME.prv with NAME.pcf and NAME.row) or a VCD waveform; the
 * dialog that names the file after the format chosen. */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-error.h"
#include "tks-export.h"
#include "tks-export-name.h"
#include "tks-timeline-export.h"
#include "tks-timeline-view.h"
#include "tks-window-private.h"

/* What an exported image is titled: the capture's file, else where it came from. */
static char *
export_title (TksWindow *self)
{
  const char *source = tks_capture_get_source (self->capture);

  if (self->file != NULL)
    return g_file_get_basename (self->file);
  if (self->session != NULL && tks_session_get_address (self->session) != NULL)
    /* Translators: an exported image's title for a capture not saved; %s is the board's port */
    return g_strdup_printf (_("Capture from %s"), tks_session_get_address (self->session));
  return g_strdup (source != NULL && *source != '\0' ? source : _("capture"));
}

static gboolean
export_view (TksWindow   *self,
             const char  *path,
             const char  *format,
             GError     **error)
{
  TksTimelineGeometry g;
  double width = MAX (400, gtk_widget_get_width (GTK_WIDGET (self->timeline)));
  double height = MAX (200, gtk_widget_get_height (GTK_WIDGET (self->timeline)));
  PangoContext *pango = gtk_widget_get_pango_context (GTK_WIDGET (self->timeline));
  g_autofree char *title = export_title (self);
  TksTimelineExport request = { 0 };
  double header;

  tks_timeline_view_get_geometry (self->timeline, width, height, &g);
  /* the lane headers as wide as the longest name in view (within bounds), the time area as
   * on screen */
  header = tks_timeline_header_width (self->capture, &g, pango);
  width += header - g.left;
  g.left = header;
  /* the capture's name, its range and a legend above the view */
  request.capture = self->capture;
  request.geometry = &g;
  request.width = width;
  request.height = height;
  request.like = pango;
  request.title = title;
  return tks_timeline_export_write (&request, format, path, error);
}

static gboolean
export_capture (TksWindow   *self,
                const char  *path,
                const char  *format,
                GError     **error)
{
  TksExportFormat export_format;

  if (!tks_export_format_from_string (format, &export_format))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE, _("Unknown export format %s"), format);
      return FALSE;
    }
  /* each file complete before it replaces one (a Paraver trace's three before any) */
  return tks_export_to_file (self->capture, export_format, _tks_window_get_tick_hz (self),
                             TKS_EXPORT_UNIT_TICKS, path, NULL, error);
}

static void
export_response_cb (GtkDialog *dialog,
                    int        response,
                    TksWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->capture != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
      /* the name's extension decides; a name without a known one gets the chosen filter's format */
      const char *format = path != NULL ? tks_export_name_get_format (path) : NULL;
      g_autoptr(GError) error = NULL;
      gboolean ok;

      if (format == NULL && filter != NULL)
        format = g_object_get_data (G_OBJECT (filter), "tks-format");
      if (format == NULL)
        format = "png";
      /* A bare name ("timeline") gets the format's extension, unless that would replace a
       * file the dialog did not ask about. */
      if (path != NULL && tks_export_name_get_format (path) == NULL)
        {
          g_autofree char *base = g_path_get_basename (path);

          if (strchr (base, '.') == NULL)
            {
              g_autofree char *named = tks_export_name_set_format (path, format);

              if (!g_file_test (named, G_FILE_TEST_EXISTS))
                {
                  g_free (path);
                  path = g_steal_pointer (&named);
                }
            }
        }

      if (path == NULL)
        ok = FALSE, g_set_error (&error, TKS_ERROR, TKS_ERROR_IO, _("Only local files can be written"));
      else if (g_str_equal (format, "png") || g_str_equal (format, "svg") || g_str_equal (format, "pdf"))
        ok = export_view (self, path, format, &error);
      else
        ok = export_capture (self, path, format, &error);

      if (ok)
        {
          g_auto(GStrv) paths = tks_export_get_paths (TKS_EXPORT_PARAVER, path);
          g_autofree char *message = g_str_equal (format, "paraver")
            /* Translators: a Paraver trace's three files */
            ? g_strdup_printf (_("Exported “%s”, “%s” and “%s”."), paths[0], paths[1], paths[2])
            : g_strdup_printf (_("Exported “%s”."), path);
          _tks_window_show_message (self, message);
        }
      else
        {
          g_autofree char *message = g_strdup_printf (_("Could not export “%s”: %s"),
                                                      path ? path : "?", error->message);
          tks_window_show_error (self, message);
        }
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Choosing a format renames the file to match, as the user would otherwise have to. */
static void
export_filter_changed_cb (GtkFileChooser *chooser)
{
  GtkFileFilter *filter = gtk_file_chooser_get_filter (chooser);
  const char *format = filter != NULL ? g_object_get_data (G_OBJECT (filter), "tks-format") : NULL;
  g_autofree char *name = NULL;
  g_autofree char *renamed = NULL;

  if (format == NULL)
    return;
  name = gtk_file_chooser_get_current_name (chooser);
  renamed = tks_export_name_set_format (name != NULL ? name : "", format);
  if (g_strcmp0 (name, renamed) != 0)
    gtk_file_chooser_set_current_name (chooser, renamed);
}

void
_tks_window_export (TksWindow *self)
{
  GtkWidget *dialog;
  GtkFileChooser *chooser;

  if (self->capture == NULL)
    return;
  /* A dialog of our own (not a native one): it tells when the format filter changes. */
  dialog = gtk_file_chooser_dialog_new (_("Export"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Cancel"), GTK_RESPONSE_CANCEL,
                                        _("_Export"), GTK_RESPONSE_ACCEPT,
                                        NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  chooser = GTK_FILE_CHOOSER (dialog);
  _tks_window_add_filter (chooser, _("View as PNG image (*.png)"), "*.png", "png");
  _tks_window_add_filter (chooser, _("View as SVG image (*.svg)"), "*.svg", "svg");
  _tks_window_add_filter (chooser, _("View as PDF document (*.pdf)"), "*.pdf", "pdf");
  _tks_window_add_filter (chooser, _("Capture as Perfetto trace (*.json)"), "*.json", "perfetto");
  _tks_window_add_filter (chooser, _("Capture as CSV table (*.csv)"), "*.csv", "csv");
  _tks_window_add_filter (chooser, _("Capture as ftrace text (*.ftrace)"), "*.ftrace", "ftrace");
  _tks_window_add_filter (chooser, _("Capture as Paraver trace (*.prv, .pcf, .row)"), "*.prv",
                          "paraver");
  _tks_window_add_filter (chooser, _("Capture as VCD waveform (*.vcd)"), "*.vcd", "vcd");
  gtk_file_chooser_set_current_name (chooser, _("timeline.png"));
  if (self->file != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (self->file);

      if (parent != NULL)
        gtk_file_chooser_set_current_folder (chooser, parent, NULL);
    }
  g_signal_connect (dialog, "notify::filter", G_CALLBACK (export_filter_changed_cb), NULL);
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (export_response_cb), self);
  gtk_window_present (GTK_WINDOW (dialog));
}
