/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tks-export-name.h"

static void
test_format_from_name (void)
{
  g_assert_cmpstr (tks_export_name_get_format ("view.png"), ==, "png");
  g_assert_cmpstr (tks_export_name_get_format ("/tmp/a.b/VIEW.SVG"), ==, "svg");
  g_assert_cmpstr (tks_export_name_get_format ("x.pdf"), ==, "pdf");
  g_assert_cmpstr (tks_export_name_get_format ("trace.json"), ==, "perfetto");
  g_assert_cmpstr (tks_export_name_get_format ("t.csv"), ==, "csv");
  g_assert_cmpstr (tks_export_name_get_format ("t.ftrace"), ==, "ftrace");
  g_assert_cmpstr (tks_export_name_get_format ("t.trace"), ==, "ftrace");
  g_assert_cmpstr (tks_export_name_get_format ("run.prv"), ==, "paraver");
  g_assert_cmpstr (tks_export_name_get_format ("WAVE.VCD"), ==, "vcd");
  g_assert_null (tks_export_name_get_format ("run.pcf"));
  g_assert_null (tks_export_name_get_format ("timeline"));
  g_assert_null (tks_export_name_get_format ("timeline.txt"));
  g_assert_null (tks_export_name_get_format (".png"));
  g_assert_null (tks_export_name_get_format (""));
}

static void
test_extension (void)
{
  g_assert_cmpstr (tks_export_name_get_extension ("png"), ==, ".png");
  g_assert_cmpstr (tks_export_name_get_extension ("perfetto"), ==, ".json");
  g_assert_cmpstr (tks_export_name_get_extension ("ftrace"), ==, ".ftrace");
  g_assert_cmpstr (tks_export_name_get_extension ("paraver"), ==, ".prv");
  g_assert_cmpstr (tks_export_name_get_extension ("vcd"), ==, ".vcd");
  g_assert_null (tks_export_name_get_extension ("gif"));
}

static void
test_set_format (void)
{
  static const struct { const char *name, *format, *expected; } cases[] = {
    { "timeline.png", "svg", "timeline.svg" },
    { "timeline.svg", "pdf", "timeline.pdf" },
    { "timeline.PDF", "perfetto", "timeline.json" },
    { "capture.json", "csv", "capture.csv" },
    { "capture.csv", "ftrace", "capture.ftrace" },
    { "capture.trace", "png", "capture.png" },
    { "timeline.svg", "vcd", "timeline.vcd" },
    { "timeline.vcd", "paraver", "timeline.prv" },
    { "timeline.prv", "csv", "timeline.csv" },
    { "timeline", "csv", "timeline.csv" },
    { "timeline.v2", "png", "timeline.v2.png" },
    { "notes.txt", "svg", "notes.txt.svg" },
    { "Timeline.PNG", "png", "Timeline.PNG" },
    { "capture.trace", "ftrace", "capture.trace" },
    { "/tmp/out/view", "pdf", "/tmp/out/view.pdf" },
    { "", "png", "export.png" },
    { "view.png", "gif", "view.png" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = tks_export_name_set_format (cases[i].name, cases[i].format);

      g_assert_cmpstr (got, ==, cases[i].expected);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/view/export-name/format", test_format_from_name);
  g_test_add_func ("/view/export-name/extension", test_extension);
  g_test_add_func ("/view/export-name/set-format", test_set_format);
  return g_test_run ();
}
