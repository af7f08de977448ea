/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Timing budgets (tks-budget.h): the file read line by line, so that each mistake is named
 * with its line, then each budget measured through the capture's profile. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "tks-activations.h"
#include "tks-budget.h"
#include "tks-error.h"
#include "tks-events.h"
#include "tks-profile.h"

#define CAPTURE_GROUP "capture"
#define SHARE_WINDOW_KEY "share-window"

struct _TksBudgets
{
  GPtrArray *budgets;       /* TksBudget */
  double     share_window;  /* seconds */
};

static const char * const kind_names[TKS_N_BUDGET_KINDS] = {
  [TKS_BUDGET_MAX_LATENCY] = "max-latency",
  [TKS_BUDGET_MAX_SHARE] = "max-share",
  [TKS_BUDGET_MAX_RUN] = "max-run",
  [TKS_BUDGET_PERIOD] = "period",
  [TKS_BUDGET_MAX_JITTER] = "max-jitter",
  [TKS_BUDGET_MAX_DURATION] = "max-duration",
  [TKS_BUDGET_MAX_DROPPED] = "max-dropped",
};

/* Which keys each kind of group takes, and what they measure. */
static const struct
{
  guint           kind;
  TksQuantityKind quantity;
  guint           groups;    /* 1 thread, 2 handler, 4 capture */
} keys[] = {
  { TKS_BUDGET_MAX_LATENCY,  TKS_QUANTITY_TIME,    1 },
  { TKS_BUDGET_MAX_SHARE,    TKS_QUANTITY_PERCENT, 1 | 2 },
  { TKS_BUDGET_MAX_RUN,      TKS_QUANTITY_TIME,    1 },
  { TKS_BUDGET_PERIOD,       TKS_QUANTITY_TIME,    1 },
  { TKS_BUDGET_MAX_JITTER,   TKS_QUANTITY_TIME,    1 },
  { TKS_BUDGET_MAX_DURATION, TKS_QUANTITY_TIME,    2 },
  { TKS_BUDGET_MAX_DROPPED,  TKS_QUANTITY_COUNT,   4 },
};

static const char * const group_keys[] = {
  "max-latency, max-share, max-run, period, max-jitter",
  "max-duration, max-share",
  "max-dropped, share-window",
};

const char *
tks_budget_kind_to_string (TksBudgetKind kind)
{
  g_return_val_if_fail (kind < TKS_N_BUDGET_KINDS, "?");
  return kind_names[kind];
}

static void
budget_free (gpointer data)
{
  TksBudget *b = data;

  g_free (b->subject);
  g_free (b->limit_text);
  g_free (b->note);
  g_free (b);
}

void
tks_budgets_free (TksBudgets *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->budgets);
  g_free (self);
}

guint
tks_budgets_get_n (TksBudgets *self)
{
  return self->budgets->len;
}

TksBudget *
tks_budgets_get (TksBudgets *self,
                 guint       i)
{
  g_return_val_if_fail (i < self->budgets->len, NULL);
  return self->budgets->pdata[i];
}

gboolean
tks_quantity_parse (const char       *text,
                    TksQuantityKind   kind,
                    double           *value,
                    const char      **unit,
                    double           *unit_scale,
                    GError          **error)
{
  static const struct { const char *name; double scale; } time_units[] = {
    { "ns", 1e-9 }, { "us", 1e-6 }, { "µs", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
  };
  char *end = NULL;
  double v;
  const char *u;

  while (g_ascii_isspace (*text))
    text++;
  v = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (v))
    {
      if (kind == TKS_QUANTITY_TIME)
        g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                     _("“%s” is not a number with a unit (250us, 2ms, 1s)"), text);
      else if (kind == TKS_QUANTITY_PERCENT)
        g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, _("“%s” is not a number of percent (40%%)"),
                     text);
      else
        g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, _("“%s” is not a number"), text);
      return FALSE;
    }
  if (v < 0 || (v == 0 && signbit (v)))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, _("“%s”: a budget cannot be negative"), text);
      return FALSE;
    }
  u = end;
  while (g_ascii_isspace (*u))
    u++;

  switch (kind)
    {
    case TKS_QUANTITY_TIME:
      for (guint i = 0; i < G_N_ELEMENTS (time_units); i++)
        if (strcmp (u, time_units[i].name) == 0)
          {
            *value = v * time_units[i].scale;
            *unit = time_units[i].name;
            *unit_scale = time_units[i].scale;
            return TRUE;
          }
      if (*u == '\0')
        g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                     _("“%s” needs a unit: ns, us, ms or s"), text);
      else
        g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                     _("“%s”: a time is in ns, us, ms or s, not “%s”"), text, u);
      return FALSE;

    case TKS_QUANTITY_PERCENT:
      if (strcmp (u, "%") != 0)
        {
          g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                       _("“%s”: a share is a percentage (40%%)"), text);
          return FALSE;
        }
      if (v > 100)
        {
          g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, _("“%s”: a share is at most 100%%"), text);
          return FALSE;
        }
      *value = v;
      *unit = "%";
      *unit_scale = 1;
      return TRUE;

    case TKS_QUANTITY_COUNT:
    default:
      if (*u != '\0' || v != floor (v))
        {
          g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                       _("“%s”: a count is a whole number without a unit"), text);
          return FALSE;
        }
      *value = v;
      *unit = "";
      *unit_scale = 1;
      return TRUE;
    }
}

