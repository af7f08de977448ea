/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Lines "Z~" cut short on the way (a link that drops the end of a line): the reader names the
 * line it lost by its number, as damaged, once; the line after it decodes without a second
 * warning for the same loss.
 */
#include "config.h"

#include <string.h>

#include <glib.h>

#include "tks-compact.h"
#include "tks-error.h"

/* Three lines of a compact dump of switches (the simulated board, 1000 Hz, 20 tick bits),
 * numbered 0, 1 and 2. */
static const char *const lines[] = {
  "Z~!!%!oR!!S!a1w:T!TV,0Lsxxq8Iw_e.i<((0Q|xXM2:*T3GP*LiHcHJJM[SY>0FU95E}!FN,&sa2s-5FuR:b`-FDgqE0A$stWY#rRGIO!9w=VI8y;lm+(>XTQ(my~,!1",
  "Z~!!*!_|;-)0]/UbnAS98[;)`PO7G|5.9p70[r%MCK109/N)B3(3;nn`nUeRD#eq4,$1!!8!^5",
  "Z~!!.!_|s.!%o)y\?HWam6RNt(xJceS>l:+O@`TLJANXvQ=.6HW#$&l6Q]8Y=|F\?**/]KSQWm~tua(6xu",
};

static void
test_cut_line (void)
{
  /* cut after an odd and after an even number of characters past "Z~" */
  for (gsize cut = 7; cut <= 8; cut++)
    {
      g_autoptr(TksCompactDecoder) dec = tks_compact_decoder_new (1000, 0);
      g_autoptr(GError) e0 = NULL;
      g_autoptr(GError) e1 = NULL;
      g_autoptr(GError) e2 = NULL;
      g_autofree char *cut_line = g_strndup (lines[1], strlen (lines[1]) - cut);

      tks_compact_decoder_set_tick_bits (dec, 20);
      g_assert_true (tks_compact_decoder_line (dec, lines[0], strlen (lines[0]), &e0));
      g_assert_no_error (e0);
      g_assert_false (tks_compact_decoder_line (dec, cut_line, strlen (cut_line), &e1));
      g_assert_error (e1, TKS_ERROR, TKS_ERROR_PARSE);
      g_test_message ("cut by %" G_GSIZE_FORMAT ": %s", cut, e1->message);
      g_assert_nonnull (strstr (e1->message, "compact line 1 is damaged"));
      /* the loss was named: the next line decodes, without a warning of a line missing */
      g_assert_true (tks_compact_decoder_line (dec, lines[2], strlen (lines[2]), &e2));
      g_assert_no_error (e2);
      g_assert_cmpuint (tks_compact_decoder_n_lost (dec), ==, 1);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compact-hostile-2/cut-line", test_cut_line);
  return g_test_run ();
}
