/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli diff: two captures of the same firmware compared thread by thread and
 * handler by handler, the largest changes first. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tks-cli.h"
#include "tks-profile.h"

enum
{
  METRIC_SHARE,
  METRIC_P99_LATENCY,
  METRIC_MAX_LATENCY,
  METRIC_MAX_RUN,
  METRIC_RATE,
  N_METRICS
};

static const char * const metric_names[N_METRICS] = {
  "share %", "p99 latency us", "max latency us", "max run us", "activations/s",
};
/* as CSV columns name them */
static const char * const metric_keys[N_METRICS] = {
  "share_percent", "p99_latency_us", "max_latency_us", "max_run_us", "activations_per_s",
};

/* A subject's figures, several threads of one name taken together. */
typedef struct
{
  guint  kind;
  char  *name;
  double v[N_METRICS];
  guint  n_latencies;
} Subject;

static void
subject_free (gpointer data)
{
  Subject *s = data;

  g_free (s->name);
  g_free (s);
}

static double
nan_max (double a,
         double b)
{
  return isnan (a) ? b : isnan (b) ? a : MAX (a, b);
}

static double
nan_sum (double a,
         double b)
{
  return isnan (a) ? b : isnan (b) ? a : a + b;
}

/* kind:name -> Subject, and their order of first appearance */
static GHashTable *
subjects_of (TksCapture *capture,
             GPtrArray  *order)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, subject_free);
  g_autoptr(GArray) rows = tks_profile_compute (capture, NAN, NAN);

  for (guint i = 0; i < rows->len; i++)
    {
      const TksProfileRow *r = &g_array_index (rows, TksProfileRow, i);
      g_autofree char *name = r->name != NULL && r->name[0] != '\0'
                              ? g_strdup (r->name) : g_strdup_printf ("#%u", r->index);
      char *key = g_strdup_printf ("%u:%s", r->kind, name);
      Subject *s = g_hash_table_lookup (table, key);
      double v[N_METRICS] = { r->share, r->p99_latency_us, r->max_latency_us, r->max_run_us,
                              r->activations_per_s };

      if (!r->measured)
        {
          g_free (key);
          continue;
        }
      if (s == NULL)
        {
          s = g_new0 (Subject, 1);
          s->kind = r->kind;
          s->name = g_steal_pointer (&name);
          for (guint m = 0; m < N_METRICS; m++)
            s->v[m] = v[m];
          s->n_latencies = r->n_latencies;
          g_hash_table_insert (table, key, s);
          g_ptr_array_add (order, g_strdup (key));
          continue;
        }
      g_free (key);
      /* threads of one name (a worker started again and again): their shares and rates add
       * up, the worst of their latencies and runs counts; the p99 of the one seen worst */
      s->v[METRIC_SHARE] = nan_sum (s->v[METRIC_SHARE], v[METRIC_SHARE]);
      s->v[METRIC_RATE] = nan_sum (s->v[METRIC_RATE], v[METRIC_RATE]);
      for (guint m = METRIC_P99_LATENCY; m <= METRIC_MAX_RUN; m++)
        s->v[m] = nan_max (s->v[m], v[m]);
      s->n_latencies += r->n_latencies;
    }
  return table;
}

typedef struct
{
  const Subject *a;
  const Subject *b;
  guint          metric;   /* N_METRICS: the subject is on one side only */
  double         change;   /* b - a */
  double         relative; /* |change| / |a|: +inf from 0 or for one side only */
} Row;

/* Subjects on one side only first, then figures measured on one side only, then the largest
 * relative changes, the largest absolute ones among equals; then by name and metric. */
static guint
row_rank (const Row *r)
{
  return r->metric == N_METRICS ? 0 : isnan (r->change) ? 1 : 2;
}

static int
compare_rows (gconstpointer pa,
              gconstpointer pb)
{
  const Row *x = pa, *y = pb;
  const Subject *sx = x->a != NULL ? x->a : x->b, *sy = y->a != NULL ? y->a : y->b;
  int c;

  if (row_rank (x) != row_rank (y))
    return row_rank (x) < row_rank (y) ? -1 : 1;
  if (row_rank (x) == 2)
    {
      if (x->relative != y->relative)
        return x->relative > y->relative ? -1 : 1;
      if (fabs (x->change) != fabs (y->change))
        return fabs (x->change) > fabs (y->change) ? -1 : 1;
    }
  if ((c = strcmp (sx->name, sy->name)) != 0)
    return c;
  if (sx->kind != sy->kind)
    return sx->kind < sy->kind ? -1 : 1;
  return x->metric < y->metric ? -1 : x->metric > y->metric;
}