gboolean
tks_time_offset_parse (const char  *text,
                       double      *seconds,
                       GError     **error)
{
  const char *p = text;
  gboolean negative = FALSE;
  const char *unit;
  double scale, v;
  char *end = NULL;

  while (g_ascii_isspace (*p))
    p++;
  if (*p == '-' || *p == '+')
    negative = *p++ == '-';
  v = g_ascii_strtod (p, &end);
  if (end != p && *end == '\0' && isfinite (v) && v >= 0)
    {
      *seconds = negative ? -v : v;
      return TRUE;
    }
  if (*p == '-' || *p == '+' ||
      !tks_quantity_parse (p, TKS_QUANTITY_TIME, &v, &unit, &scale, NULL))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   _("“%s” is not a time from the ruler's origin: 1.25s, -300ms, 420us"), text);
      return FALSE;
    }
  *seconds = negative ? -v : v;
  return TRUE;
}

double
tks_capture_ruler_origin (TksCapture *capture)
{
  double trigger;

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), 0);
  if (tks_capture_get_trigger (capture, &trigger))
    return trigger;
  return tks_capture_get_start (capture);
}

double
tks_capture_ruler_position (TksCapture *capture,
                            double      seconds)
{
  return tks_capture_ruler_origin (capture) + seconds * tks_capture_get_tick_hz (capture);
}

/* The kind of subject @name is in @capture: 1 thread, 2 handler, 0 neither. */
static guint
subject_of (TksCapture *capture,
            const char *name)
{
  TksEvents *events = tks_capture_get_events (capture);

  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    if (g_strcmp0 (tks_capture_get_thread (capture, i)->name, name) == 0)
      return 1;
  if (events != NULL)
    {
      guint n;
      const TksTrack *tracks = tks_events_get_tracks (events, TKS_TRACK_IRQ, &n);

      for (guint i = 0; i < n; i++)
        if (g_strcmp0 (tracks[i].name, name) == 0)
          return 2;
    }
  return 0;
}

static char *
known_subjects (TksCapture *capture)
{
  /* Translators: the list of names a budgets file may use, "threads: a, b; handlers: c" */
  GString *s = g_string_new (_("threads: "));
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  TksEvents *events = tks_capture_get_events (capture);
  guint n = 0;

  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const char *name = tks_capture_get_thread (capture, i)->name;

      if (name == NULL || name[0] == '\0' || !g_hash_table_add (seen, (gpointer) name))
        continue;
      g_string_append_printf (s, "%s%s", n++ > 0 ? ", " : "", name);
    }
  if (events != NULL)
    {
      const TksTrack *tracks = tks_events_get_tracks (events, TKS_TRACK_IRQ, &n);

      g_string_append (s, _("; handlers: "));
      for (guint i = 0; i < n; i++)
        g_string_append_printf (s, "%s%s", i > 0 ? ", " : "", tracks[i].name);
      if (n == 0)
        g_string_append (s, _("none"));
    }
  else
    g_string_append_printf (s, "; %s", _("no handlers (a capture without events)"));
  return g_string_free (s, FALSE);
}

