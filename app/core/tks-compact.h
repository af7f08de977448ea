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

/**
 * TKS_HASH_START:
 *
 * Where the dumps' checksums (every version) start: they are 32-bit FNV-1a, over bytes (a
 * compact line's characters, tks_hash_byte()) or over 32-bit words taken low byte first (the
 * records, tks_hash_word()).
 */
#define TKS_HASH_START 2166136261u

/**
 * tks_hash_byte:
 * @hash: the checksum so far (%TKS_HASH_START at first)
 * @byte: the next byte
 *
 * Folds @byte into @hash (32-bit FNV-1a).
 *
 * Returns: the checksum with @byte
 */
static inline guint32
tks_hash_byte (guint32 hash,
               guint8  byte)
{
  return (hash ^ byte) * 16777619u;
}

/**
 * tks_hash_word:
 * @hash: the checksum so far (%TKS_HASH_START at first)
 * @word: the next word, taken low byte first
 *
 * Folds the four bytes of @word into @hash.
 *
 * Returns: the checksum with @word
 */
static inline guint32
tks_hash_word (guint32 hash,
               guint32 word)
{
  hash = tks_hash_byte (hash, (guint8) word);
  hash = tks_hash_byte (hash, (guint8) (word >> 8));
  hash = tks_hash_byte (hash, (guint8) (word >> 16));
  return tks_hash_byte (hash, (guint8) (word >> 24));
}

/**
 * TksEntryKind:
 * @TKS_ENTRY_SWITCH: a switch or an exit (a = out thread, b = in thread)
 * @TKS_ENTRY_IRQ_ENTER: a handler enters
 * @TKS_ENTRY_IRQ_LEAVE: the innermost handler leaves
 * @TKS_ENTRY_SLEEP: the CPU goes idle
 * @TKS_ENTRY_WAKE: the CPU leaves idle
 * @TKS_ENTRY_READY: a thread is made ready
 * @TKS_ENTRY_MARKER: a marker
 * @TKS_ENTRY_BEGIN: a state begins
 * @TKS_ENTRY_END: a state ends
 * @TKS_ENTRY_TRIGGER: the trigger was set here
 *
 * The kinds of entries of dump version 2 (their payloads are those of #TksEventKind).
 */
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

/**
 * TksEntry:
 * @record: the board's record word (tick << 12 | out << 6 | in; for events out is 63 and in
 *   the kind, or 32 + id for a handler with a small id)
 * @counter: the realtime counter, when the board has one
 * @kind: a #TksEntryKind
 * @a: the payload's first word (see #TksEntryKind)
 * @b: its second word
 *
 * One entry of a board's log, as dump version 2 prints it and the compact decoder gives it.
 */
typedef struct
{
  guint32 record;
  guint32 counter;
  guint32 kind;       /* TksEntryKind */
  guint32 a;
  guint32 b;
} TksEntry;

/**
 * tks_entry_payload_words:
 * @entry: an entry
 *
 * The payload words dump version 2's checksum takes for @entry.
 *
 * Returns: 0, 1 (A) or 2 (A and B)
 */
guint    tks_entry_payload_words (const TksEntry *entry);
/**
 * tks_entry_hash:
 * @hash: the checksum so far (%TKS_HASH_START at first)
 * @entry: an entry
 * @with_counter: whether the board's records hold the counter
 *
 * Folds @entry into @hash as dump version 2's checksum does.
 *
 * Returns: the checksum with @entry
 */
guint32  tks_entry_hash          (guint32         hash,
                                  const TksEntry *entry,
                                  gboolean        with_counter);

/**
 * tks_entry_format:
 * @entry: an entry
 * @with_counter: whether to print the counter
 *
 * @entry as the line of dump version 2 the board prints for it; a switch without events as
 * dump version 1's.
 *
 * Returns: (transfer full): the line, without its end; free with g_free()
 */
