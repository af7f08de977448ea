/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline's lane headers: an inscription per lane in view (and per event lane), made
 * again when the lanes change, and placed beside their lanes when the widget is allocated. */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-timeline-events.h"
#include "tks-timeline-view-private.h"
#include "tks-widget-text.h"

/*
 * Lane headers are widgets, so only the lanes in view and LABEL_MARGIN lanes on each side
 * have one: a capture of a few hundred threads gets them all, and one with a history of a
 * million threads costs what one screen does (GTK's work per child grows with the number of
 * children).
 */
#define LABEL_MARGIN 128

/* The lanes whose headers should exist: [*first, *end). */
static void
label_range (TksTimelineView *self,
             guint           *first,
             guint           *end)
{
  TksTimelineGeometry g;
  guint n = _tks_timeline_view_n_lanes (self), a, b;

  _tks_timeline_view_current_geometry (self, &g);
  if (!tks_timeline_visible_lanes (&g, n, &a, &b))
    {
      a = 0;
      b = MIN (n, LABEL_MARGIN);
    }
  /* the pinned lanes, always in view, have theirs too */
  *first = a > LABEL_MARGIN && g.n_pinned == 0 ? a - LABEL_MARGIN : 0;
  *end = MIN (n, MAX (b, g.n_pinned) + LABEL_MARGIN);
}

/* Whether the lanes in view all have their header. */
gboolean
_tks_timeline_view_labels_cover_view (TksTimelineView *self)
{
  TksTimelineGeometry g;
  guint a, b;

  _tks_timeline_view_current_geometry (self, &g);
  if (!tks_timeline_visible_lanes (&g, _tks_timeline_view_n_lanes (self), &a, &b))
    a = b = 0;
  if (g.n_pinned > 0)
    a = 0;
  b = MAX (b, MIN (g.n_pinned, _tks_timeline_view_n_lanes (self)));
  if (a >= b)
    return TRUE;
  return a >= self->labels_first && b <= self->labels_first + self->labels->len;
}

/* A header of the lanes: an inscription rather than a label, whose size the widget sets
 * anyway, so that a text changed while recording (a group's count of threads) redraws it
 * without laying out the window again. */
static GtkWidget *
header_new (TksTimelineView *self)
{
  GtkWidget *header = g_object_new (GTK_TYPE_INSCRIPTION, "accessible-role", GTK_ACCESSIBLE_ROLE_LABEL,
                                    "xalign", 0.0f, NULL);

  gtk_widget_add_css_class (header, "lane-header");
  gtk_widget_set_parent (header, GTK_WIDGET (self));
  return header;
}

#define HEADER_MARKUP_KEY "tks-header-markup"

/* @header says @markup (Pango markup), cut by @overflow when too long; FALSE when it said so
 * already. */
static gboolean
header_set_markup (GtkWidget              *header,
                   const char             *markup,
                   GtkInscriptionOverflow  overflow)
{
  if (g_strcmp0 (g_object_get_data (G_OBJECT (header), HEADER_MARKUP_KEY), markup) == 0 &&
      gtk_inscription_get_text_overflow (GTK_INSCRIPTION (header)) == overflow)
    return FALSE;
  g_object_set_data_full (G_OBJECT (header), HEADER_MARKUP_KEY, g_strdup (markup), g_free);
  gtk_inscription_set_markup (GTK_INSCRIPTION (header), markup);
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (header), overflow);
  return TRUE;
}

/* A lane header: the lane's name and priority. A header already there takes the new texts;
 * one that says the same is left alone (a recording's capture of each second). */
static GtkWidget *
lane_header (TksTimelineView *self,
             GtkWidget       *label,
             const char      *name,
             int              priority)
{
  g_autofree char *markup = g_markup_printf_escaped ("%s <span alpha=\"55%%\" size=\"small\">%d</span>",
                                                     name, priority);
  g_autofree char *description = NULL;
  /* a name keeps its start, cut at the end; the tooltip has it whole */
  GtkInscriptionOverflow overflow = GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END;

  if (label == NULL)
    label = header_new (self);
  if (!header_set_markup (label, markup, overflow))
    return label;
  /* Translators: accessible description of a lane header */
  description = g_strdup_printf (_("Thread %s, priority %d"), name, priority);
  tks_widget_set_tooltip (label, description);
  gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
  return label;
}