/* Sets @error to “@display:@line: what”, and returns FALSE. */
static gboolean fail_at (GError    **error,
                         const char *display,
                         guint       line,
                         const char *format,
                         ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail_at (GError    **error,
         const char *display,
         guint       line,
         const char *format,
         ...)
{
  g_autofree char *why = NULL;
  va_list args;

  va_start (args, format);
  why = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, "%s:%u: %s", display, line, why);
  return FALSE;
}

/* The reading of a budgets file, line by line. */
typedef struct
{
  TksBudgets  *self;
  TksCapture  *capture;
  GKeyFile    *keyfile;
  gboolean     keyfile_failed;
  const char  *display;
  GHashTable  *seen;          /* "group\nkey" => the line it was first given on */
  char        *group;
  guint        group_kind;    /* 1 a thread, 2 a handler, 4 the capture */
} BudgetsReader;

/* A “[name]” line @l: the group the keys after it belong to. */
static gboolean
read_group (BudgetsReader  *rd,
            char           *l,
            guint           line,
            GError        **error)
{
  char *close = strchr (l, ']');

  if (close == NULL || close[1] != '\0' || close == l + 1)
    return fail_at (error, rd->display, line,
                    _("“%s” is not a group: a thread's or handler's name in brackets"), l);
  g_free (rd->group);
  rd->group = g_strndup (l + 1, (gsize) (close - l - 1));
  if (strcmp (rd->group, CAPTURE_GROUP) == 0)
    rd->group_kind = 4;
  else if ((rd->group_kind = subject_of (rd->capture, rd->group)) == 0)
    {
      g_autofree char *known = known_subjects (rd->capture);

      return fail_at (error, rd->display, line,
                      _("[%s]: no thread or handler of that name in the capture (%s)"),
                      rd->group, known);
    }
  return TRUE;
}

/* The key @key of the current group, not given before in it. */
static gboolean
check_not_twice (BudgetsReader  *rd,
                 const char     *key,
                 guint           line,
                 GError        **error)
{
  g_autofree char *dup_key = g_strdup_printf ("%s\n%s", rd->group, key);
  gpointer first;

  if (g_hash_table_lookup_extended (rd->seen, dup_key, NULL, &first))
    return fail_at (error, rd->display, line, _("%s is given twice for [%s] (first on line %u)"),
                    key, rd->group, GPOINTER_TO_UINT (first));
  g_hash_table_insert (rd->seen, g_steal_pointer (&dup_key), GUINT_TO_POINTER (line));
  return TRUE;
}

/* The index in keys[] of @key, a budget the current group takes. */
static gboolean
find_key (BudgetsReader  *rd,
          const char     *key,
          guint           line,
          guint          *index,
          GError        **error)
{
  const char *group = rd->group;
  guint group_kind = rd->group_kind;
  guint k, bit;

  for (k = 0; k < G_N_ELEMENTS (keys); k++)
    if (strcmp (key, kind_names[keys[k].kind]) == 0)
      break;
  *index = k;
  if (k < G_N_ELEMENTS (keys) && (keys[k].groups & group_kind) != 0)
    return TRUE;
  bit = group_kind == 4 ? 2 : group_kind - 1;
  if (k == G_N_ELEMENTS (keys) && group_kind == 1)
    return fail_at (error, rd->display, line, _("unknown key “%s” in [%s] (a thread): use %s"),
                    key, group, group_keys[bit]);
  if (k == G_N_ELEMENTS (keys) && group_kind == 2)
    return fail_at (error, rd->display, line, _("unknown key “%s” in [%s] (a handler): use %s"),
                    key, group, group_keys[bit]);
  if (k == G_N_ELEMENTS (keys))
    return fail_at (error, rd->display, line,
                    _("unknown key “%s” in [%s] (the capture): use %s"), key, group,
                    group_keys[bit]);
  if (group_kind == 1)
    return fail_at (error, rd->display, line,
                    _("%s is not a budget of a thread ([%s]): use %s"), key, group,
                    group_keys[bit]);
  if (group_kind == 2)
    return fail_at (error, rd->display, line,
                    _("%s is not a budget of a handler ([%s]): use %s"), key, group,
                    group_keys[bit]);
  return fail_at (error, rd->display, line, _("%s is not a budget of the capture ([%s]): use %s"),
                  key, group, group_keys[bit]);
}

