/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reader's part for dump version 2 (mcu-lib/WIRE-FORMAT.md): the header's new keys, the
 * Names section and every kind of entry of the log, with its words for the checksum. */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "tks-compact.h"
#include "tks-events-private.h"

#define TICK_BITS 20
#define EVENT_MARK 63u           /* the out-thread of an event entry */
#define MAX_THREAD_NUMBER 62     /* version 2: no thread has number 63 */
#define MAX_TOKENS 12
#define MAX_NAME_BYTES 1024      /* longer names are cut (a board's are function names) */
#define MAX_TEXT_BYTES 512       /* "Events", "Condition" */

static const char * const name_kinds[] = { "irq", "marker", "channel", "state" };

TksParsedEvents *
tks_parsed_events_new (guint dump_version)
{
  TksParsedEvents *events = g_new0 (TksParsedEvents, 1);

  events->info.dump_version = dump_version;
  events->entries = g_array_new (FALSE, FALSE, sizeof (TksParsedEntry));
  events->tick_period = (gint64) 1 << 20;
  events->hash = TKS_HASH_START;
  return events;
}

gboolean
tks_parsed_events_has_options (const TksParsedEvents *events)
{
  return events != NULL && events->options != NULL;
}

guint64
tks_parsed_events_counter_hz (const TksParsedEvents *events)
{
  return events != NULL && events->has_counter ? events->info.counter_hz : 0;
}

guint
tks_parsed_events_counter_coder (const TksParsedEvents *events)
{
  return events != NULL && events->counter_coder >= 2 ? events->counter_coder : 1;
}

void
tks_parsed_events_free (TksParsedEvents *events)
{
  if (events == NULL)
    return;
  for (guint i = 0; i < TKS_EVENTS_MAX_NAMES; i++)
    g_free (events->names[i].name);
  g_free (events->options);
  g_free (events->condition);
  g_free (events->counted);
  g_clear_pointer (&events->counted_names, g_ptr_array_unref);
  g_clear_pointer (&events->counted_calls, g_array_unref);
  g_array_unref (events->entries);
  g_free (events);
}

/* A decimal number of at most 10 digits that fits 32 bits: the whole of [@p, @end). */
static gboolean
read_u32 (const char *p,
          const char *end,
          guint32    *out)
{
  guint64 v = 0;

  if (p == end || end - p > 10)
    return FALSE;
  for (; p < end; p++)
    {
      if (*p < '0' || *p > '9')
        return FALSE;
      v = v * 10 + (guint64) (*p - '0');
    }
  if (v > G_MAXUINT32)
    return FALSE;
  *out = (guint32) v;
  return TRUE;
}

typedef struct
{
  const char *p;
  gsize       len;
} Token;

/* Splits @p..@end at spaces into at most MAX_TOKENS words; -1 when there are more. */
static int
tokenize (const char *p,
          const char *end,
          Token      *tokens)
{
  int n = 0;

  while (p < end)
    {
      const char *start;

      while (p < end && *p == ' ')
        p++;
      if (p == end)
        break;
      if (n == MAX_TOKENS)
        return -1;
      for (start = p; p < end && *p != ' '; p++)
        ;
      tokens[n++] = (Token) { start, (gsize) (p - start) };
    }
  return n;
}

/* Matches @tokens against @pattern (words separated by spaces; "#" a 32-bit number, "T" the
 * 20-bit tick), then an optional "@ COUNTER". The numbers go to @numbers in order. */
