/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The limits of what Tickscope takes from a board or a file, shared by every reader of its
 * text: the capture reader, and the live view that follows a recording (docs/guide.md). */

/**
 * TKS_MAX_LINE_BYTES:
 *
 * The longest line of a capture: a longer one is skipped, with a warning.
 */
#define TKS_MAX_LINE_BYTES 8192

/**
 * TKS_MAX_NAME_ID:
 *
 * Event names (handlers, markers, channels, states) have ids 1 to this: another is ignored,
 * with a warning.
 */
#define TKS_MAX_NAME_ID 255