/* The value @value of key @k (keys[]) becomes a budget. */
static gboolean
add_budget (BudgetsReader  *rd,
            guint           k,
            const char     *key,
            const char     *value,
            guint           line,
            GError        **error)
{
  g_autoptr(GError) local = NULL;
  const char *unit;
  double v, scale;
  TksBudget *b;

  if (!tks_quantity_parse (value, keys[k].quantity, &v, &unit, &scale, &local))
    return fail_at (error, rd->display, line, "%s: %s", key, local->message);
  b = g_new0 (TksBudget, 1);
  b->subject = g_strdup (rd->group);
  b->subject_kind = rd->group_kind == 1 ? TKS_SUBJECT_THREAD
                    : rd->group_kind == 2 ? TKS_SUBJECT_HANDLER : G_MAXUINT;
  b->kind = keys[k].kind;
  b->line = line;
  b->limit_text = g_strdup (value);
  b->limit = v;
  b->unit = unit;
  b->unit_scale = scale;
  b->measured = NAN;
  b->at = NAN;
  g_ptr_array_add (rd->self->budgets, b);
  return TRUE;
}

/* Cuts a comment after a value (“200us   # the longest wake-up”), as a budgets file
 * documents its limits: the key file keeps it in the value. No value holds a '#'. */
static void
cut_comment (char *value)
{
  for (char *p = value; *p != '\0'; p++)
    if (*p == '#' && (p == value || g_ascii_isspace (p[-1])))
      {
        *p = '\0';
        break;
      }
  g_strstrip (value);
}

/* A “key = value” line @l of the current group. Values come from the key file (its escapes,
 * its comments, and a comment after the value). */
static gboolean
read_key (BudgetsReader  *rd,
          char           *l,
          guint           line,
          GError        **error)
{
  char *eq = strchr (l, '=');
  g_autofree char *key = NULL;
  g_autofree char *value = NULL;
  g_autoptr(GError) local = NULL;
  const char *unit;
  double v, scale;
  guint k;

  if (eq == NULL)
    return fail_at (error, rd->display, line,
                    _("“%s” is not a [group], a key = value or a # comment"), l);
  if (rd->group == NULL)
    return fail_at (error, rd->display, line, _("“%s” comes before any [group]"), l);
  key = g_strstrip (g_strndup (l, (gsize) (eq - l)));
  value = !rd->keyfile_failed ? g_key_file_get_value (rd->keyfile, rd->group, key, NULL) : NULL;
  if (value == NULL)
    value = g_strdup (g_strstrip (eq + 1));
  cut_comment (value);
  if (!check_not_twice (rd, key, line, error))
    return FALSE;

  if (rd->group_kind == 4 && strcmp (key, SHARE_WINDOW_KEY) == 0)
    {
      if (!tks_quantity_parse (value, TKS_QUANTITY_TIME, &v, &unit, &scale, &local) || !(v > 0))
        return fail_at (error, rd->display, line, "%s: %s", key,
                        local != NULL ? local->message : _("the window must be longer than 0"));
      rd->self->share_window = v;
      return TRUE;
    }
  return find_key (rd, key, line, &k, error) && add_budget (rd, k, key, value, line, error);
}

TksBudgets *
tks_budgets_new_from_data (const char  *data,
                           gsize        len,
                           const char  *display,
                           TksCapture  *capture,
                           GError     **error)
{
  g_autoptr(TksBudgets) self = g_new0 (TksBudgets, 1);
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) keyfile_error = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  BudgetsReader rd = { 0 };

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), NULL);

  self->budgets = g_ptr_array_new_with_free_func (budget_free);
  self->share_window = 1.0;

  if (memchr (data, '\0', len) != NULL || !g_utf8_validate (data, (gssize) len, NULL))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, _("%s: not a text file"), display);
      return NULL;
    }
  /* The key file's own reading: what it refuses is refused, once the reading line by line
   * below has named the line of any mistake it can see. */
  (void) g_key_file_load_from_data (keyfile, data, len, G_KEY_FILE_NONE, &keyfile_error);

  /* Then line by line, which names the line of each mistake. */
  rd = (BudgetsReader) { self, capture, keyfile, keyfile_error != NULL, display, seen, NULL, 0 };
  text = g_strndup (data, len);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *l = g_strstrip (lines[i]);
      gboolean ok = TRUE;

      if (l[0] == '[')
        ok = read_group (&rd, l, i + 1, error);
      else if (l[0] != '\0' && l[0] != '#')
        ok = read_key (&rd, l, i + 1, error);
      if (!ok)
        {
          g_free (rd.group);
          return NULL;
        }
    }
  g_free (rd.group);
  if (keyfile_error != NULL)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, "%s: %s", display, keyfile_error->message);
      return NULL;
    }

  if (self->budgets->len == 0)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                   _("%s: no budget in it (a [thread] group with max-run = 2ms, for one)"), display);
      return NULL;
    }
  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------------------------------ */