static gboolean
match (const Token *tokens,
       int          n_tokens,
       const char  *pattern,
       guint32     *numbers,
       guint       *n_numbers,
       gboolean    *has_counter,
       guint32     *counter)
{
  const char *w = pattern;
  int t = 0;

  *n_numbers = 0;
  for (; *w != '\0'; t++)
    {
      gsize len = strcspn (w, " ");

      if (t >= n_tokens)
        return FALSE;
      if (len == 1 && (*w == '#' || *w == 'T'))
        {
          guint32 v;

          if (!read_u32 (tokens[t].p, tokens[t].p + tokens[t].len, &v) ||
              (*w == 'T' && v >= (1u << TICK_BITS)))
            return FALSE;
          numbers[(*n_numbers)++] = v;
        }
      else if (tokens[t].len != len || memcmp (tokens[t].p, w, len) != 0)
        return FALSE;
      w += len;
      while (*w == ' ')
        w++;
    }
  *has_counter = FALSE;
  if (t == n_tokens)
    return TRUE;
  if (t + 2 != n_tokens || tokens[t].len != 1 || tokens[t].p[0] != '@' ||
      !read_u32 (tokens[t + 1].p, tokens[t + 1].p + tokens[t + 1].len, counter))
    return FALSE;
  *has_counter = TRUE;
  return TRUE;
}


/* The line formats of the entries, by kind (the switch first). */
static const char * const formats[TKS_N_EVENT_KINDS] = {
  [TKS_EVENT_SWITCH]      = "From # to # at T",
  [TKS_EVENT_IRQ_ENTER]   = "Irq enter # at T",
  [TKS_EVENT_IRQ_LEAVE]   = "Irq leave at T",
  [TKS_EVENT_SLEEP]       = "Sleep at T",
  [TKS_EVENT_WAKE]        = "Wake at T",
  [TKS_EVENT_READY]       = "Ready # at T",
  [TKS_EVENT_MARKER]      = "Marker # = # at T",
  [TKS_EVENT_STATE_BEGIN] = "State # begin # at T",
  [TKS_EVENT_STATE_END]   = "State # end at T",
  [TKS_EVENT_TRIGGER]     = "Trigger at T",
};

/* A handler with a name id up to this is stored as kind 32 + id, without payload. */
#define SHORT_IRQ_MAX 30

guint
tks_parsed_events_n_switches (TksParsedEvents *events)
{
  guint n = 0;

  for (guint i = 0; i < events->entries->len; i++)
    n += g_array_index (events->entries, TksParsedEntry, i).kind == TKS_EVENT_SWITCH;
  return n;
}

void
tks_parsed_events_clear_log (TksParsedEvents *events)
{
  g_array_set_size (events->entries, 0);
  events->hash = TKS_HASH_START;
}

/* The entry of a line of @kind with its @numbers (the tick, the last, is set already), and the
 * board's words for it (for the checksum): FALSE when a number is out of its range. */
static gboolean
entry_of_numbers (guint           kind,
                  const guint32  *numbers,
                  guint           n_numbers,
                  TksParsedEntry *entry,
                  TksEntry       *board)
{
  switch (kind)
    {
    case TKS_EVENT_SWITCH:
      if (numbers[0] > MAX_THREAD_NUMBER || numbers[1] > MAX_THREAD_NUMBER)
        return FALSE;
      entry->a = numbers[0];
      entry->b = numbers[1];
      board->record = entry->tick << 12 | entry->a << 6 | entry->b;
      break;
    case TKS_EVENT_STATE_BEGIN:
      /* channel | state << 8: both are name ids of one byte */
      if (numbers[0] > 0xFF || numbers[1] > 0xFF)
        return FALSE;
      entry->a = numbers[0];
      entry->b = numbers[1];
      board->a = entry->a | entry->b << 8;
      board->record = entry->tick << 12 | EVENT_MARK << 6 | kind;
      break;
    default:
      /* A name id has 8 bits (a board names at most 255), a thread number is at most 62: a
       * wider one is a garbled line, and the tracks stay as few as a board can make. */
      if (n_numbers > 1 &&
          numbers[0] > (kind == TKS_EVENT_READY ? MAX_THREAD_NUMBER : TKS_EVENTS_MAX_NAMES))
        return FALSE;
      if (n_numbers > 1)
        entry->a = board->a = numbers[0];
      if (n_numbers > 2)
        entry->b = board->b = numbers[1];
      board->record = entry->tick << 12 | EVENT_MARK << 6 | kind;
      /* a handler with a small id: its id in the record word */
      if (kind == TKS_EVENT_IRQ_ENTER && entry->a <= SHORT_IRQ_MAX)
        board->record = entry->tick << 12 | EVENT_MARK << 6 | (32 + entry->a);
      break;
    }
  return TRUE;
}