static void
format_number (char   *buf,
               gsize   size,
               double  value,
               gboolean sign)
{
  if (isnan (value))
    g_strlcpy (buf, "-", size);
  else if (isinf (value))
    g_strlcpy (buf, value > 0 ? "+inf" : "-inf", size);
  else
    {
      if (fabs (value) < 0.0005)
        value = 0;  /* no "-0.000" */
      g_ascii_formatd (buf + (sign && value >= 0 ? 1 : 0), size - 1, "%.3f", value);
      if (sign && value >= 0)
        buf[0] = '+';
    }
}

static void
csv_field (GString    *out,
           const char *text)
{
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static TksCapture *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_path_get_basename (path);
  TksCapture *capture = tks_cli_load (path, strcmp (path, "-") == 0 ? "standard input" : base,
                                      &error);

  if (capture == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli diff: %s\n", message);
    }
  return capture;
}

/* The rows of a subject found in A (@a) and maybe in B (@b): one a metric measured on either
 * side, or one saying it is in A only. */
static void
add_rows_of (GArray        *rows,
             const Subject *a,
             const Subject *b)
{
  if (b == NULL)
    {
      Row row = { a, NULL, N_METRICS, NAN, INFINITY };

      g_array_append_val (rows, row);
      return;
    }
  for (guint m = 0; m < N_METRICS; m++)
    {
      Row row = { a, b, m, b->v[m] - a->v[m], 0 };

      if (isnan (a->v[m]) && isnan (b->v[m]))
        continue;
      if (isnan (row.change))
        row.relative = INFINITY;   /* measured on one side only */
      else if (row.change == 0)
        row.relative = 0;
      else
        row.relative = a->v[m] != 0 ? fabs (row.change / a->v[m]) : INFINITY;
      g_array_append_val (rows, row);
    }
}

/* The rows comparing the subjects of A (@sa, in @order_a) and B: the largest changes first. */
static GArray *
rows_of (GHashTable *sa,
         GPtrArray  *order_a,
         GHashTable *sb,
         GPtrArray  *order_b)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (Row));

  for (guint i = 0; i < order_a->len; i++)
    add_rows_of (rows, g_hash_table_lookup (sa, order_a->pdata[i]),
                 g_hash_table_lookup (sb, order_a->pdata[i]));
  for (guint i = 0; i < order_b->len; i++)
    if (!g_hash_table_contains (sa, order_b->pdata[i]))
      {
        Row row = { NULL, g_hash_table_lookup (sb, order_b->pdata[i]), N_METRICS, NAN, INFINITY };

        g_array_append_val (rows, row);
      }
  g_array_sort (rows, compare_rows);
  return rows;
}

static void
print_csv (GArray *rows)
{
  GString *out = g_string_new ("subject,kind,metric,a,b,change,change_percent\n");

  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = &g_array_index (rows, Row, i);
      const Subject *s = r->a != NULL ? r->a : r->b;
      char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
      char c[G_ASCII_DTOSTR_BUF_SIZE], p[G_ASCII_DTOSTR_BUF_SIZE];

      csv_field (out, s->name);
      g_string_append_printf (out, ",%s,", s->kind == TKS_SUBJECT_THREAD ? "thread" : "handler");
      if (r->metric == N_METRICS)
        {
          g_string_append_printf (out, "present,%d,%d,,\n", r->a != NULL, r->b != NULL);
          continue;
        }
      format_number (a, sizeof a, r->a->v[r->metric], FALSE);
      format_number (b, sizeof b, r->b->v[r->metric], FALSE);
      format_number (c, sizeof c, r->change, FALSE);
      format_number (p, sizeof p, isinf (r->relative) || isnan (r->change) ? NAN
                                  : 100 * r->change / r->a->v[r->metric] * (r->change != 0), FALSE);
      g_string_append_printf (out, "%s,%s,%s,%s,%s\n", metric_keys[r->metric],
                              isnan (r->a->v[r->metric]) ? "" : a,
                              isnan (r->b->v[r->metric]) ? "" : b,
                              isnan (r->change) ? "" : c, strcmp (p, "-") == 0 ? "" : p);
    }
  fputs (out->str, stdout);
  g_string_free (out, TRUE);
}

