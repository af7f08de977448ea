/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture.h"

G_BEGIN_DECLS

/*
 * Coverage summaries of a capture's busy threads: for each thread with many runs, a bitmap
 * of fine time buckets over the whole capture (is any run there?) with rank counts, so
 * "does this thread run anywhere in [t0, t1)?" costs O(1). A zoomed-out frame then costs
 * O(pixel columns) instead of a search through the run array per column.
 *
 * Built once per capture (O(records), from any thread: the capture is only read) by the view
 * that draws it, which hands it to the drawing code with the geometry.
 */

typedef struct _TksCoverage TksCoverage;

TksCoverage *tks_coverage_new            (TksCapture        *capture);
void         tks_coverage_free           (TksCoverage       *coverage);

/* The width of a bucket of @thread's summary, in ticks; 0 when it has none. */
double       tks_coverage_bucket_width   (const TksCoverage *coverage,
                                          guint              thread);
/* Whether any of @thread's runs (the last one excepted when it runs at the end) overlaps
 * the buckets that [t0, t1) touches. The answer can be "yes" for a run up to one bucket
 * outside the range, never "no" for a run inside it. */
gboolean     tks_coverage_any            (const TksCoverage *coverage,
                                          guint              thread,
                                          double             t0,
                                          double             t1);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksCoverage, tks_coverage_free)

G_END_DECLS