char    *tks_entry_format        (const TksEntry *entry,
                                  gboolean        with_counter);

/**
 * TksCompactDecoder:
 *
 * Turns compact lines back into the board's entries, keeping their order and counting what
 * is lost.
 */
typedef struct _TksCompactDecoder TksCompactDecoder;

/**
 * TKS_COMPACT_MAX_ENTRIES:
 *
 * The most entries a compact line holds.
 */
#define TKS_COMPACT_MAX_ENTRIES 255

/**
 * TKS_COMPACT_LAST_CODER:
 *
 * The newest counter coder this version decodes ("Counter coder: N" in a header; 1 when the
 * header has none).
 */
#define TKS_COMPACT_LAST_CODER 4

/**
 * TksCompactStatus:
 * @TKS_COMPACT_LINE_OK: whole: its entries were decoded
 * @TKS_COMPACT_LINE_NOT_COMPACT: not a line of the compact log
 * @TKS_COMPACT_LINE_NO_CHECKSUM: no checksum where it ends
 * @TKS_COMPACT_LINE_DAMAGED: its checksum does not match
 * @TKS_COMPACT_LINE_UNDECODABLE: its checksum matches, but its bits are not whole entries
 * @TKS_COMPACT_LINE_OVERFULL: its bits go on past the entries its key frame announces
 * @TKS_COMPACT_LINE_UNCHAINED: with coder 2, it goes on from a line that was not decoded
 * @TKS_COMPACT_LINE_REPEATED: with coder 2, the line before, again
 * @TKS_COMPACT_LINE_LATE: with coder 2, numbered as the line before or earlier: out of order,
 *   it is left out and the state lines go on from kept
 *
 * What one compact line is, read on its own (see tks_compact_line_decode()).
 */
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

/**
 * TksCompactLine:
 * @status: what the line is
 * @seq: its sequence number (%TKS_COMPACT_LINE_DAMAGED: as it reads)
 * @check: its checksum, when it matches
 * @n_entries: %TKS_COMPACT_LINE_OK: the entries decoded
 *
 * One compact line, read on its own by tks_compact_line_decode().
 */
typedef struct
{
  TksCompactStatus status;
  guint32          seq;           /* its sequence number (DAMAGED: as it reads) */
  guint32          check;         /* its checksum, when it matches */
  guint            n_entries;     /* OK: the entries decoded */
} TksCompactLine;

/**
 * tks_compact_decoder_new:
 * @tick_hz: the board's tick rate (0: 1000)
 * @counter_hz: its counter's frequency, 0 without one
 *
 * Creates a decoder of coder 1 and 20 tick bits; a stream's header sets them
 * (tks_compact_header_decoder()).
 *
 * Returns: (transfer full): a new decoder; free with tks_compact_decoder_free()
 */
TksCompactDecoder *tks_compact_decoder_new      (guint64             tick_hz,
                                                 guint64             counter_hz);
/**
 * tks_compact_decoder_free:
 * @decoder: (nullable): a decoder
 *
 * Frees @decoder and its entries.
 */
void               tks_compact_decoder_free     (TksCompactDecoder  *decoder);
/**
 * tks_compact_decoder_line:
 * @decoder: a decoder
 * @line: (array length=len): one line, its end of line removed
 * @len: its length
 * @error: return location for a #GError, or %NULL
 *
 * Decodes one line into the decoder's entries. Fails with %TKS_ERROR_PARSE for a line that is
 * damaged, out of sequence or not a compact line: its entries are lost, the next good line
 * decodes as usual. Lines missing before this one are reported the same way, once. A line
 * that came twice fails with %TKS_ERROR_REPEATED: the line before come again (same number,
 * same checksum; or damaged, with the same number) is left out, a line said to be damaged
 * that comes again whole is kept; nothing is lost. A line numbered before the line expected
 * (half the numbers back at most: out of order, late, or a copy of an older line) fails with
 * %TKS_ERROR_REPEATED too: it is left out, and loses nothing that was not said lost already
 * (tks_compact_decoder_n_lost() counts each line once).
 *
 * Returns: %TRUE when the line's entries were decoded
 */
