/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    tu_events.c
 * @brief   Threads utilities: the name table, the interrupt handlers only counted, and the user
 *          events (markers and states).
 *
 * @addtogroup threads_utilities
 * @{
 */

#include "tu_internal.h"

#ifdef ENABLE_THREADS_TIMESTAMPS
#if TU_NAMES
/* The id of @name of @kind, registered now if needed; 0 when the table is full. Locked. */
tuname_t tu_register_name(const char *name, uint8_t kind) {
  uint8_t i;

  if (name == NULL)
    return 0;
  for (i = 0; i < tu_n_names; i++)
    if (tu_name_kinds[i] == kind && (tu_names[i] == name || strcmp(tu_names[i], name) == 0))
      return (tuname_t)(i + 1U);
  if (tu_n_names >= THREADS_TIMESTAMPS_MAX_NAMES) {
    tu_names_refused++;
    return 0;
  }
  tu_names[tu_n_names] = name;
  tu_name_kinds[tu_n_names] = kind;
  tu_n_names++;
#if TU_IRQ
  tu_irq_ignored[tu_n_names - 1U] = 0U;
  tu_irq_calls[tu_n_names - 1U] = 0U;
#ifdef THREADS_TIMESTAMPS_IRQ_IGNORE
  if (kind == TU_NAME_IRQ && strcmp(name, THREADS_TIMESTAMPS_IRQ_IGNORE) == 0) {
    tu_irq_ignored[tu_n_names - 1U] = 1U;
    tu_n_ignored++;
  }
#endif
  tu_irq_fast[tu_n_names] =
      kind == TU_NAME_IRQ && tu_n_names <= TU_IRQ_SHORT_MAX && tu_irq_ignored[tu_n_names - 1U] == 0U
          ? name
          : TU_IRQ_OTHER;
#endif
#if TU_CONDITIONS
  /* A condition on a handler or marker named before it was registered. */
  if (tu_when_id == 0U && tu_when_name[0] != '\0' && strcmp(tu_when_name, name) == 0 &&
      ((tu_when == TU_WHEN_IRQ && kind == TU_NAME_IRQ) ||
       (tu_when == TU_WHEN_MARKER && kind == TU_NAME_MARKER)))
    tu_when_id = tu_n_names;
#endif
  return tu_n_names;
}

#endif /* TU_NAMES */
#endif /* ENABLE_THREADS_TIMESTAMPS */

/**
 * @brief   Counts the interrupt handler @p name from now on instead of logging it.
 *
 * @param[in] name      the handler's name (its function name, as the IRQ hooks see it)
 * @return              0, or -1 when the name table is full or handlers are not recorded.
 *
 * @details Meant for the handler of the link that carries the shell, which would fill a
 *          recording with its own output. Its calls are reported in "Counted handler:" lines.
 *
 * @api
 */
int tuIrqIgnore(const char *name) {
#if TU_IRQ
  int done = -1;
  uint8_t id;

  chSysLock();
  id = (uint8_t)tu_register_name(name, TU_NAME_IRQ);
  if (id != 0U) {
    if (tu_irq_ignored[id - 1U] == 0U)
      tu_n_ignored++;
    tu_irq_ignored[id - 1U] = 1U;
    tu_irq_fast[id] = TU_IRQ_OTHER;
    done = 0;
  }
  chSysUnlock();
  return done;
#else
  (void)name;
  return -1;
#endif
}

/********************                  USER EVENTS                 ********************/

#if TU_USER
/* Registers @name of @kind from a thread. */
static tuname_t tu_register(const char *name, uint8_t kind) {
  tuname_t id;

  chSysLock();
  id = tu_register_name(name, kind);
  chSysUnlock();
  return id;
}

/* Registers @name of @kind from a locked context. */
static tuname_t tu_register_i(const char *name, uint8_t kind) {
  chDbgCheckClassI();
  return tu_register_name(name, kind);
}
#else
#define tu_register(name, kind)   ((void)(name), (tuname_t)0)
#define tu_register_i(name, kind) ((void)(name), (tuname_t)0)
#endif

/**
 * @brief   Registers a marker name.
 *
 * @param[in] name      the marker's name, kept by pointer
 * @return              its id, or 0 when the name table is full (calls with 0 do nothing).
 *
 * @note    Registering the same name again returns the same id.
 *
 * @api
 */
tuname_t tuRegisterMarker(const char *name) {
  return tu_register(name, TU_NAME_MARKER);
}

/**
 * @brief   Registers a state channel name.
 *
 * @param[in] name      the channel's name, kept by pointer
 * @return              its id, or 0 when the name table is full (calls with 0 do nothing).
 *
 * @api
 */
tuname_t tuRegisterChannel(const char *name) {
  return tu_register(name, TU_NAME_CHANNEL);
}

/**
 * @brief   Registers a state name.
 *
 * @param[in] name      the state's name, kept by pointer
 * @return              its id, or 0 when the name table is full (calls with 0 do nothing).
 *
 * @api
 */
tuname_t tuRegisterState(const char *name) {
  return tu_register(name, TU_NAME_STATE);
}

/**
 * @brief   Registers a marker name, from a locked context.
 *
 * @param[in] name      the marker's name, kept by pointer
 * @return              its id, or 0 when the name table is full.
 *
 * @iclass
 */
tuname_t tuRegisterMarkerI(const char *name) {
  return tu_register_i(name, TU_NAME_MARKER);
}

/**
 * @brief   Registers a state channel name, from a locked context.
 *
 * @param[in] name      the channel's name, kept by pointer
 * @return              its id, or 0 when the name table is full.
 *
 * @iclass
 */
tuname_t tuRegisterChannelI(const char *name) {
  return tu_register_i(name, TU_NAME_CHANNEL);
}

/**
 * @brief   Registers a state name, from a locked context.
 *
 * @param[in] name      the state's name, kept by pointer
 * @return              its id, or 0 when the name table is full.
 *
 * @iclass
 */
tuname_t tuRegisterStateI(const char *name) {
  return tu_register_i(name, TU_NAME_STATE);
}

/**
 * @brief   Records an instant marker with a value, from a locked context.
 *
 * @param[in] marker    the marker's id (0: nothing is recorded)
 * @param[in] value     the value it carries
 *
 * @note    Meets a marker condition (@p TU_WHEN_MARKER) set on it.
 *
 * @iclass
 */
void tuMarkerI(tuname_t marker, uint32_t value) {
#if TU_USER
  chDbgCheckClassI();
  if (marker == 0U)
    return;
#if TU_CONDITIONS
  if (tu_when == TU_WHEN_MARKER && marker == tu_when_id &&
      (tu_when_limit == TU_ANY_VALUE || value == tu_when_limit))
    tu_fire(value);
#endif
  tu_event(TU_EV_MARKER, marker, value);
#else
  (void)marker;
  (void)value;
#endif
}

/**
 * @brief   A state begins on a channel, from a locked context.
 *
 * @param[in] channel   the channel's id (0: nothing is recorded)
 * @param[in] state     the state's id
 *
 * @note    States nest: it begins above the states already begun on the channel.
 *
 * @iclass
 */
void tuStateBeginI(tuname_t channel, tuname_t state) {
#if TU_USER
  chDbgCheckClassI();
  if (channel != 0U)
    tu_event(TU_EV_BEGIN, (uint32_t)channel | ((uint32_t)state << 8), 0);
#else
  (void)channel;
  (void)state;
#endif
}

/**
 * @brief   The newest state of a channel ends, from a locked context.
 *
 * @param[in] channel   the channel's id (0: nothing is recorded)
 *
 * @iclass
 */
void tuStateEndI(tuname_t channel) {
#if TU_USER
  chDbgCheckClassI();
  if (channel != 0U)
    tu_event(TU_EV_END, channel, 0);
#else
  (void)channel;
#endif
}

/**
 * @brief   Records an instant marker with a value.
 *
 * @param[in] marker    the marker's id (0: nothing is recorded)
 * @param[in] value     the value it carries
 *
 * @api
 */
void tuMarker(tuname_t marker, uint32_t value) {
  chSysLock();
  tuMarkerI(marker, value);
  chSysUnlock();
}

/**
 * @brief   A state begins on a channel.
 *
 * @param[in] channel   the channel's id (0: nothing is recorded)
 * @param[in] state     the state's id
 *
 * @api
 */
void tuStateBegin(tuname_t channel, tuname_t state) {
  chSysLock();
  tuStateBeginI(channel, state);
  chSysUnlock();
}

/**
 * @brief   The newest state of a channel ends.
 *
 * @param[in] channel   the channel's id (0: nothing is recorded)
 *
 * @api
 */
void tuStateEnd(tuname_t channel) {
  chSysLock();
  tuStateEndI(channel);
  chSysUnlock();
}

/** @} */