static void
set_result (TksBudget *b,
            double     measured,
            double     at,
            gboolean   over)
{
  b->measured = measured;
  b->at = at;
  b->verdict = over ? TKS_BUDGET_VIOLATED : TKS_BUDGET_HOLDS;
}

static void
set_no_data (TksBudget  *b,
             const char *why)
{
  b->verdict = TKS_BUDGET_NO_DATA;
  b->measured = NAN;
  b->at = NAN;
  g_free (b->note);
  b->note = g_strdup (why);
}

/* A limit in the budget's unit against a measure: the same rounding both sides (a limit of
 * 2ms holds for 2.0000000001 ms of float arithmetic). */
static gboolean
beyond (double measured,
        double limit)
{
  return measured > limit * (1 + 1e-9) + 1e-12;
}

/* What one row of the profile measures for a budget: its worst value, where, and how many of
 * its instances there are and go over the limit. */
typedef struct
{
  double m;
  double at;
  guint  over;
  guint  total;
} RowMeasure;

static gboolean
measure_latency (TksBudget           *b,
                 TksCapture          *capture,
                 const TksProfileRow *row,
                 RowMeasure          *rm)
{
  TksEvents *events = tks_capture_get_events (capture);
  guint n;
  const TksWakeup *w;

  if (events == NULL || row->n_latencies == 0)
    return FALSE;
  rm->m = row->max_latency_us * 1e-6;
  rm->at = row->max_latency_at;
  w = tks_events_get_wakeups (events, &n);
  for (guint i = 0; i < n; i++)
    if (w[i].thread == row->index && !w[i].open)
      {
        rm->total++;
        rm->over += beyond (tks_events_to_us (events, w[i].latency) * 1e-6, b->limit);
      }
  return TRUE;
}

static gboolean
measure_run (TksBudget           *b,
             TksCapture          *capture,
             const TksProfileRow *row,
             RowMeasure          *rm)
{
  const TksThread *t = tks_capture_get_thread (capture, row->index);
  double tick_hz = tks_capture_get_tick_hz (capture);

  if (isnan (row->max_run_us))
    return FALSE;
  rm->m = row->max_run_us * 1e-6;
  rm->at = row->max_run_at;
  for (guint i = 0; i < t->n_runs; i++)
    {
      rm->total++;
      rm->over += beyond ((t->runs[i].end - t->runs[i].begin) / tick_hz, b->limit);
    }
  return TRUE;
}

static gboolean
measure_share (TksBudgets          *self,
               TksCapture          *capture,
               const TksProfileRow *row,
               RowMeasure          *rm)
{
  const TksThread *t = tks_capture_get_thread (capture, row->index);
  double tick_hz = tks_capture_get_tick_hz (capture);

  rm->m = tks_runs_max_window_share (t->runs, t->n_runs, tks_capture_get_start (capture),
                                     tks_capture_get_end (capture),
                                     self->share_window * tick_hz, &rm->at);
  /* the moment named: the busiest window's middle */
  rm->at += MIN (self->share_window * tick_hz,
                 tks_capture_get_end (capture) - tks_capture_get_start (capture)) / 2;
  return TRUE;
}

