/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The compact encoding of a board's log (threads_dump_compact, dump version 3; see
 * mcu-lib/WIRE-FORMAT.md): lines of base64 characters, each with a sequence number, a key
 * frame and a checksum, so that a lost or damaged line costs only its own entries.
 *
 * The decoder turns lines back into the entries of dump version 2 (a switch, or an event with
 * its payload), as the board stored them.
 */

/* The dumps' checksums (every version): 32-bit FNV-1a, from TKS_HASH_START, over bytes (a
 * compact line's characters) or over 32-bit words taken low byte first (the records). */
#define TKS_HASH_START 2166136261u

static inline guint32
tks_hash_byte (guint32 hash,
               guint8  byte)
{
  return (hash ^ byte) * 16777619u;
}

static inline guint32
tks_hash_word (guint32 hash,
               guint32 word)
{
  hash = tks_hash_byte (hash, (guint8) word);
  hash = tks_hash_byte (hash, (guint8) (word >> 8));
  hash = tks_hash_byte (hash, (guint8) (word >> 16));
  return tks_hash_byte (hash, (guint8) (word >> 24));
}

/* Event kinds of dump version 2 (0: a switch or an exit). */
typedef enum
{
  TKS_ENTRY_SWITCH    = 0,
  TKS_ENTRY_IRQ_ENTER = 1,
  TKS_ENTRY_IRQ_LEAVE = 2,
  TKS_ENTRY_SLEEP     = 3,
  TKS_ENTRY_WAKE      = 4,
  TKS_ENTRY_READY     = 5,
  TKS_ENTRY_MARKER    = 6,
  TKS_ENTRY_BEGIN     = 7,
  TKS_ENTRY_END       = 8,
  TKS_ENTRY_TRIGGER   = 9,
} TksEntryKind;

/* One entry: @record is the board's record word (tick << 12 | out << 6 | in; for events out is
 * 63 and in the kind, or 32 + id for a handler with a small id); @counter the realtime counter
 * when the board has one; @a and @b the payload (see the kinds above). */
typedef struct
{
  guint32 record;
  guint32 counter;
  guint32 kind;       /* TksEntryKind */
  guint32 a;
  guint32 b;
} TksEntry;

/* Payload words dump version 2's checksum takes for @entry (0, 1: A, 2: A and B). */
guint    tks_entry_payload_words (const TksEntry *entry);
/* Folds @entry into @hash as dump version 2's checksum does (start from TKS_HASH_START). */
guint32  tks_entry_hash          (guint32         hash,
                                  const TksEntry *entry,
                                  gboolean        with_counter);

/* @entry as the line of dump version 2 the board prints for it (with the counter when
 * @with_counter); a switch without events as dump version 1's. */
char    *tks_entry_format        (const TksEntry *entry,
                                  gboolean        with_counter);

typedef struct _TksCompactDecoder TksCompactDecoder;

/* The most entries a compact line holds. */
#define TKS_COMPACT_MAX_ENTRIES 127

/* The newest counter coder this version decodes ("Counter coder: N" in a header; 1 when the
 * header has none). */
#define TKS_COMPACT_LAST_CODER 2

/* What one compact line is, read on its own (see tks_compact_line_decode()). */
typedef enum
{
  TKS_COMPACT_LINE_OK,            /* whole: its entries were decoded */
  TKS_COMPACT_LINE_NOT_COMPACT,   /* not a line of the compact log */
  TKS_COMPACT_LINE_NO_CHECKSUM,   /* no checksum where it ends */
  TKS_COMPACT_LINE_DAMAGED,       /* its checksum does not match */
  TKS_COMPACT_LINE_UNDECODABLE,   /* its checksum matches, but its bits are not whole entries */
  TKS_COMPACT_LINE_OVERFULL,      /* its bits go on past the entries its key frame announces */
  TKS_COMPACT_LINE_UNCHAINED,     /* (coder 2) it goes on from a line that was not decoded */
  TKS_COMPACT_LINE_REPEATED,      /* (coder 2) the line before, again */
  TKS_COMPACT_LINE_LATE,          /* (coder 2) numbered as the line before or earlier: out of
                                   * order, it is left out and the state lines go on from kept */
} TksCompactStatus;

typedef struct
{
  TksCompactStatus status;
  guint32          seq;           /* its sequence number (DAMAGED: as it reads) */
  guint32          check;         /* its checksum, when it matches */
  guint            n_entries;     /* OK: the entries decoded */
} TksCompactLine;

/* @tick_hz: the board's tick rate; @counter_hz: its counter's frequency, 0 without one. */
TksCompactDecoder *tks_compact_decoder_new      (guint64             tick_hz,
                                                 guint64             counter_hz);