void
_tks_timeline_view_rebuild_labels (TksTimelineView *self)
{
  TksTimelineGeometry g;
  guint i, first = 0, end = 0;

  if (self->capture != NULL)
    {
      _tks_timeline_view_current_geometry (self, &g);
      label_range (self, &first, &end);
    }
  /* the headers there already are taken again, in order */
  for (i = end - first; i < self->labels->len; i++)
    gtk_widget_unparent (g_ptr_array_index (self->labels, i));
  if (self->labels->len > end - first)
    g_ptr_array_set_size (self->labels, end - first);
  self->labels_first = first;

  for (i = first; i < end; i++)
    {
      const char *name;
      int priority;
      guint at = i - first;
      GtkWidget *label = at < self->labels->len ? g_ptr_array_index (self->labels, at) : NULL;

      name = tks_timeline_lane_name (self->capture, &g, i, &priority);
      label = lane_header (self, label, name != NULL ? name : "?", priority);
      if (at == self->labels->len)
        g_ptr_array_add (self->labels, label);
    }
}

/* The @at-th header of the event lanes, or of the load graph's (@markup NULL: @title as it
 * is): the one there already is taken again, left alone when it says the same (a recording's
 * capture of each second); a new one is made past the last. */
static void
event_header (TksTimelineView *self,
              guint            at,
              const char      *title,
              const char      *markup,
              const char      *tooltip)
{
  g_autofree char *escaped = markup != NULL ? NULL : g_markup_escape_text (title, -1);
  GtkWidget *label;

  if (at < self->event_labels->len)
    label = g_ptr_array_index (self->event_labels, at);
  else
    {
      label = header_new (self);
      g_ptr_array_add (self->event_labels, label);
    }
  if (!header_set_markup (label, markup != NULL ? markup : escaped,
                          GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END))
    return;
  tks_widget_set_tooltip (label, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
}

/* The headers of the event lanes: a handler, the CPU's sleep, a channel of states, a marker;
 * the load graph's first when it is shown. The headers there already are taken again. */
void
_tks_timeline_view_rebuild_event_labels (TksTimelineView *self)
{
  g_autofree TksEventLane *lanes = NULL;
  guint n, i, at = 0;

  if (self->capture != NULL && self->load_graph)
    event_header (self, at++, _("CPU load"), NULL, _("The share of time threads other than idle ran"));
  lanes = tks_timeline_event_lanes (self->capture, &n);
  for (i = 0; i < n; i++)
    {
      const TksTrack *track = lanes[i].track;
      g_autofree char *title = NULL;
      g_autofree char *markup = NULL;

      switch (track->kind)
        {
        case TKS_TRACK_IRQ:
          /* Translators: the header of an interrupt handler's lane; its accessible name */
          title = g_strdup_printf (_("IRQ %s"), track->name);
          break;
        case TKS_TRACK_SLEEP:
          title = g_strdup (_("CPU sleep"));
          break;
        case TKS_TRACK_STATE:
          title = g_strdup_printf (_("%s (states)"), track->name);
          break;
        default:
          title = g_strdup_printf (_("%s (marker)"), track->name);
          break;
        }
      markup = g_markup_printf_escaped ("<i>%s</i>", title);
      event_header (self, at++, title, markup, title);
    }
  for (i = at; i < self->event_labels->len; i++)
    gtk_widget_unparent (g_ptr_array_index (self->event_labels, i));
  g_ptr_array_set_size (self->event_labels, at);
}

static void
header_placement (TksTimelineView    *self,
                  TksHeaderPlacement *p)
{
  TksTimelineGeometry g;

  _tks_timeline_view_current_geometry (self, &g);
  memset (p, 0, sizeof *p);
  p->top = g.top;
  p->lane_height = g.lane_height;
  p->v_offset = g.v_offset;
  p->left = g.left;
  p->n_event_lanes = g.n_event_lanes;
  p->n_pinned = g.n_pinned;
  p->labels_first = self->labels_first;
  p->n_labels = self->labels->len;
  p->n_event_labels = self->event_labels->len;
}

/* The headers are placed again when what places them changed. The time range rolling while
 * recording, or a recording's next stretch with the same lanes, moves none: the window is not
 * laid out again for them (on X11 each layout of a window makes round trips to the X server
 * that the next frame waits for). */
void
_tks_timeline_view_queue_place_headers (TksTimelineView *self)
{
  TksHeaderPlacement p;

  header_placement (self, &p);
  if (memcmp (&p, &self->placed, sizeof p) != 0)
    gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static gboolean
rebuild_labels_idle (gpointer user_data)
{
  TksTimelineView *self = user_data;

  self->labels_idle = 0;
  if (!_tks_timeline_view_labels_cover_view (self))
    {
      _tks_timeline_view_rebuild_labels (self);
      gtk_widget_queue_allocate (GTK_WIDGET (self));
    }
  return G_SOURCE_REMOVE;
}

/* A lane's header, the lane at @y: shown while its lane is, one line high in the middle of
 * the lane (an inscription given more height wraps its text rather than cutting it). */
static void
place_header (GtkWidget                 *header,
              const TksTimelineGeometry *g,
              double                     y,
              gboolean                   pinned,
              int                        height)
{
  /* what scrolls hides under the pinned lanes */
  gboolean visible = y > (pinned ? g->top : tks_timeline_scroll_top (g)) - g->lane_height / 2
                     && y < height;
  int line;

  gtk_widget_set_child_visible (header, visible);
  if (!visible)
    return;
  gtk_widget_measure (header, GTK_ORIENTATION_VERTICAL, -1, &line, NULL, NULL, NULL);
  line = MIN (line, (int) g->lane_height);
  gtk_widget_size_allocate (header,
                            &(GtkAllocation) { 10, (int) (y + (g->lane_height - line) / 2),
                                               (int) g->left - 16, line },
                            -1);
}

void
_tks_timeline_view_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (widget);
  TksTimelineGeometry g;
  guint i;

  _tks_timeline_view_update_content_height (self);
  _tks_timeline_view_current_geometry (self, &g);

  /* A new size can bring lanes without a header into view: they get one right after. */
  if (!_tks_timeline_view_labels_cover_view (self) && self->labels_idle == 0)
    self->labels_idle = g_idle_add (rebuild_labels_idle, self);

  for (i = 0; i < self->event_labels->len; i++)
    place_header (g_ptr_array_index (self->event_labels, i), &g, tks_timeline_event_lane_y (&g, i),
                  FALSE, height);
  for (i = 0; i < self->labels->len; i++)
    place_header (g_ptr_array_index (self->labels, i), &g,
                  tks_timeline_lane_y (&g, self->labels_first + i),
                  self->labels_first + i < g.n_pinned, height);
  header_placement (self, &self->placed);
}

void
_tks_timeline_view_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (widget);
  guint i;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = TKS_TIMELINE_HEADER_WIDTH + 100;
      *natural = TKS_TIMELINE_HEADER_WIDTH + 800;
    }
  else
    {
      *minimum = TKS_TIMELINE_RULER_HEIGHT + TKS_TIMELINE_LANE_HEIGHT * 2;
      *natural = TKS_TIMELINE_RULER_HEIGHT + TKS_TIMELINE_LANE_HEIGHT * MAX (4u, _tks_timeline_view_n_lanes (self));
    }
  /* children are measured so GTK does not complain; the lanes decide their size */
  for (i = 0; i < self->labels->len; i++)
    gtk_widget_measure (g_ptr_array_index (self->labels, i), orientation, -1,
                        NULL, NULL, NULL, NULL);
}