gboolean           tks_compact_decoder_line     (TksCompactDecoder  *decoder,
                                                 const char         *line,
                                                 gsize               len,
                                                 GError            **error);
/**
 * tks_compact_line_decode:
 * @decoder: a decoder
 * @line: (array length=len): one line, its end of line removed
 * @len: its length
 * @line_out: (out caller-allocates): what the line is
 * @entries: (out caller-allocates) (array fixed-size=127): room for
 *   %TKS_COMPACT_MAX_ENTRIES entries: the line's
 *
 * The first of the two halves of tks_compact_decoder_line(), for a reader that decodes lines
 * in parallel: reads @line alone. With coder 1 (every switch-only log) it only reads
 * @decoder, so several threads may call it at once; with coder 2 (set by
 * tks_compact_decoder_set_coder() from the header's "Counter coder: 2") lines go on from each
 * other: they are decoded one thread at a time, in order, and a line whose predecessor was
 * not decoded is %TKS_COMPACT_LINE_UNCHAINED.
 */
void               tks_compact_line_decode      (TksCompactDecoder  *decoder,
                                                 const char         *line,
                                                 gsize               len,
                                                 TksCompactLine     *line_out,
                                                 TksEntry           *entries);
/**
 * tks_compact_decoder_take:
 * @decoder: a decoder
 * @line: a line read by tks_compact_line_decode()
 * @error: return location for a #GError, or %NULL
 *
 * The second half of tks_compact_decoder_line(): takes the lines one by one in the order of
 * the log (the sequence numbers, the losses and the number of lines decoded). @error is set
 * when something is to be reported: the line is lost (%FALSE, %TKS_ERROR_PARSE), a copy of
 * the line before left out (%FALSE, %TKS_ERROR_REPEATED), lines before it are missing (%TRUE,
 * %TKS_ERROR_PARSE), or it is a line said to be damaged come again whole (%TRUE,
 * %TKS_ERROR_REPEATED).
 *
 * Returns: %TRUE when the line's entries belong to the log, which the caller then keeps (they
 *   do not go into the decoder's entries)
 */
gboolean           tks_compact_decoder_take     (TksCompactDecoder  *decoder,
                                                 const TksCompactLine *line,
                                                 GError            **error);
/**
 * tks_compact_line_may_start:
 * @decoder: a decoder
 * @line: (array length=len): a line
 * @len: its length
 *
 * Whether a reader that skips the lines before @line may start at it: with coder 2, only a
 * compact line with a key frame; with coder 1, any line.
 *
 * Returns: %TRUE when decoding may start at @line
 */
gboolean           tks_compact_line_may_start   (const TksCompactDecoder *decoder,
                                                 const char         *line,
                                                 gsize               len);
/**
 * tks_compact_line_room:
 * @line: (array length=len): a compact line
 * @len: its length
 *
 * The number of entries @line's key frame announces: a line that decodes holds exactly that
 * many.
 *
 * Returns: the entries, 0 when the key frame cannot be read
 */
guint              tks_compact_line_room        (const char         *line,
                                                 gsize               len);
/**
 * tks_compact_decoder_set_coder:
 * @decoder: a decoder
 * @coder: the header's "Counter coder" (1 or 2)
 *
 * Sets how the lines' counters are coded; the next line starts a new chain.
 */
void               tks_compact_decoder_set_coder (TksCompactDecoder *decoder,
                                                  guint              coder);
/**
 * tks_compact_decoder_set_tick_bits:
 * @decoder: a decoder
 * @bits: the header's "Tick bits", 8 to 20
 *
 * Sets the width of the board's record tick (20 until set): the ticks and their steps wrap
 * there.
 */
