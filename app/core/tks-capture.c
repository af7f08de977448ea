/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tks-capture.h"
#include "tks-error.h"

struct _TksCapture
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (TksCapture, tks_capture, G_TYPE_OBJECT)

static void
tks_capture_class_init (TksCaptureClass *klass)
{
}

static void
tks_capture_init (TksCapture *self)
{
}
