/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Times a program's first complete picture from outside it, the same way for any program:
 * starts COMMAND, watches the X server's screen through the DAMAGE extension (every drawing
 * into any window is reported), reads the screen back after each burst of drawing and keeps
 * its checksum and the time of the drawing. When the screen has not changed for QUIET ms the
 * picture is final; the first frame is the earliest moment the screen showed that picture.
 * The pointer is put in the screen's bottom right corner first, where a window shows no
 * tooltip. Then the program's peak and current resident memory (/proc/PID/status, smaps_rollup) are
 * read, and it is stopped.
 *
 * Prints one line:
 *   first-frame: ms=M changes=N hwm_kb=K rss_kb=K pss_kb=K
 * (ms: from just before the program is started to its first complete picture; changes: the
 * screen's distinct pictures on the way.) With --shot FILE the final picture is written as PPM;
 * with --shots DIR every picture on the way, as DIR/N-MSms.ppm (slow: to look at, not to time).
 *
 * Usage: first-frame-watch [--quiet MS] [--timeout S] [--shot FILE] [--shots DIR] -- COMMAND [ARG...]
 * The program must be the only one drawing on the display (a private Xvfb).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xdamage.h>

#define MAX_CHANGES 4096

typedef struct
{
  double   ms;
  uint64_t sum;
} Change;

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* FNV-1a over the screen's pixels */
static uint64_t
screen_sum (Display *display,
            Window   root,
            int      width,
            int      height,
            XImage **keep)
{
  XImage *image = XGetImage (display, root, 0, 0, width, height, AllPlanes, ZPixmap);
  uint64_t sum = 14695981039346656037ull;
  int y;

  if (image == NULL)
    return 0;
  for (y = 0; y < height; y++)
    {
      const unsigned char *row = (const unsigned char *) image->data + (size_t) y * image->bytes_per_line;
      int i, n = width * image->bits_per_pixel / 8;

      for (i = 0; i < n; i++)
        sum = (sum ^ row[i]) * 1099511628211ull;
    }
  if (keep != NULL)
    {
      if (*keep != NULL)
        XDestroyImage (*keep);
      *keep = image;
    }
  else
    XDestroyImage (image);
  return sum;
}

static void
write_ppm (const char *path,
           XImage     *image)
{
  FILE *out = fopen (path, "wb");
  int x, y;

  if (out == NULL)
    {
      perror (path);
      return;
    }
  fprintf (out, "P6\n%d %d\n255\n", image->width, image->height);
  for (y = 0; y < image->height; y++)
    for (x = 0; x < image->width; x++)
      {
        unsigned long p = XGetPixel (image, x, y);
        unsigned char rgb[3] = { (p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff };

        fwrite (rgb, 1, 3, out);
      }
  fclose (out);
}

/* a "Key:   N kB" line of a /proc file, or -1 */
static long
proc_kb (pid_t       pid,
         const char *file,
         const char *key)
{
  char path[64], line[256];
  size_t len = strlen (key);
  long value = -1;
  FILE *in;

  snprintf (path, sizeof path, "/proc/%d/%s", (int) pid, file);
  in = fopen (path, "r");
  if (in == NULL)
    return -1;
  while (fgets (line, sizeof line, in) != NULL)
    if (strncmp (line, key, len) == 0 && line[len] == ':')
      {
        value = strtol (line + len + 1, NULL, 10);
        break;
      }
  fclose (in);
  return value;
}

int
main (int   argc,
      char *argv[])
{
  static Change changes[MAX_CHANGES];
  double quiet = 3000, timeout = 60, start, last_damage;
  const char *shot = NULL, *shots = NULL;
  XImage *image = NULL;
  Display *display;
  Window root;
  XWindowAttributes attributes;
  int event_base, error_base, n = 0, status, i, arg = 1, first;
  uint64_t sum, final;
  pid_t pid;

  for (; arg < argc && strcmp (argv[arg], "--") != 0; arg++)
    {
      if (strcmp (argv[arg], "--quiet") == 0 && arg + 1 < argc)
        quiet = atof (argv[++arg]);
      else if (strcmp (argv[arg], "--timeout") == 0 && arg + 1 < argc)
        timeout = atof (argv[++arg]);
      else if (strcmp (argv[arg], "--shot") == 0 && arg + 1 < argc)
        shot = argv[++arg];
      else if (strcmp (argv[arg], "--shots") == 0 && arg + 1 < argc)
        shots = argv[++arg];
      else
        break;
    }
  if (arg >= argc - 1 || strcmp (argv[arg], "--") != 0)
    {
      fprintf (stderr, "usage: %s [--quiet MS] [--timeout S] [--shot FILE] [--shots DIR] -- COMMAND [ARG...]\n", argv[0]);
      return 2;
    }
  arg++;

  display = XOpenDisplay (NULL);
  if (display == NULL)
    {
      fprintf (stderr, "first-frame-watch: cannot open the display\n");
      return 1;
    }
  if (!XDamageQueryExtension (display, &event_base, &error_base))
    {
      fprintf (stderr, "first-frame-watch: the X server has no DAMAGE extension\n");
      return 1;
    }
  root = DefaultRootWindow (display);
  XGetWindowAttributes (display, root, &attributes);
  /* the pointer in the screen's corner, over no widget: a tooltip would change the picture */
  XWarpPointer (display, None, root, 0, 0, 0, 0, attributes.width - 1, attributes.height - 1);
  XDamageCreate (display, root, XDamageReportRawRectangles);
  XSync (display, False);
  changes[n].ms = 0;
  changes[n++].sum = screen_sum (display, root, attributes.width, attributes.height, NULL);

  start = now_ms ();
  pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      return 1;
    }
  if (pid == 0)
    {
      execvp (argv[arg], argv + arg);
      perror (argv[arg]);
      _exit (127);
    }

  last_damage = start;
  for (;;)
    {
      struct pollfd fd = { ConnectionNumber (display), POLLIN, 0 };
      int damaged = 0;
      double t;

      while (XPending (display) > 0)
        {
          XEvent event;

          XNextEvent (display, &event);
          if (event.type == event_base + XDamageNotify)
            damaged = 1;
        }
      t = now_ms ();
      if (damaged)
        {
          last_damage = t;
          sum = screen_sum (display, root, attributes.width, attributes.height,
                            shots != NULL ? &image : NULL);
          if (sum != changes[n - 1].sum && n < MAX_CHANGES)
            {
              changes[n].ms = t - start;
              changes[n++].sum = sum;
              if (shots != NULL)
                {
                  char path[4096];

                  snprintf (path, sizeof path, "%s/%d-%.0fms.ppm", shots, n - 1, t - start);
                  write_ppm (path, image);
                }
            }
          continue;
        }
      if (n > 1 && t - last_damage >= quiet)
        break;
      if (t - start >= timeout * 1e3)
        {
          fprintf (stderr, "first-frame-watch: still drawing after %.0f s\n", timeout);
          break;
        }
      if (waitpid (pid, &status, WNOHANG) == pid)
        {
          fprintf (stderr, "first-frame-watch: %s exited (status %d) before a picture was final\n",
                   argv[arg], status);
          return 1;
        }
      poll (&fd, 1, 50);
    }
  final = screen_sum (display, root, attributes.width, attributes.height, &image);
  for (first = -1, i = 1; i < n; i++)
    if (changes[i].sum == final)
      {
        first = i;
        break;
      }
  printf ("first-frame: ms=%.1f changes=%d hwm_kb=%ld rss_kb=%ld pss_kb=%ld\n",
          first > 0 ? changes[first].ms : -1.0, n - 1,
          proc_kb (pid, "status", "VmHWM"), proc_kb (pid, "status", "VmRSS"),
          proc_kb (pid, "smaps_rollup", "Pss"));
  if (shot != NULL && image != NULL)
    write_ppm (shot, image);

  kill (pid, SIGTERM);
  for (i = 0; i < 50 && waitpid (pid, &status, WNOHANG) == 0; i++)
    usleep (100000);
  if (i == 50)
    {
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
    }
  XCloseDisplay (display);
  return first > 0 ? 0 : 1;
}
