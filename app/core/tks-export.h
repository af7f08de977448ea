/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture.h"

G_BEGIN_DECLS

/**
 * TksExportFormat:
 * @TKS_EXPORT_PERFETTO: Chrome/Perfetto trace-event JSON (opens in ui.perfetto.dev and
 *   chrome://tracing): one named track per thread sorted by lane, a complete ("X") slice per
 *   run, instants for IN/OUT marks, exits and the trigger; times in microseconds.
 * @TKS_EXPORT_CSV: everything the timeline draws, one row each, header
 *   `kind,thread,priority,creation_order,begin,end`, times in ticks.
 * @TKS_EXPORT_FTRACE: Linux ftrace text of `sched_switch` events (Trace Compass, KernelShark
 *   text importers), times in seconds.
 * @TKS_EXPORT_PARAVER: a Paraver trace, three files: NAME.prv (thread states running, ready,
 *   waiting; handlers and markers as events; times in ns), NAME.pcf (the names of states and
 *   events) and NAME.row (the names of the rows). Only tks_export_to_file() and
 *   tks_export_write_paraver() write it.
 * @TKS_EXPORT_VCD: a value change dump (GTKWave, PulseView): a wire per thread and per
 *   handler, markers as integers, at a timescale from the capture's resolution.
 */
typedef enum
{
  TKS_EXPORT_PERFETTO,
  TKS_EXPORT_CSV,
  TKS_EXPORT_FTRACE,
  TKS_EXPORT_PARAVER,
  TKS_EXPORT_VCD,
} TksExportFormat;

/**
 * TKS_EXPORT_DEFAULT_TICK_HZ:
 *
 * The tick rate an export uses for a capture that gives none and when none is given.
 */
#define TKS_EXPORT_DEFAULT_TICK_HZ 1000.0

gboolean     tks_export_format_from_string (const char      *name,
                                            TksExportFormat *format);
/**
 * tks_export_format_to_string:
 * @format: a format
 *
 * The name of @format, as tks_export_format_from_string() reads it: "perfetto", "csv",
 * "ftrace", "paraver" or "vcd".
 *
 * Returns: (transfer none) (nullable): the name, %NULL for a value that is no format
 */
const char  *tks_export_format_to_string   (TksExportFormat  format);

gboolean     tks_export_write              (TksCapture      *capture,
                                            TksExportFormat  format,
                                            double           tick_hz,
                                            GString         *out,
                                            GError         **error);
gboolean     tks_export_to_stream          (TksCapture      *capture,
                                            TksExportFormat  format,
                                            double           tick_hz,
                                            GOutputStream   *stream,
                                            GCancellable    *cancellable,
                                            GError         **error);

/**
 * TksExportUnit:
 * @TKS_EXPORT_UNIT_TICKS: ticks (fractional)
 * @TKS_EXPORT_UNIT_S: seconds, at the tick rate
 * @TKS_EXPORT_UNIT_MS: milliseconds
 * @TKS_EXPORT_UNIT_US: microseconds
 * @TKS_EXPORT_UNIT_NS: nanoseconds
 *
 * The unit of the CSV's times.
 */
typedef enum
{
  TKS_EXPORT_UNIT_TICKS,
  TKS_EXPORT_UNIT_S,
  TKS_EXPORT_UNIT_MS,
  TKS_EXPORT_UNIT_US,
  TKS_EXPORT_UNIT_NS,
} TksExportUnit;

/**
 * tks_export_unit_from_string:
 * @name: (nullable): "ticks", "s", "ms", "us" or "ns"
 * @unit: (out): the unit @name names
 *
 * Reads the name of a unit of the CSV's times.
 *
 * Returns: %TRUE if @name names a unit
 */
gboolean     tks_export_unit_from_string   (const char      *name,
                                            TksExportUnit   *unit);
/**
 * tks_export_to_stream_in_unit:
 * @capture: a capture
 * @format: the format to write (not %TKS_EXPORT_PARAVER)
 * @tick_hz: as for tks_export_write()
 * @unit: the unit of the CSV's times (the other formats have their own)
 * @stream: where to write; it is not closed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * As tks_export_to_stream(), the CSV's times in @unit. Fails with %TKS_ERROR_USAGE for a tick
 * rate that is not a positive number or for %TKS_EXPORT_PARAVER (three files: see
 * tks_export_to_file()), with the stream's error when writing fails or is cancelled.
 *
 * Returns: %TRUE on success
 */
gboolean     tks_export_to_stream_in_unit  (TksCapture      *capture,
                                            TksExportFormat  format,
                                            double           tick_hz,
                                            TksExportUnit    unit,
                                            GOutputStream   *stream,
                                            GCancellable    *cancellable,
                                            GError         **error);

/**
 * tks_export_to_file:
 * @capture: a capture
 * @format: the format to write
 * @tick_hz: as for tks_export_write()
 * @unit: the unit of the CSV's times
 * @path: (type filename): the file to write; Paraver: the three files @path names, with or
 *   without its ".prv" (tks_export_get_paths())
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * Writes the export to the file @path, each file through a temporary file renamed over it
 * once all are complete: a failure leaves every file as it was. Fails with %TKS_ERROR_USAGE
 * for a tick rate that is not a positive number, %TKS_ERROR_IO when a file cannot be written
 * (not a regular file, no room, no right to) or renamed, a #GIOError when writing fails or is
 * cancelled.
 *
 * Returns: %TRUE on success
 */
gboolean     tks_export_to_file            (TksCapture      *capture,
                                            TksExportFormat  format,
                                            double           tick_hz,
                                            TksExportUnit    unit,
                                            const char      *path,
                                            GCancellable    *cancellable,
                                            GError         **error);
/**
 * tks_export_get_paths:
 * @format: a format
 * @path: (type filename): the path given to tks_export_to_file()
 *
 * The files tks_export_to_file() writes for @path: @path itself, or Paraver's three.
 *
 * Returns: (transfer full) (array zero-terminated=1): the paths; free with g_strfreev()
 */
char       **tks_export_get_paths          (TksExportFormat  format,
                                            const char      *path);
/**
 * tks_export_write_paraver:
 * @capture: a capture
 * @tick_hz: as for tks_export_write()
 * @prv: the string to append the trace (NAME.prv) to
 * @pcf: the string to append the names of states and events (NAME.pcf) to
 * @row: the string to append the names of the rows (NAME.row) to
 * @error: return location for a #GError, or %NULL
 *
 * Appends Paraver's three files to three strings. Fails with %TKS_ERROR_USAGE for a tick rate
 * that is not a positive number.
 *
 * Returns: %TRUE on success
 */
gboolean     tks_export_write_paraver      (TksCapture      *capture,
                                            double           tick_hz,
                                            GString         *prv,
                                            GString         *pcf,
                                            GString         *row,
                                            GError         **error);

G_END_DECLS
