/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tks-compact-private.h"
#include "tks-error.h"

/* The decoded lines in the log's order: their sequence numbers tell a line lost, late or come
 * twice from the next one (mcu-lib/WIRE-FORMAT.md); the entries of the lines kept, and where
 * records were lost. */

GArray *
tks_compact_decoder_entries (TksCompactDecoder *self)
{
  return self->entries;
}

GArray *
tks_compact_decoder_losses (TksCompactDecoder *self)
{
  return self->losses;
}

guint
tks_compact_decoder_n_lines (TksCompactDecoder *self)
{
  return self->n_lines;
}

guint
tks_compact_decoder_n_lost (TksCompactDecoder *self)
{
  return self->n_lost;
}

static void
note_loss (TksCompactDecoder *self)
{
  guint at = self->entries->len;

  if (self->losses->len == 0 || g_array_index (self->losses, guint, self->losses->len - 1) != at)
    g_array_append_val (self->losses, at);
}

/* A line whose records are lost: the hole is marked and counted. */
static void
lose_line (TksCompactDecoder *self,
           guint              n)
{
  note_loss (self);
  self->n_lost += n;
}

/* The number the next line is expected to have is the one after @seq. */
static void
expect_after (TksCompactDecoder *self,
              guint32            seq)
{
  self->next_seq = (seq + 1) & SEQ_MASK;
  self->started = TRUE;
}

/* The line taken before, again (a link that repeats itself): nothing is lost, and its copy is
 * not taken twice. */
static gboolean
line_repeated (guint32   seq,
               GError  **error)
{
  g_set_error (error, TKS_ERROR, TKS_ERROR_REPEATED,
               _("compact line %u came twice: its copy is left out"), seq);
  return FALSE;
}

/* A line numbered before the one expected: late (out of order), a copy of an older line, or
 * the number of the line before on other bits. What it would bring was taken already or said
 * lost (the missing or damaged line of its number): it is left out, and nothing more is lost. */
static gboolean
line_late (TksCompactDecoder  *self,
           guint32             seq,
           GError            **error)
{
  guint32 before = (self->next_seq - 1) & SEQ_MASK;

  if (seq == before)
    g_set_error (error, TKS_ERROR, TKS_ERROR_REPEATED,
                 _("compact line %u came twice, with other records: the second is left out"), seq);
  else
    g_set_error (error, TKS_ERROR, TKS_ERROR_REPEATED,
                 _("compact line %u came after line %u, out of order: it is left out"), seq,
                 before);
  return FALSE;
}

/* A line whose checksum does not match: lost, unless it is most likely a copy of the line
 * before (that line was taken whole, or said to be damaged already). */
static gboolean
line_damaged (TksCompactDecoder  *self,
              guint32             seq,
              GError            **error)
{
  if ((self->has_last && seq == self->last_seq) ||
      (self->has_damaged && seq == self->damaged_seq))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_REPEATED,
                   _("compact line %u came twice, the copy damaged: it is left out"), seq);
      return FALSE;
    }
  lose_line (self, 1);
  g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
               _("compact line %u is damaged (its checksum does not match): its records are lost"),
               seq);
  if (seq == self->next_seq)
    {
      expect_after (self, seq);
      self->damaged_seq = seq;
      self->has_damaged = TRUE;
    }
  return FALSE;
}

/* Lines whose number is not read, or not to be trusted: FALSE when @line is one of them (its
 * loss said in @error). */
static gboolean
line_numbered (TksCompactDecoder     *self,
               const TksCompactLine  *line,
               GError               **error)
{
  switch (line->status)
    {
    case TKS_COMPACT_LINE_NOT_COMPACT:
      lose_line (self, 1);
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, _("not a line of the compact log"));
      return FALSE;
    case TKS_COMPACT_LINE_NO_CHECKSUM:
      lose_line (self, 1);
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, _("compact line without its checksum"));
      return FALSE;
    case TKS_COMPACT_LINE_DAMAGED:
      return line_damaged (self, line->seq, error);
    case TKS_COMPACT_LINE_REPEATED:
      return line_repeated (line->seq, error);
    case TKS_COMPACT_LINE_LATE:
      return line_late (self, line->seq, error);
    case TKS_COMPACT_LINE_OK:
    case TKS_COMPACT_LINE_UNDECODABLE:
    case TKS_COMPACT_LINE_OVERFULL:
    case TKS_COMPACT_LINE_UNCHAINED:
    default:
      return TRUE;
    }
}

