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

#define TKS_EXPORT_DEFAULT_TICK_HZ 1000.0

gboolean     tks_export_format_from_string (const char      *name,
                                            TksExportFormat *format);
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

/* The unit of the CSV's times: ticks (fractional), or seconds, ms, µs, ns at the tick rate. */
typedef enum
{
  TKS_EXPORT_UNIT_TICKS,
  TKS_EXPORT_UNIT_S,
  TKS_EXPORT_UNIT_MS,
  TKS_EXPORT_UNIT_US,
  TKS_EXPORT_UNIT_NS,
} TksExportUnit;

/* "ticks", "s", "ms", "us", "ns" */
gboolean     tks_export_unit_from_string   (const char      *name,
                                            TksExportUnit   *unit);
/* As tks_export_to_stream(), the CSV's times in @unit (the other formats have their own). */
gboolean     tks_export_to_stream_in_unit  (TksCapture      *capture,
                                            TksExportFormat  format,
                                            double           tick_hz,
                                            TksExportUnit    unit,
                                            GOutputStream   *stream,
                                            GCancellable    *cancellable,
                                            GError         **error);

/* Writes the export to the file @path (Paraver: the three files @path names, with or without
 * its ".prv"), each through a temporary file renamed over it once all are complete: a failure
 * leaves every file as it was. The CSV's times in @unit. */
gboolean     tks_export_to_file            (TksCapture      *capture,
                                            TksExportFormat  format,
                                            double           tick_hz,
                                            TksExportUnit    unit,
                                            const char      *path,
                                            GCancellable    *cancellable,
                                            GError         **error);
/* The files tks_export_to_file() writes for @path (NULL-terminated). */
char       **tks_export_get_paths          (TksExportFormat  format,
                                            const char      *path);
/* Paraver's three files as strings. */
gboolean     tks_export_write_paraver      (TksCapture      *capture,
                                            double           tick_hz,
                                            GString         *prv,
                                            GString         *pcf,
                                            GString         *row,
                                            GError         **error);

G_END_DECLS
