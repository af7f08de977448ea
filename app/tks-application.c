/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tks-application.h"
#include "tks-budget.h"
#include "tks-window.h"

#include "tks-transport.h"
#ifdef HAVE_SIMBOARD
# include "tks-simboard.h"
#endif

struct _TksApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
};

G_DEFINE_FINAL_TYPE (TksApplication, tks_application, ADW_TYPE_APPLICATION)

static GSettings *
load_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaSource) local = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);

#ifdef TKS_BUILD_SCHEMA_DIR
  /* Running from the build tree: use the schema compiled next to it. */
  if (schema == NULL)
    {
      local = g_settings_schema_source_new_from_directory (TKS_BUILD_SCHEMA_DIR, source, FALSE, NULL);
      if (local != NULL)
        schema = g_settings_schema_source_lookup (local, APP_ID, FALSE);
    }
#endif

  if (schema == NULL)
    {
      g_debug ("Settings schema %s not found: settings will not be kept", APP_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

static TksWindow *
get_window (TksApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (tks_window_new (self));
  return TKS_WINDOW (window);
}

static void
tks_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (get_window (TKS_APPLICATION (app))));
}

static void
tks_application_open (GApplication  *app,
                      GFile        **files,
                      int            n_files,
                      const char    *hint)
{
  TksWindow *window = get_window (TKS_APPLICATION (app));

  if (n_files > 0)
    tks_window_open_file (window, files[0]);
  gtk_window_present (GTK_WINDOW (window));
}

static void
connect_board (TksWindow  *window,
               const char *address,
               gboolean    record,
               gboolean    events)
{
  if (record || events)
    tks_window_connect_and_record (window, address, events);
  else
    tks_window_connect (window, address);
}

static int
tks_application_command_line (GApplication            *app,
                              GApplicationCommandLine *cmdline)
{
  TksApplication *self = TKS_APPLICATION (app);
  GVariantDict *options = g_application_command_line_get_options_dict (cmdline);
  g_autofree const char **args = NULL;
  g_autofree char *flow = NULL;
  g_autofree char *at_text = NULL;
  g_autoptr(GError) error = NULL;
  double at = NAN;
  gboolean demo = FALSE, record = FALSE, events = FALSE;
  gint32 baud = 0;
  TksWindow *window;
  guint i;

  g_variant_dict_lookup (options, "demo", "b", &demo);
  g_variant_dict_lookup (options, "record", "b", &record);
  g_variant_dict_lookup (options, "record-events", "b", &events);
  g_variant_dict_lookup (options, "baud", "i", &baud);
  g_variant_dict_lookup (options, "flow", "s", &flow);
  g_variant_dict_lookup (options, "at", "s", &at_text);
  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &args);

  if (at_text != NULL && !tks_time_offset_parse (at_text, &at, &error))
    {
      g_application_command_line_printerr (cmdline, "--at: %s\n", error->message);
      return EXIT_FAILURE;
    }

  window = get_window (self);
  if (baud < 0 || !tks_window_set_line (window, (guint) baud, flow))
    {
      g_application_command_line_printerr (cmdline, "%s\n",
                                           _("--baud takes 300 to 4000000, --flow none, xonxoff or rtscts"));
      return EXIT_FAILURE;
    }
  /* The window is built: it appears with the capture read meanwhile rather than empty above a
   * progress bar, unless the read takes longer than a second (then the progress shows). */
  tks_capture_preload_wait (1000);
  gtk_window_present (GTK_WINDOW (window));

  if (demo)
    connect_board (window, "demo", record, events);

  for (i = 0; args != NULL && args[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_application_command_line_create_file_for_arg (cmdline, args[i]);
      g_autofree char *path = g_file_get_path (file);

      /* A regular file is a capture; anything else (a device, tcp:HOST:PORT) is a board. */
      if (path != NULL && g_file_test (path, G_FILE_TEST_IS_REGULAR))
        tks_window_open_file_at (window, file, at);
      else if (path != NULL && g_file_test (path, G_FILE_TEST_EXISTS))
        connect_board (window, path, record, events);
      else
        connect_board (window, args[i], record, events);
    }

  /* each capture of the command line has taken its preload over, or did not want it */
  tks_capture_preload_forget ();
  return EXIT_SUCCESS;
}

/* Runs before the application registers and starts GTK: the capture the window will open
 * (the last file of the command line, as each cancels the one before) is read meanwhile. */
