// SPDX-License-Identifier: GPL-3.0-or-later
// The board library used from C++ firmware: its header compiles as C++, its functions link
// with C linkage, its shell table fits a ChibiOS-style command table, and the names of the
// original library still work. TAP output, no GLib.
#include <cstdio>
#include <cstring>
#include <string>

#include "ch.h"
#include "hal.h"
#include "threads_utilities.h"

namespace {

struct Collector
{
  BaseSequentialStream base;
  std::string text;
};

size_t
collect (void *ip, const uint8_t *bp, size_t n)
{
  static_cast<Collector *> (ip)->text.append (reinterpret_cast<const char *> (bp), n);
  return n;
}

const BaseSequentialStreamVMT collector_vmt = { collect, NULL, NULL, NULL };

typedef void (*shellcmd_t) (BaseSequentialStream *chp, int argc, char *argv[]);
struct ShellCommand
{
  const char *sc_name;
  shellcmd_t  sc_function;
};

const ShellCommand commands[] = {
  THREADS_UTILITIES_SHELL_CMD
  { nullptr, nullptr }
};

int n_test = 0;
int n_failed = 0;

void
check (bool ok, const char *what)
{
  n_test++;
  if (!ok)
    n_failed++;
  std::printf ("%s %d - %s\n", ok ? "ok" : "not ok", n_test, what);
}

std::string
run (const char *name)
{
  Collector out;

  out.base.vmt = &collector_vmt;
  for (const ShellCommand *c = commands; c->sc_name != nullptr; c++)
    if (std::strcmp (c->sc_name, name) == 0)
      c->sc_function (&out.base, 0, nullptr);
  return out.text;
}

thread_t threads[2];

} // namespace

int
main ()
{
  std::printf ("1..5\n");
  ch_host_reset ();
  std::memset (threads, 0, sizeof threads);
  tuLogNextCreatedThreads ();
  ch_host_thread_init (&threads[0], "main", 128, CH_FLAG_MODE_STATIC);
  ch_host_switch (&threads[0]);
  ch_host_thread_init (&threads[1], "worker", 64, CH_FLAG_MODE_STATIC);
  ch_host_time = 5;
  ch_host_switch (&threads[1]);
  ch_host_time = 7;
  ch_host_switch (&threads[0]);

  check (run ("threads_list") == "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                                 "Thread number  2 : Prio =  64, Log = Yes, Name = worker\r\n"
                                 "Deleted threads: \r\n",
         "threads_list through the C++ command table");
  check (run ("threads_timestamps").find ("From  1 to  2 at       5\r\n") != std::string::npos,
         "threads_timestamps through the C++ command table");
  check (run ("threads_dump").find ("End of dump: 2 records, checksum ") != std::string::npos,
         "threads_dump through the C++ command table");
  // The original library's names are aliases of the tu names.
  check (std::strcmp (setTriggerTimestamps ("from C++"), "from C++") == 0,
         "setTriggerTimestamps() is tuSetTrigger()");
  resetTriggerTimestamps ();
  check (run ("threads_dump").find ("Mode: run\r\n") != std::string::npos,
         "resetTriggerTimestamps() is tuResetTrigger()");
  return n_failed == 0 ? 0 : 1;
}
