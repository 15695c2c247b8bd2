/*
 * errors.c -- the message behind a failed call (drtopk_last_error): every
 * public entry point clears it, and the place that fails writes what failed
 * and how to fix it (the GPU and the limit it hit, the CUDA error, the input
 * out of range).  One buffer per host thread, so concurrent callers do not
 * see each other's messages.
 */
#include "backend.h"

#include <stdarg.h>
#include <stdio.h>

#define DRTOPK_ERROR_LEN 512   /* one message: a sentence and a CUDA error name */

static _Thread_local char last_error[DRTOPK_ERROR_LEN];

void drtopk_error_set(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

void drtopk_error_clear(void) { last_error[0] = '\0'; }

const char *drtopk_last_error(void) { return last_error; }

drtopk_status drtopk_workspace_too_small(const void *ws, size_t have, size_t need)
{
    drtopk_error_set("the workspace is %s%zu bytes; this call needs %zu (drtopk_select_workspace)",
                     ws == NULL ? "NULL, " : "", have, need);
    return DRTOPK_ERR_WORKSPACE_TOO_SMALL;
}

drtopk_status drtopk_pending_take(int (*take)(void), const char *(*name_of)(int), const char *entry)
{
    const int pending = take();
    if (pending == 0) return DRTOPK_OK;
    drtopk_error_set("%s: a CUDA error was pending before the call (%s), left by earlier work on this thread; "
                     "drtopk cleared it and ran nothing: check the call before this one (cudaGetLastError "
                     "after each launch), then call again", entry, name_of(pending));
    return DRTOPK_ERR_CUDA;
}