void               tks_compact_decoder_set_tick_bits (TksCompactDecoder *decoder,
                                                      guint              bits);
/**
 * tks_compact_decoder_lost:
 * @decoder: a decoder
 *
 * Says that the board dropped records (its "Lost:" line): its next line has a key frame, so a
 * chained line after it is %TKS_COMPACT_LINE_UNCHAINED rather than decoded from the state
 * before the loss.
 */
void               tks_compact_decoder_lost     (TksCompactDecoder  *decoder);
/**
 * tks_compact_decoder_entries:
 * @decoder: a decoder
 *
 * The entries decoded so far by tks_compact_decoder_line(), in order. The caller may empty
 * the array.
 *
 * Returns: (transfer none) (element-type TksEntry): the entries, owned by @decoder
 */
GArray            *tks_compact_decoder_entries  (TksCompactDecoder  *decoder);
/**
 * tks_compact_decoder_losses:
 * @decoder: a decoder
 *
 * Where the lost stretches of lines lie. The caller may empty the array.
 *
 * Returns: (transfer none) (element-type guint): for each, the index in the entries before
 *   which it lies; owned by @decoder
 */
GArray            *tks_compact_decoder_losses   (TksCompactDecoder  *decoder);
/**
 * tks_compact_decoder_n_lines:
 * @decoder: a decoder
 *
 * Returns: the number of lines decoded so far
 */
guint              tks_compact_decoder_n_lines  (TksCompactDecoder  *decoder);
/**
 * tks_compact_decoder_n_lost:
 * @decoder: a decoder
 *
 * The lines whose records are lost so far: missing, damaged, or not decodable; each once (a
 * line out of order or come twice is not counted again; a damaged line that came again whole
 * is no longer counted).
 *
 * Returns: the number of lines lost
 */
guint              tks_compact_decoder_n_lost   (TksCompactDecoder  *decoder);

/**
 * TksCompactHeader:
 * @tick_hz: "Tick frequency": 1000 until the header says; 0 when it says 0
 * @counter_hz: "Counter frequency" (none, or 0: no counter)
 * @coder: "Counter coder": 1 until the header says
 * @tick_bits: "Tick bits": 20 until the header says
 *
 * What a compact stream's header says that its lines need to decode
 * (mcu-lib/WIRE-FORMAT.md). Readers of the header take every line of it through
 * tks_compact_header_line(), starting from %TKS_COMPACT_HEADER_INIT.
 */
typedef struct
{
  guint64 tick_hz;      /* 1000 until the header says; 0 when it says 0 */
  guint64 counter_hz;
  guint64 coder;        /* 1 until the header says */
  guint64 tick_bits;    /* "Tick bits": 20 until the header says */
} TksCompactHeader;

/**
 * TKS_COMPACT_HEADER_INIT:
 *
 * A #TksCompactHeader before its header's lines are read.
 */
#define TKS_COMPACT_HEADER_INIT { 1000, 0, 1, 20 }

/**
 * tks_compact_header_line:
 * @header: the header read so far
 * @line: a line of the header
 *
 * Takes what @line says when it is one of the header's keys ("Key: N", whatever follows N, as
 * a dump's reader takes it; N below 2^32).
 *
 * Returns: %TRUE when @line was one of them
 */
gboolean           tks_compact_header_line      (TksCompactHeader   *header,
                                                 const char         *line);
/**
 * tks_compact_header_decoder:
 * @header: a header read
 *
 * A decoder for the compact lines after the header (a coder this version does not know
 * decodes as coder 1, as a dump's reader does: a reader that must not show wrong times
 * refuses it first).
 *
 * Returns: (transfer full): a new decoder; free with tks_compact_decoder_free()
 */
TksCompactDecoder *tks_compact_header_decoder   (const TksCompactHeader *header);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksCompactDecoder, tks_compact_decoder_free)

G_END_DECLS