/* A row's metric, its values and their change, in the table. */
static void
add_table_change (TksCliTable *table,
                  const Row   *r)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  tks_cli_table_add (table, metric_names[r->metric]);
  format_number (buf, sizeof buf, r->a->v[r->metric], FALSE);
  tks_cli_table_add (table, buf);
  format_number (buf, sizeof buf, r->b->v[r->metric], FALSE);
  tks_cli_table_add (table, buf);
  format_number (buf, sizeof buf, r->change, TRUE);
  tks_cli_table_add (table, buf);
  if (isnan (r->change))
    tks_cli_table_add (table, "-");
  else if (isinf (r->relative))
    tks_cli_table_add (table, _("new"));
  else
    {
      format_number (buf, sizeof buf, r->change != 0 ? 100 * r->change / r->a->v[r->metric] : 0, TRUE);
      tks_cli_table_add (table, buf);
    }
}

static void
print_table (GArray      *rows,
             char * const files[])
{
  g_autoptr(TksCliTable) table = NULL;
  g_autofree char *na = tks_cli_escape (files[0]);
  g_autofree char *nb = tks_cli_escape (files[1]);

  printf ("A: %s\nB: %s\n\n", na, nb);
  /* Translators: the heads of the columns of tickscope-cli diff */
  table = tks_cli_table_new ("lllrrrr", _("Subject"), _("Kind"), _("Metric"), "A", "B",
                             _("Change"), _("Change %"), NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = &g_array_index (rows, Row, i);
      const Subject *s = r->a != NULL ? r->a : r->b;
      g_autofree char *name = tks_cli_escape (s->name);

      tks_cli_table_add (table, name);
      tks_cli_table_add (table, s->kind == TKS_SUBJECT_THREAD ? _("thread") : _("handler"));
      if (r->metric == N_METRICS)
        {
          tks_cli_table_add (table, r->a != NULL ? _("only in A") : _("only in B"));
          for (guint c = 0; c < 4; c++)
            tks_cli_table_add (table, "");
          continue;
        }
      add_table_change (table, r);
    }
  tks_cli_table_print (table, stdout);
}

/* The files and the format given make sense: else a message and FALSE. */
static gboolean
check_args (char * const files[],
            const char  *format)
{
  if (files == NULL || files[0] == NULL || files[1] == NULL || files[2] != NULL)
    {
      fprintf (stderr, _("tickscope-cli diff: give two captures, A and B\n"));
      return FALSE;
    }
  if (format != NULL && strcmp (format, "text") != 0 && strcmp (format, "csv") != 0)
    {
      g_autofree char *shown = tks_cli_escape (format);

      fprintf (stderr, _("tickscope-cli diff: unknown format “%s”: use text or csv\n"), shown);
      return FALSE;
    }
  if (strcmp (files[0], "-") == 0 && strcmp (files[1], "-") == 0)
    {
      fprintf (stderr, _("tickscope-cli diff: only one of A and B can be standard input\n"));
      return FALSE;
    }
  return TRUE;
}

int
tks_cli_diff (int    argc,
              char **argv)
{
  g_autofree char *format = NULL;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, N_("text (default) or csv"), "FORMAT" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("A B");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) ca = NULL, cb = NULL;
  g_autoptr(GHashTable) sa = NULL, sb = NULL;
  g_autoptr(GPtrArray) order_a = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) order_b = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) rows = NULL;

  g_option_context_set_summary (context,
    _("Compares two captures of the same firmware, thread by thread and handler by handler:\n"
      "share of the capture, p99 and longest wake-up latency, longest run (a handler's longest\n"
      "call), activations per second. The largest relative changes come first; threads and\n"
      "handlers found in one capture only come before them. Threads of one name count as one."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_set_prgname ("tickscope-cli diff");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "tickscope-cli diff: %s\n", error->message);
      return TKS_CLI_MISUSE;
    }
  if (!check_args (files, format))
    return TKS_CLI_MISUSE;

  if ((ca = load (files[0])) == NULL || (cb = load (files[1])) == NULL)
    return TKS_CLI_BAD;
  sa = subjects_of (ca, order_a);
  sb = subjects_of (cb, order_b);
  rows = rows_of (sa, order_a, sb, order_b);
  if (format != NULL && strcmp (format, "csv") == 0)
    print_csv (rows);
  else
    print_table (rows, files);
  return TKS_CLI_OK;
}