TksLogLine
tks_parsed_events_log_line (TksParsedEvents *events,
                            GArray          *records,
                            const char      *p,
                            const char      *end)
{
  Token tokens[MAX_TOKENS];
  int n_tokens = tokenize (p, end, tokens);
  guint32 numbers[4], counter = 0;
  guint n_numbers = 0;
  gboolean has_counter = FALSE;
  TksParsedEntry entry = { 0 };
  TksEntry board = { 0 };   /* as the board stores it, for the checksum */
  guint kind, payload;

  if (n_tokens <= 0)
    return TKS_LOG_LINE_NONE;
  for (kind = 0; kind < TKS_N_EVENT_KINDS; kind++)
    if (match (tokens, n_tokens, formats[kind], numbers, &n_numbers, &has_counter, &counter))
      break;
  /* Every line has the counter when the board has one, none has it otherwise. */
  if (kind == TKS_N_EVENT_KINDS || has_counter != events->has_counter)
    return TKS_LOG_LINE_NONE;

  entry.kind = (guint8) kind;
  entry.tick = numbers[n_numbers - 1];
  entry.counter = counter;
  if (!entry_of_numbers (kind, numbers, n_numbers, &entry, &board))
    return TKS_LOG_LINE_NONE;

  board.counter = counter;
  events->hash = tks_entry_hash (events->hash, &board, events->has_counter);
  /* its slots: the record, a continuation for a payload, two more for a marker's value
   * without the counter */
  payload = tks_entry_payload_words (&board);
  entry.slots = (guint8) (1 + (payload > 0) + (payload > 1 && !events->has_counter ? 2 : 0));

  if (kind == TKS_EVENT_SWITCH)
    {
      TksRecord record = { .tick = entry.tick, .out = (guint8) entry.a, .in = (guint8) entry.b };

      g_array_append_val (records, record);
    }
  /* A switch: its index; another entry: the records before it. */
  entry.record = kind == TKS_EVENT_SWITCH ? records->len - 1 : records->len;
  g_array_append_val (events->entries, entry);
  return kind == TKS_EVENT_SWITCH ? TKS_LOG_LINE_SWITCH : TKS_LOG_LINE_EVENT;
}

/* "Key: value" with the value a number up to @max. */
static gboolean
key_number (const char *p,
            const char *end,
            const char *key,
            guint64     max,
            guint64    *value,
            gboolean   *bad)
{
  const char *v = p + strlen (key);
  guint32 n;

  if ((gsize) (end - p) < strlen (key) || memcmp (p, key, strlen (key)) != 0)
    return FALSE;
  while (v < end && *v == ' ')
    v++;
  *bad = !read_u32 (v, end, &n) || n > max;
  *value = *bad ? 0 : n;
  return TRUE;
}

static char *
key_text (const char *p,
          const char *end,
          const char *key)
{
  const char *v = p + strlen (key);

  if ((gsize) (end - p) < strlen (key) || memcmp (p, key, strlen (key)) != 0)
    return NULL;
  while (v < end && *v == ' ')
    v++;
  return g_utf8_make_valid (v, MIN (end - v, MAX_TEXT_BYTES));
}

/* "Counted handler: NAME, N calls" (@text is what follows the key, taken): a handler the
 * board counts without logging it, and its calls so far; a later line of the same handler
 * (a recording reports them as it goes) replaces its count. FALSE when unreadable. */