static int
tks_application_handle_local_options (GApplication *app,
                                      GVariantDict *options)
{
  g_autofree const char **args = NULL;
  guint n;

  if (!g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &args))
    return -1;
  for (n = g_strv_length ((char **) args); n > 0; n--)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (args[n - 1]);
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL && g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          tks_capture_preload_file (file);
          break;
        }
    }
  return -1;
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  TksApplication *self = user_data;
  static const char *developers[] = { "The Tickscope developers", NULL };
  GtkWidget *about = adw_about_window_new ();

  gtk_window_set_transient_for (GTK_WINDOW (about),
                                gtk_application_get_active_window (GTK_APPLICATION (self)));
  g_object_set (about,
                "application-name", _("Tickscope"),
                "application-icon", APP_ID,
                "version", PACKAGE_VERSION,
                "comments", _("Thread timelines of ChibiOS boards"),
                "license-type", GTK_LICENSE_GPL_3_0,
                "developer-name", developers[0],
                "developers", developers,
                "translator-credits", _("translator-credits"),
                NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows = gtk_application_get_windows (app);

  /* close the windows so they save their state */
  while (windows != NULL)
    {
      GList *next = windows->next;
      gtk_window_destroy (windows->data);
      windows = next;
    }
  g_application_quit (G_APPLICATION (app));
}

/* The menu's Dark Style shows whether the window is dark, the system's preference or not.
 * Choosing what the system prefers follows the system again; choosing otherwise forces it. */
static void
dark_style_changed (GSimpleAction *action,
                    GVariant      *state,
                    gpointer       user_data)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  gboolean dark = g_variant_get_boolean (state);

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  if (adw_style_manager_get_dark (style) != dark)
    adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                    : ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_simple_action_set_state (action, state);
}

static void
style_dark_changed_cb (TksApplication *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "dark-style");
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  if (action != NULL)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (dark));
}

static void
tks_application_startup (GApplication *app)
{
  TksApplication *self = TKS_APPLICATION (app);
  static const GActionEntry entries[] = {
    { "about", about_activated, NULL, NULL, NULL, { 0 } },
    { "quit", quit_activated, NULL, NULL, NULL, { 0 } },
    { "dark-style", NULL, NULL, "false", dark_style_changed, { 0 } },
  };
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Control><Shift>s", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.statistics", { "<Control>i", NULL } },
    { "win.threads-panel", { "F9", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.find-next", { "F3", NULL } },
    { "win.find-previous", { "<Shift>F3", NULL } },
    { "win.find-thread", { "<Control><Shift>f", NULL } },
    { "win.events", { "F8", NULL } },
    { "win.zoom-fit", { "<Control>0", NULL } },
    { "win.zoom-to-marks", { "<Control>m", NULL } },
    { "win.back", { "<Alt>Left", NULL } },
    { "win.forward", { "<Alt>Right", NULL } },
    { "win.trigger", { "<Control>t", NULL } },
    { "win.run", { "<Control>r", NULL } },
    { "win.fetch", { "F5", NULL } },
    { "win.wake-arrows", { "<Control>k", NULL } },
    { "win.close", { "<Control>w", NULL } },
  };
  guint i;

  G_APPLICATION_CLASS (tks_application_parent_class)->startup (app);

#ifdef HAVE_SIMBOARD
  tks_transport_set_demo_funcs (tks_simboard_start_demo, tks_simboard_stop_demo);
#endif

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  for (i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);

  self->settings = load_settings ();

  /* The style manager follows the system's dark preference (the settings portal, or the
   * desktop's settings); the application's style-dark.css, and so the timeline, follow it. */
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (style_dark_changed_cb), self, G_CONNECT_SWAPPED);
  style_dark_changed_cb (self);
}

static void
tks_application_dispose (GObject *object)
{
  TksApplication *self = TKS_APPLICATION (object);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (tks_application_parent_class)->dispose (object);
}

static void
tks_application_class_init (TksApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = tks_application_dispose;
  app_class->activate = tks_application_activate;
  app_class->open = tks_application_open;
  app_class->command_line = tks_application_command_line;
  app_class->handle_local_options = tks_application_handle_local_options;
  app_class->startup = tks_application_startup;
}

static void
tks_application_init (TksApplication *self)
{
  static const GOptionEntry options[] = {
    { "demo", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("Connect to the built-in simulated board"), NULL },
    { "record", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("Once connected, record the board continuously (Record) rather than get its log once"), NULL },
    { "record-events", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("Record, with the board's interrupts, wake-ups and markers as well as its switches"), NULL },
    { "baud", 0, 0, G_OPTION_ARG_INT, NULL,
      N_("Baud rate of the serial port (default: the last one used, else 115200)"), N_("BAUD") },
    { "at", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Centre the timeline of the FILE opened on TIME from the time ruler's origin (the trigger, else the start): 1.25s, -300ms, 420us"), N_("TIME") },
    { "flow", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Flow control of the serial port: none, xonxoff or rtscts"), N_("FLOW") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL,
      NULL, N_("[FILE|PORT…]") },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE|PORT]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Open a capture file, or connect to a board on a serial port, a pty or tcp:HOST:PORT."));
}

TksApplication *
tks_application_new (void)
{
  return g_object_new (TKS_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE | G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/tickscope/Tickscope",
                       NULL);
}

GSettings *
tks_application_get_settings (TksApplication *self)
{
  g_return_val_if_fail (TKS_IS_APPLICATION (self), NULL);
  return self->settings;
}
