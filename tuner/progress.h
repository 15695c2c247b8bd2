/*
 * progress.h -- how a long tuner run reports and ends (the sweep of paper
 * section 5.2 runs for minutes to hours): the progress line with elapsed time
 * and ETA, and the clean stop on SIGINT/SIGTERM or at --max-minutes, after
 * which a rerun of the same command goes on.  Includes no other tuner header.
 * Program-internal.
 */
#ifndef DRTOPK_TUNER_PROGRESS_H
#define DRTOPK_TUNER_PROGRESS_H
#include <signal.h>
#include <stddef.h>

#define SIGNAL_EXIT_BASE 128        /* shell convention: 128 + signal number    */

/* The signal (SIGINT/SIGTERM) that asked the tuner to stop, else 0: long
 * loops end cleanly when it is set. */
extern volatile sig_atomic_t tuner_stop_signal;
/* Wall-clock time (dh_now_ms) at which --max-minutes ends the run; 0: none. */
extern double tuner_deadline_ms;

/* From now on SIGINT and SIGTERM set tuner_stop_signal instead of killing. */
void tuner_catch_signals(void);
/* The run ends max_minutes after start_ms (dh_now_ms); max_minutes <= 0:
 * no deadline. */
void tuner_set_deadline(double start_ms, double max_minutes);
/* Stop now: a signal came or the deadline passed. */
int tuner_should_stop(void);
/* A progress line with elapsed time and ETA: on a terminal one line redrawn,
 * else one line every few seconds and the last one. */
void tuner_progress(size_t done, size_t total, double t0_ms, const char *what, int last);

#endif