void               tks_compact_decoder_free     (TksCompactDecoder  *decoder);
/* Decodes one line (its end of line removed). FALSE with @error (TKS_ERROR_PARSE) for a line
 * that is damaged, out of sequence or not a compact line: its entries are lost, the next good
 * line decodes as usual. Lines missing before this one are reported the same way, once. A
 * line that came twice is FALSE with TKS_ERROR_REPEATED: the line before come again (same
 * number, same checksum; or damaged, with the same number) is left out, a line said to be
 * damaged that comes again whole is kept; nothing is lost. A line numbered before the line
 * expected (half the numbers back at most: out of order, late, or a copy of an older line) is
 * FALSE with TKS_ERROR_REPEATED too: it is left out, and loses nothing that was not said lost
 * already (tks_compact_decoder_n_lost() counts each line once). */
gboolean           tks_compact_decoder_line     (TksCompactDecoder  *decoder,
                                                 const char         *line,
                                                 gsize               len,
                                                 GError            **error);
/* The two halves of tks_compact_decoder_line(), for a reader that decodes lines in parallel:
 * tks_compact_line_decode() reads @line alone into @line_out and @entries (room for
 * TKS_COMPACT_MAX_ENTRIES); with coder 1 (every switch-only log) it only reads @decoder, so
 * several threads may call it at once; with coder 2 (set by tks_compact_decoder_set_coder()
 * from the header's "Counter coder: 2") lines go on from each other: they are decoded one
 * thread at a time, in order, and a line whose predecessor was not decoded is UNCHAINED.
 * tks_compact_decoder_take() then takes the lines one by one in the order of the log (the
 * sequence numbers, the losses and the number of lines decoded): TRUE when the line's entries
 * belong to the log, which the caller then keeps (they do not go into the decoder's entries);
 * @error is set when something is to be reported: the line is lost (FALSE), a copy of the line
 * before left out (FALSE, TKS_ERROR_REPEATED), lines before it are missing (TRUE), or it is a
 * line said to be damaged come again whole (TRUE, TKS_ERROR_REPEATED). */
void               tks_compact_line_decode      (TksCompactDecoder  *decoder,
                                                 const char         *line,
                                                 gsize               len,
                                                 TksCompactLine     *line_out,
                                                 TksEntry           *entries);
gboolean           tks_compact_decoder_take     (TksCompactDecoder  *decoder,
                                                 const TksCompactLine *line,
                                                 GError            **error);
/* The number of entries @line's key frame announces (0 when it cannot be read): a line that
 * decodes holds exactly that many. */
/* Whether a reader that skips the lines before @line may start at it: with coder 2, only a
 * compact line with a key frame; with coder 1, any line. */
gboolean           tks_compact_line_may_start   (const TksCompactDecoder *decoder,
                                                 const char         *line,
                                                 gsize               len);
guint              tks_compact_line_room        (const char         *line,
                                                 gsize               len);
void               tks_compact_decoder_set_coder (TksCompactDecoder *decoder,
                                                  guint              coder);
/* The width of the board's record tick ("Tick bits", 20 until set; 8 to 20): the ticks and
 * their steps wrap there. */
void               tks_compact_decoder_set_tick_bits (TksCompactDecoder *decoder,
                                                      guint              bits);
/* The board dropped records (its "Lost:" line): its next line has a key frame, so a chained
 * line after it is UNCHAINED rather than decoded from the state before the loss. */
void               tks_compact_decoder_lost     (TksCompactDecoder  *decoder);
/* The entries decoded so far, in order (TksEntry). */
GArray            *tks_compact_decoder_entries  (TksCompactDecoder  *decoder);
/* The index in the entries before which each lost stretch of lines lies (guint). */
GArray            *tks_compact_decoder_losses   (TksCompactDecoder  *decoder);
guint              tks_compact_decoder_n_lines  (TksCompactDecoder  *decoder);
/* The lines whose records are lost so far: missing, damaged, or not decodable; each once
 * (a line out of order or come twice is not counted again; a damaged line that came again
 * whole is no longer counted). */
guint              tks_compact_decoder_n_lost   (TksCompactDecoder  *decoder);

/* What a compact stream's header says that its lines need to decode (mcu-lib/WIRE-FORMAT.md):
 * "Tick frequency: N", "Tick bits: N", "Counter frequency: N" (none, or 0: no counter) and
 * "Counter coder: N".
 * Readers of the header take every line of it through tks_compact_header_line(). */
typedef struct
{
  guint64 tick_hz;      /* 1000 until the header says; 0 when it says 0 */
  guint64 counter_hz;
  guint64 coder;        /* 1 until the header says */
  guint64 tick_bits;    /* "Tick bits": 20 until the header says */
} TksCompactHeader;

#define TKS_COMPACT_HEADER_INIT { 1000, 0, 1, 20 }

/* Takes what @line says when it is one of those lines ("Key: N", whatever follows N, as a
 * dump's reader takes it; N below 2^32): TRUE. */
gboolean           tks_compact_header_line      (TksCompactHeader   *header,
                                                 const char         *line);
/* A decoder for the compact lines after the header (a coder this version does not know
 * decodes as coder 1, as a dump's reader does: a reader that must not show wrong times
 * refuses it first). */
TksCompactDecoder *tks_compact_header_decoder   (const TksCompactHeader *header);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksCompactDecoder, tks_compact_decoder_free)

G_END_DECLS
