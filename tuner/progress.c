/*
 * progress.c -- how a long tuner run reports and ends (the sweep of paper
 * section 5.2): the stop flag set by SIGINT/SIGTERM, the --max-minutes
 * deadline, and the progress line on stderr.
 */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "util.h"

#define PLAIN_PROGRESS_S 10.0       /* non-TTY progress: one line per 10 s      */
#define MS_PER_MINUTE 60000.0

volatile sig_atomic_t tuner_stop_signal;
double tuner_deadline_ms;

static void on_signal(int sig) { tuner_stop_signal = sig; }

void tuner_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void tuner_set_deadline(double start_ms, double max_minutes)
{
    if (max_minutes > 0)
        tuner_deadline_ms = start_ms + max_minutes * MS_PER_MINUTE;
}

int tuner_should_stop(void)
{
    return tuner_stop_signal || (tuner_deadline_ms > 0 && dh_now_ms() >= tuner_deadline_ms);
}

void tuner_progress(size_t done, size_t total, double t0, const char *what, int last)
{
    static double last_plain;
    static int tty = -1;
    if (tty < 0)
        tty = isatty(STDERR_FILENO);
    double now = dh_now_ms(), el = (now - t0) / MS_PER_S;
    double eta = done ? el / (double)done * (double)(total - done) : 0;
    if (tty) {
        fprintf(stderr, "\r[%zu/%zu] %.0f s elapsed, ETA %.0f s  %-60.60s", done, total, el, eta, what);
        if (last)
            fputc('\n', stderr);
    } else if (last || now - last_plain >= PLAIN_PROGRESS_S * MS_PER_S) {
        fprintf(stderr, "[%zu/%zu] %.0f s elapsed, ETA %.0f s  %s\n", done, total, el, eta, what);
        last_plain = now;
    }
    fflush(stderr);
}
