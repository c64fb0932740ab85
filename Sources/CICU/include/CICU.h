// ICU's regular-expression C API (Debian's libicu72; libicu-dev for the headers), loaded at run
// time, for the MATCHES patterns the linear engine does not cover (backreferences, lookaround…).
//
// NSRegularExpression runs the same ICU but says nothing when ICU gives up: a pattern that
// backtracks past its limit simply "does not match". Through the C API the time limit is ours
// to set and its expiry (U_REGEX_TIME_OUT, U_REGEX_STACK_OVERFLOW) is reported, so such a record
// is counted as undecided instead of being answered "no". `diag` does not link ICU (its 30 MB of
// data and two libraries would be loaded by every run); cicu_load opens it on first use.
#ifndef CICU_H
#define CICU_H
#include <stddef.h>
#include <stdint.h>

/// Opens libicui18n and binds the functions below, once per process (thread-safe). Returns 0,
/// or -1 with the reason (dlopen's or dlsym's message) in `error`.
int cicu_load(char *error, size_t capacity);

/// uregex_open with `flags` (UREGEX_*), then uregex_setTimeLimit(`time_limit`); NULL with
/// `*status` set on failure.
void *cicu_open(const uint16_t *pattern, int32_t length, uint32_t flags, int32_t time_limit, int32_t *status);
/// uregex_clone, then uregex_setTimeLimit (a clone does not inherit the limit): a compiled
/// expression is not to be used by two threads at once.
void *cicu_clone(const void *regex, int32_t time_limit, int32_t *status);
void cicu_close(void *regex);
/// uregex_setText then uregex_find from 0: 1 found, 0 not found, -1 failed (`*status`).
int cicu_find(void *regex, const uint16_t *text, int32_t length, int32_t *status);
/// u_errorName.
const char *cicu_error_name(int32_t status);

enum {
    CICU_CASE_INSENSITIVE = 2,  // UREGEX_CASE_INSENSITIVE
    CICU_MULTILINE = 8,         // UREGEX_MULTILINE
    CICU_DOTALL = 32,           // UREGEX_DOTALL
};
#endif