static gboolean
counted_handler (TksParsedEvents *events,
                 char            *text)
{
  TksEventsInfo *info = &events->info;
  g_autofree char *owned = text;
  char *comma = strrchr (owned, ',');
  guint32 calls;
  guint i;
  GString *all;

  if (comma == NULL || comma == owned || !g_str_has_suffix (comma, " calls")
      || !read_u32 (comma + 2, comma + strlen (comma) - strlen (" calls"), &calls)
      || comma[1] != ' ')
    return FALSE;
  *comma = '\0';
  if (events->counted_names == NULL)
    {
      events->counted_names = g_ptr_array_new_with_free_func (g_free);
      events->counted_calls = g_array_new (FALSE, TRUE, sizeof (guint64));
    }
  for (i = 0; i < events->counted_names->len; i++)
    if (strcmp (g_ptr_array_index (events->counted_names, i), owned) == 0)
      break;
  if (i == events->counted_names->len)
    {
      /* As many as the board has names, at most. */
      if (i >= TKS_EVENTS_MAX_NAMES)
        return FALSE;
      g_ptr_array_add (events->counted_names, g_strdup (owned));
      g_array_set_size (events->counted_calls, i + 1);
    }
  g_array_index (events->counted_calls, guint64, i) = calls;

  all = g_string_new (NULL);
  info->counted_calls = 0;
  for (i = 0; i < events->counted_names->len; i++)
    {
      guint64 n = g_array_index (events->counted_calls, guint64, i);

      g_string_append_printf (all, "%s%s, %" G_GUINT64_FORMAT " calls", i != 0 ? "; " : "",
                              (const char *) g_ptr_array_index (events->counted_names, i), n);
      info->counted_calls += n;
    }
  g_free (events->counted);
  info->counted = events->counted = g_string_free (all, FALSE);
  return TRUE;
}

gboolean
tks_parsed_events_header (TksParsedEvents *events,
                          const char      *p,
                          const char      *end,
                          char           **problem)
{
  TksEventsInfo *info = &events->info;
  guint64 v;
  gboolean bad = FALSE;
  char *text;

  *problem = NULL;
  if (key_number (p, end, "Counter frequency:", G_MAXUINT32, &v, &bad))
    {
      bad = bad || v == 0;
      info->counter_hz = v;
      events->has_counter = TRUE;
    }
  else if (key_number (p, end, "Counter bits:", 32, &v, &bad))
    {
      /* The board's counter is read in 32 bits: the unwrap knows no other width. */
      bad = bad || v != 32;
      info->counter_bits = 32;
    }
  else if (key_number (p, end, "Counter coder:", TKS_COMPACT_LAST_CODER, &v, &bad))
    {
      bad = bad || v == 0;
      events->counter_coder = (guint) v;
    }
  else if (key_number (p, end, "Slot words:", 2, &v, &bad))
    info->slot_words = (guint) v;
  else if (key_number (p, end, "Slots:", G_MAXUINT32, &v, &bad))
    info->slots = v;
  else if (key_number (p, end, "Max names:", TKS_EVENTS_MAX_NAMES, &v, &bad))
    info->max_names = (guint) v;
  else if (key_number (p, end, "Names refused:", G_MAXUINT32, &v, &bad))
    info->names_refused = (guint) v;
  else if (key_number (p, end, "Trigger value:", G_MAXUINT32, &v, &bad))
    {
      info->trigger_value = v;
      info->has_trigger_value = !bad;
    }
  else if ((text = key_text (p, end, "Events:")) != NULL)
    {
      g_free (events->options);
      info->options = events->options = text;
    }
  else if ((text = key_text (p, end, "Condition:")) != NULL)
    {
      g_free (events->condition);
      info->condition = events->condition = text;
    }
  else if ((text = key_text (p, end, "Counted handler:")) != NULL)
    bad = !counted_handler (events, text);
  else
    return FALSE;

  if (bad)
    {
      g_autofree char *line = g_utf8_make_valid (p, MIN (end - p, 80));

      *problem = g_strdup_printf (_("unreadable or impossible value in the header: “%s”"), line);
    }
  return TRUE;
}

/* The id of "Name %2d :", from @p (after "Name ") to @colon. */
static gboolean
name_id (const char *p,
         const char *colon,
         guint32    *id)
{
  while (p < colon && *p == ' ')
    p++;
  while (colon > p && colon[-1] == ' ')
    colon--;
  return read_u32 (p, colon, id);
}

/* The kind of a name, @p to @end: its index in name_kinds, or the count of the kinds. */
static guint
name_kind (const char *p,
           const char *end)
{
  guint k;

  for (k = 0; k < G_N_ELEMENTS (name_kinds); k++)
    if ((gsize) (end - p) == strlen (name_kinds[k]) && memcmp (p, name_kinds[k], end - p) == 0)
      break;
  return k;
}