static gboolean
measure_activations (TksBudget           *b,
                     TksCapture          *capture,
                     const TksProfileRow *row,
                     const TksBudget     *period_budget,
                     const TksBudget     *jitter_budget,
                     RowMeasure          *rm)
{
  double tick_hz = tks_capture_get_tick_hz (capture);
  g_autoptr(GArray) times = tks_thread_activations (capture, row->index, NAN, NAN, NULL);
  TksActivationIntervals iv;
  double period = period_budget != NULL ? period_budget->limit * tick_hz : NAN;
  double tol = jitter_budget != NULL ? jitter_budget->limit * tick_hz : NAN;

  tks_activation_intervals (&g_array_index (times, double, 0), times->len, period, tol, &iv);
  if (iv.n_intervals == 0)
    return FALSE;
  rm->total = iv.n_intervals;
  if (b->kind == TKS_BUDGET_PERIOD)
    {
      rm->m = iv.mean / tick_hz;
      rm->at = iv.jitter_at;
    }
  else
    {
      rm->m = iv.jitter / tick_hz;
      rm->at = iv.jitter_at;
      rm->over = iv.n_over;
    }
  return TRUE;
}

/* What @row measures for the thread budget @b: FALSE when it measures nothing. */
static gboolean
measure_thread_row (TksBudget           *b,
                    TksBudgets          *self,
                    TksCapture          *capture,
                    const TksProfileRow *row,
                    const TksBudget     *period_budget,
                    const TksBudget     *jitter_budget,
                    RowMeasure          *rm)
{
  *rm = (RowMeasure) { NAN, NAN, 0, 0 };
  switch (b->kind)
    {
    case TKS_BUDGET_MAX_LATENCY:
      return measure_latency (b, capture, row, rm);
    case TKS_BUDGET_MAX_RUN:
      return measure_run (b, capture, row, rm);
    case TKS_BUDGET_MAX_SHARE:
      return measure_share (self, capture, row, rm);
    case TKS_BUDGET_PERIOD:
    case TKS_BUDGET_MAX_JITTER:
      return measure_activations (b, capture, row, period_budget, jitter_budget, rm);
    default:
      g_assert_not_reached ();
    }
}

/* Why the thread budget @b has no data. */
static void
thread_no_data (TksBudget  *b,
                TksCapture *capture)
{
  if (b->kind == TKS_BUDGET_MAX_LATENCY && tks_capture_get_events (capture) == NULL)
    set_no_data (b, _("no wake-ups: the capture has no events (record with --events)"));
  else if (b->kind == TKS_BUDGET_MAX_LATENCY)
    set_no_data (b, _("no wake-up of the thread in the capture"));
  else if (b->kind == TKS_BUDGET_PERIOD || b->kind == TKS_BUDGET_MAX_JITTER)
    set_no_data (b, _("fewer than two activations in the capture"));
  else
    set_no_data (b, _("the thread is not logged: its runs are unknown"));
}

static void
check_thread (TksBudget     *b,
              TksBudgets    *self,
              TksCapture    *capture,
              GArray        *profile,
              const TksBudget *period_budget,
              const TksBudget *jitter_budget)
{
  gboolean any = FALSE;

  b->n_total = 0;
  b->n_over = 0;
  for (guint r = 0; r < profile->len; r++)
    {
      const TksProfileRow *row = &g_array_index (profile, TksProfileRow, r);
      RowMeasure rm;

      if (row->kind != TKS_SUBJECT_THREAD || g_strcmp0 (row->name, b->subject) != 0)
        continue;
      if (!row->measured ||
          !measure_thread_row (b, self, capture, row, period_budget, jitter_budget, &rm))
        continue;

      b->n_total += rm.total;
      b->n_over += rm.over;
      if (!any || rm.m > b->measured)
        {
          b->measured = rm.m;
          b->at = rm.at;
        }
      any = TRUE;
    }

  if (!any)
    {
      thread_no_data (b, capture);
      return;
    }

  if (b->kind == TKS_BUDGET_PERIOD)
    {
      double tol = jitter_budget != NULL ? jitter_budget->limit : b->limit * 0.01;

      b->verdict = fabs (b->measured - b->limit) > tol * (1 + 1e-9) ? TKS_BUDGET_VIOLATED
                                                                     : TKS_BUDGET_HOLDS;
      g_free (b->note);
      b->note = g_strdup_printf (_("mean of %u intervals, within %g %s allowed"), b->n_total,
                                 tol / b->unit_scale, b->unit);
      return;
    }
  b->verdict = beyond (b->measured, b->limit) ? TKS_BUDGET_VIOLATED : TKS_BUDGET_HOLDS;
}

