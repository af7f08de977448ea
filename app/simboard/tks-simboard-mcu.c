/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The board library under its usual names, as the kernel's hooks (chconf.h) and the board's
 * code call it, forwarded to the build the board runs (tks-simboard-mcu.h).
 */
#include "config.h"

#include "threads_utilities.h"

#include "tks-simboard-mcu.h"

static const TksMcuLib *lib = &tks_mcu_events_lib;

void
tks_simboard_mcu_use (const TksMcuLib *new_lib)
{
  lib = new_lib;
}

const TksMcuLib *
tks_simboard_mcu_get (void)
{
  return lib;
}

uint8_t
tuThreadLogSetting (void)
{
  return lib->thread_log_setting ();
}

void
tuThreadInitHook (void *ntp)
{
  lib->thread_init_hook (ntp);
}

void
tuThreadExitHook (void *otp)
{
  lib->thread_exit_hook (otp);
}

void
tuContextSwitchHook (void *ntp, void *otp)
{
  lib->context_switch_hook (ntp, otp);
}

void
tuIrqEnterHook (uint8_t *id, const char *name)
{
  lib->irq_enter_hook (id, name);
}

void
tuIrqLeaveHook (void)
{
  lib->irq_leave_hook ();
}

void
tuIdleEnterHook (void)
{
  lib->idle_enter_hook ();
}

void
tuIdleLeaveHook (void)
{
  lib->idle_leave_hook ();
}

void
tuThreadReadyHook (void *ntp)
{
  lib->thread_ready_hook (ntp);
}

void
tuLogNextCreatedThreads (void)
{
  lib->log_next_created_threads ();
}

void
tuDontLogNextCreatedThreads (void)
{
  lib->dont_log_next_created_threads ();
}

const char *
tuSetTrigger (const char *trigger_name)
{
  return lib->set_trigger (trigger_name);
}

void
tuResetState (void)
{
  lib->reset_state ();
}

tuname_t
tuRegisterMarker (const char *name)
{
  return lib->register_marker (name);
}

tuname_t
tuRegisterChannel (const char *name)
{
  return lib->register_channel (name);
}

tuname_t
tuRegisterState (const char *name)
{
  return lib->register_state (name);
}

void
tuMarker (tuname_t marker, uint32_t value)
{
  lib->marker (marker, value);
}

void
tuStateBegin (tuname_t channel, tuname_t state)
{
  lib->state_begin (channel, state);
}

void
tuStateEnd (tuname_t channel)
{
  lib->state_end (channel);
}

void
tuCmdThreadsStat (BaseSequentialStream *chp, int argc, char *argv[])
{
  lib->cmd_threads_stat (chp, argc, argv);
}

void
tuCmdThreadsUc (BaseSequentialStream *chp, int argc, char *argv[])
{
  lib->cmd_threads_uc (chp, argc, argv);
}