/* "Name %2d : Kind = %s, Name = %s": its id, its kind, and where the name starts. */
static gboolean
parse_name_line (const char  *p,
                 const char  *end,
                 guint32     *id,
                 guint       *kind_index,
                 const char **name_start)
{
  static const char head[] = "Name ";
  const char *colon, *kind, *comma, *name;

  if ((gsize) (end - p) < strlen (head) || memcmp (p, head, strlen (head)) != 0 ||
      (colon = memchr (p, ':', end - p)) == NULL || !name_id (p + strlen (head), colon, id))
    return FALSE;
  kind = colon + 1;
  while (kind < end && *kind == ' ')
    kind++;
  if ((gsize) (end - kind) < strlen ("Kind = ") || memcmp (kind, "Kind = ", strlen ("Kind = ")) != 0)
    return FALSE;
  kind += strlen ("Kind = ");
  if ((comma = memchr (kind, ',', end - kind)) == NULL)
    return FALSE;
  *kind_index = name_kind (kind, comma);
  name = comma + 1;
  while (name < end && *name == ' ')
    name++;
  if (*kind_index == G_N_ELEMENTS (name_kinds) ||
      (gsize) (end - name) < strlen ("Name =") || memcmp (name, "Name =", strlen ("Name =")) != 0)
    return FALSE;
  name += strlen ("Name =");
  if (name < end && *name == ' ')
    name++;
  *name_start = name;
  return TRUE;
}

gboolean
tks_parsed_events_name (TksParsedEvents *events,
                        const char      *p,
                        const char      *end,
                        char           **problem)
{
  const char *name;
  guint32 id;
  guint k;

  *problem = NULL;
  if (!parse_name_line (p, end, &id, &k, &name))
    return FALSE;

  if (id < 1 || id > TKS_EVENTS_MAX_NAMES)
    {
      *problem = g_strdup_printf (_("a name with id %u, outside 1 to %u, is ignored"), id,
                                  TKS_EVENTS_MAX_NAMES);
      return TRUE;
    }
  if (events->names[id - 1].name != NULL)
    {
      *problem = g_strdup_printf (_("name %u is listed twice: the first is kept"), id);
      return TRUE;
    }
  if (end - name > MAX_NAME_BYTES)
    *problem = g_strdup_printf (_("name %u is longer than %u bytes: cut"), id, MAX_NAME_BYTES);
  events->names[id - 1].kind = (guint8) k;
  events->names[id - 1].name = g_utf8_make_valid (name, MIN (end - name, MAX_NAME_BYTES));
  events->n_names = MAX (events->n_names, id);
  return TRUE;
}

void
tks_parsed_events_place_gaps (TksParsedEvents *events,
                              GArray          *gaps,
                              guint64          n_slots)
{
  const TksParsedEntry *e = (const TksParsedEntry *) (gconstpointer) events->entries->data;
  guint n = events->entries->len;
  guint64 used = 0, orphans;

  /* Slots before the first entry are continuations of an overwritten event. */
  for (guint i = 0; i < n; i++)
    used += e[i].slots;
  orphans = n_slots > used ? n_slots - used : 0;

  /* A hole before slot S lies before the entry that begins there, so before the first switch
   * at or after it. */
  for (guint g = 0; g < gaps->len; g++)
    {
      TksParsedGap *gap = &g_array_index (gaps, TksParsedGap, g);
      guint64 slot = orphans;
      guint i = 0;

      while (i < n && slot < gap->index)
        slot += e[i++].slots;
      /* (before the continuations that come first: before the first entry; after every
       * entry: after the last switch) */
      gap->index = slot != gap->index && i > 0 ? G_MAXUINT
                   : i < n ? e[i].record : tks_parsed_events_n_switches (events);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Saved captures: the events ride on "Tickscope event…" lines, which the original viewer's
 * loader and older readers skip (docs/capture-file.md).                                        */

/* @text on one line, without what a loader searches for or would take for a prompt: such
 * bytes, line ends and backslashes are written \xNN. */
static void
append_escaped (GString    *out,
                const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\\' || *p == '\r' || *p == '\n' || g_str_has_prefix (p, "ch>") ||
          g_str_has_prefix (p, "threads_") || g_str_has_prefix (p, "Saved position"))
        g_string_append_printf (out, "\\x%02x", (guchar) *p);
      else
        g_string_append_c (out, *p);
    }
}