static void
check_handler (TksBudget  *b,
               TksBudgets *self,
               TksCapture *capture,
               GArray     *profile)
{
  double tick_hz = tks_capture_get_tick_hz (capture);
  TksEvents *events = tks_capture_get_events (capture);

  for (guint r = 0; r < profile->len; r++)
    {
      const TksProfileRow *row = &g_array_index (profile, TksProfileRow, r);

      if (row->kind != TKS_SUBJECT_HANDLER || g_strcmp0 (row->name, b->subject) != 0)
        continue;
      if (b->kind == TKS_BUDGET_MAX_DURATION)
        {
          guint n;
          const TksTrack *track = &tks_events_get_tracks (events, TKS_TRACK_IRQ, &n)[row->index];

          if (isnan (row->max_run_us))
            {
              set_no_data (b, _("no call of the handler in the capture"));
              return;
            }
          b->n_total = track->n_slices;
          for (guint i = 0; i < track->n_slices; i++)
            b->n_over += beyond (tks_events_to_us (events, track->slices[i].end.time -
                                                           track->slices[i].begin.time) * 1e-6,
                                 b->limit);
          set_result (b, row->max_run_us * 1e-6, row->max_run_at,
                      beyond (row->max_run_us * 1e-6, b->limit));
        }
      else
        {
          guint n_runs;
          g_autofree TksRun *runs = tks_profile_handler_runs (capture, row->index, &n_runs);
          double at, m = tks_runs_max_window_share (runs, n_runs, tks_capture_get_start (capture),
                                                     tks_capture_get_end (capture),
                                                     self->share_window * tick_hz, &at);

          at += MIN (self->share_window * tick_hz,
                     tks_capture_get_end (capture) - tks_capture_get_start (capture)) / 2;
          set_result (b, m, at, beyond (m, b->limit));
        }
      return;
    }
  set_no_data (b, _("the handler is not in the capture"));
}

static void
check_capture (TksBudget  *b,
               TksCapture *capture)
{
  guint n_gaps;
  const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);
  guint64 dropped = 0;
  double at = NAN;

  for (guint i = 0; i < n_gaps; i++)
    {
      dropped += gaps[i].dropped;
      if (gaps[i].dropped > 0 && isnan (at) && beyond ((double) dropped, b->limit))
        at = gaps[i].begin;
    }
  b->n_total = n_gaps;
  set_result (b, (double) dropped, at, beyond ((double) dropped, b->limit));
}

guint
tks_budgets_check (TksBudgets *self,
                   TksCapture *capture)
{
  g_autoptr(GArray) profile = tks_profile_compute (capture, NAN, NAN);
  guint failed = 0;

  for (guint i = 0; i < self->budgets->len; i++)
    {
      TksBudget *b = self->budgets->pdata[i];

      b->n_over = b->n_total = 0;
      b->measured = b->at = NAN;
      g_clear_pointer (&b->note, g_free);
      if (b->subject_kind == TKS_SUBJECT_THREAD)
        {
          const TksBudget *period = NULL, *jitter = NULL;

          for (guint j = 0; j < self->budgets->len; j++)
            {
              const TksBudget *o = self->budgets->pdata[j];

              if (o->subject_kind == TKS_SUBJECT_THREAD && strcmp (o->subject, b->subject) == 0)
                {
                  if (o->kind == TKS_BUDGET_PERIOD)
                    period = o;
                  else if (o->kind == TKS_BUDGET_MAX_JITTER)
                    jitter = o;
                }
            }
          check_thread (b, self, capture, profile, period, jitter);
        }
      else if (b->subject_kind == TKS_SUBJECT_HANDLER)
        check_handler (b, self, capture, profile);
      else
        check_capture (b, capture);

      if (b->verdict == TKS_BUDGET_VIOLATED && b->note == NULL && b->n_total > 0)
        b->note = g_strdup_printf (_("%u of %u over the limit"), b->n_over, b->n_total);
      if (b->verdict != TKS_BUDGET_HOLDS)
        failed++;
    }
  return failed;
}
