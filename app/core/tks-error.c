/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tks-error.h"

G_DEFINE_QUARK (tks-error-quark, tks_error)