static char *
unescape (const char *p,
          const char *end)
{
  GString *out = g_string_sized_new (end - p);

  for (; p < end; p++)
    {
      if (*p == '\\' && end - p >= 4 && p[1] == 'x' && g_ascii_isxdigit (p[2]) &&
          g_ascii_isxdigit (p[3]))
        {
          g_string_append_c (out, (char) (g_ascii_xdigit_value (p[2]) * 16 +
                                          g_ascii_xdigit_value (p[3])));
          p += 3;
        }
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

void
tks_parsed_events_write (const TksParsedEvents *events,
                         const GArray          *records,
                         GString               *out)
{
  const TksEventsInfo *info = &events->info;
  const TksParsedEntry *e = (const TksParsedEntry *) (gconstpointer) events->entries->data;
  const TksRecord *r = (const TksRecord *) (gconstpointer) records->data;

  /* the lines below are those of dump version 2, however the log travelled */
  g_string_append (out, "Tickscope events 2\n");
  if (events->has_counter)
    g_string_append_printf (out, "Tickscope event-header Counter frequency: %" G_GUINT64_FORMAT "\n"
                            "Tickscope event-header Counter bits: 32\n", info->counter_hz);
  g_string_append_printf (out, "Tickscope event-header Slot words: %u\n", info->slot_words);
  if (info->max_names > 0)
    g_string_append_printf (out, "Tickscope event-header Max names: %u\n", info->max_names);
  g_string_append_printf (out, "Tickscope event-header Names refused: %u\n", info->names_refused);
  if (info->has_trigger_value)
    g_string_append_printf (out, "Tickscope event-header Trigger value: %" G_GUINT64_FORMAT "\n",
                            info->trigger_value);
  for (guint i = 0; events->counted_names != NULL && i < events->counted_names->len; i++)
    {
      g_string_append (out, "Tickscope event-header Counted handler: ");
      append_escaped (out, g_ptr_array_index (events->counted_names, i));
      g_string_append_printf (out, ", %" G_GUINT64_FORMAT " calls\n",
                              g_array_index (events->counted_calls, guint64, i));
    }
  for (guint k = 0; k < 2; k++)
    {
      const char *text = k == 0 ? events->options : events->condition;

      if (text == NULL)
        continue;
      g_string_append_printf (out, "Tickscope event-header %s: ", k == 0 ? "Events" : "Condition");
      append_escaped (out, text);
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < TKS_EVENTS_MAX_NAMES; i++)
    if (events->names[i].name != NULL)
      {
        g_string_append_printf (out, "Tickscope event-name Name %2u : Kind = %s, Name = ", i + 1,
                                name_kinds[events->names[i].kind]);
        append_escaped (out, events->names[i].name);
        g_string_append_c (out, '\n');
      }

  /* Every entry as the board printed it; the switches the rebuild dropped are not saved, as
   * their records are not. */
  for (guint i = 0; i < events->entries->len; i++)
    {
      char stamp[16] = "";

      if (e[i].kind == TKS_EVENT_SWITCH &&
          (e[i].record >= records->len || (r[e[i].record].flags & TKS_RECORD_DROPPED)))
        continue;
      if (events->has_counter)
        g_snprintf (stamp, sizeof stamp, " @ %u", e[i].counter);
      g_string_append (out, "Tickscope event ");
      switch (e[i].kind)
        {
        case TKS_EVENT_SWITCH:
          g_string_append_printf (out, "From %2u to %2u", e[i].a, e[i].b);
          break;
        case TKS_EVENT_IRQ_ENTER:
          g_string_append_printf (out, "Irq enter %2u", e[i].a);
          break;
        case TKS_EVENT_IRQ_LEAVE:
          g_string_append (out, "Irq leave");
          break;
        case TKS_EVENT_SLEEP:
          g_string_append (out, "Sleep");
          break;
        case TKS_EVENT_WAKE:
          g_string_append (out, "Wake");
          break;
        case TKS_EVENT_READY:
          g_string_append_printf (out, "Ready %2u", e[i].a);
          break;
        case TKS_EVENT_MARKER:
          g_string_append_printf (out, "Marker %2u = %u", e[i].a, e[i].b);
          break;
        case TKS_EVENT_STATE_BEGIN:
          g_string_append_printf (out, "State %2u begin %2u", e[i].a, e[i].b);
          break;
        case TKS_EVENT_STATE_END:
          g_string_append_printf (out, "State %2u end", e[i].a);
          break;
        case TKS_EVENT_TRIGGER:
        default:
          g_string_append (out, "Trigger");
          break;
        }
      g_string_append_printf (out, " at %7u%s\n", e[i].tick, stamp);
    }
}

gboolean
tks_parsed_events_saved_line (TksParsedEvents **events,
                              GArray           *switches,
                              const char       *p,
                              const char       *end,
                              char            **problem)
{
  static const char version[] = "Tickscope events ";
  static const char header[] = "Tickscope event-header ";
  static const char name[] = "Tickscope event-name ";
  static const char entry[] = "Tickscope event ";
  gsize len = end - p;
  g_autofree char *text = NULL;

  *problem = NULL;
  if (len >= strlen (version) && memcmp (p, version, strlen (version)) == 0)
    {
      guint32 v;

      tks_parsed_events_free (*events);
      *events = NULL;
      g_array_set_size (switches, 0);
      if (!read_u32 (p + strlen (version), end, &v) || v != 2)
        {
          *problem = g_strdup (_("events of an unknown version are ignored"));
          return TRUE;
        }
      *events = tks_parsed_events_new (v);
      return TRUE;
    }
  if (*events == NULL)
    return len >= strlen (entry) - 1 && memcmp (p, entry, strlen (entry) - 1) == 0;
  if (len >= strlen (header) && memcmp (p, header, strlen (header)) == 0)
    {
      text = unescape (p + strlen (header), end);
      if (!tks_parsed_events_header (*events, text, text + strlen (text), problem))
        *problem = g_strdup (_("an unknown saved event header is ignored"));
      return TRUE;
    }
  if (len >= strlen (name) && memcmp (p, name, strlen (name)) == 0)
    {
      text = unescape (p + strlen (name), end);
      if (!tks_parsed_events_name (*events, text, text + strlen (text), problem))
        *problem = g_strdup (_("an unreadable saved name is ignored"));
      return TRUE;
    }
  if (len >= strlen (entry) && memcmp (p, entry, strlen (entry)) == 0)
    {
      if (tks_parsed_events_log_line (*events, switches, p + strlen (entry), end) == TKS_LOG_LINE_NONE)
        {
          /* One lost entry makes the rest uncertain: none of them is kept. */
          *problem = g_strdup (_("an unreadable saved event: the capture's events are ignored"));
          g_clear_pointer (events, tks_parsed_events_free);
        }
      return TRUE;
    }
  return FALSE;
}

TksParsedEvents *
tks_parsed_events_attach_saved (TksParsedEvents  *events,
                                GArray           *switches,
                                const GArray     *records,
                                char            **problem)
{
  const TksRecord *s = (const TksRecord *) (gconstpointer) switches->data;
  const TksRecord *r = (const TksRecord *) (gconstpointer) records->data;

  *problem = NULL;
  if (switches->len != records->len)
    {
      *problem = g_strdup_printf (_("the saved events hold %u switches, the log %u: they are "
                                    "ignored"), switches->len, records->len);
      tks_parsed_events_free (events);
      return NULL;
    }
  for (guint i = 0; i < records->len; i++)
    if (s[i].tick != r[i].tick || s[i].out != r[i].out || s[i].in != r[i].in)
      {
        *problem = g_strdup_printf (_("the saved events do not match the log at record %u: they "
                                    "are ignored"), i);
        tks_parsed_events_free (events);
        return NULL;
      }
  return events;
}