/* A good line numbered after the one expected: the lines between are missing (said, counted);
 * its own records are kept. */
static void
lines_missing (TksCompactDecoder  *self,
               guint32             seq,
               GError            **error)
{
  guint32 missing = seq_ahead (seq, self->next_seq);

  lose_line (self, missing);
  g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
               g_dngettext (GETTEXT_PACKAGE, "compact line %u is missing: its records are lost",
                            "compact lines %u to %u are missing: their records are lost", missing),
               (guint) self->next_seq, (guint) ((seq - 1) & SEQ_MASK));
}

/* A line in its place whose records are lost all the same: why, after the lines missing
 * before it, if any (already in @error). */
static gboolean
line_not_decoded (TksCompactDecoder     *self,
                  const TksCompactLine  *line,
                  GError               **error)
{
  g_autofree char *missing = error != NULL && *error != NULL ? g_strdup ((*error)->message) : NULL;
  g_autofree char *text = NULL;

  if (line->status == TKS_COMPACT_LINE_UNCHAINED)
    text = g_strdup_printf (_("compact line %u goes on from a line that was lost: its records "
                              "are lost"), line->seq);
  else if (line->status == TKS_COMPACT_LINE_OVERFULL)
    text = g_strdup_printf (_("compact line %u holds more than the entries it announces (a "
                              "damaged count): its records are lost"), line->seq);
  else
    text = g_strdup_printf (_("compact line %u cannot be decoded: its records are lost"),
                            line->seq);
  lose_line (self, 1);
  g_clear_error (error);
  g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, "%s%s%s", missing != NULL ? missing : "",
               missing != NULL ? "; " : "", text);
  return FALSE;
}

gboolean
tks_compact_decoder_take (TksCompactDecoder     *self,
                          const TksCompactLine  *line,
                          GError               **error)
{
  guint32 seq = line->seq;

  if (!line_numbered (self, line, error))
    return FALSE;
  if (self->has_last && seq == self->last_seq && line->check == self->last_check)
    return line_repeated (seq, error);
  if (self->has_damaged && seq == self->damaged_seq && seq == ((self->next_seq - 1) & SEQ_MASK))
    {
      /* the line just said to be damaged came again, whole: its records are kept after all
       * (unless it cannot be decoded either, said and counted again below) */
      self->has_damaged = FALSE;
      self->n_lost--;
      if (line->status == TKS_COMPACT_LINE_OK)
        {
          g_set_error (error, TKS_ERROR, TKS_ERROR_REPEATED,
                       _("compact line %u came again, whole: its records are kept"), seq);
        }
    }
  else if (self->started && seq_ahead (seq, self->next_seq) >= SEQ_HALF)
    return line_late (self, seq, error);
  else if (seq != self->next_seq)
    lines_missing (self, seq, error);
  expect_after (self, seq);
  self->has_last = TRUE;
  self->last_seq = seq;
  self->last_check = line->check;
  self->has_damaged = FALSE;
  if (line->status != TKS_COMPACT_LINE_OK)
    return line_not_decoded (self, line, error);
  self->n_lines++;
  return TRUE;
}

gboolean
tks_compact_decoder_line (TksCompactDecoder *self, const char *line, gsize len, GError **error)
{
  TksEntry entries[TKS_COMPACT_MAX_ENTRIES];
  TksCompactLine decoded;
  GError *local_error = NULL;

  tks_compact_line_decode (self, line, len, &decoded, entries);
  if (!tks_compact_decoder_take (self, &decoded, &local_error))
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  g_array_append_vals (self->entries, entries, decoded.n_entries);
  if (local_error != NULL)
    {
      /* Lines before it are missing: said, and its entries kept. */
      g_propagate_error (error, local_error);
      return error == NULL;
    }
  return TRUE;
}
