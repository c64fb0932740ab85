#include "CICU.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unicode/uregex.h>
#include <unicode/utypes.h>
#include <unicode/uvernum.h>

// ICU's headers rename each function with the library's version (uregex_open → uregex_open_72);
// the names are looked up as the headers spell them, in the library of that same version.
#define CICU_STRING(x) #x
#define CICU_SYMBOL(x) CICU_STRING(x)
#define CICU_LIBRARY "libicui18n.so." CICU_SYMBOL(U_ICU_VERSION_MAJOR_NUM)

static URegularExpression *(*cicu_uregex_open)(const UChar *, int32_t, uint32_t, UParseError *, UErrorCode *);
static URegularExpression *(*cicu_uregex_clone)(const URegularExpression *, UErrorCode *);
static void (*cicu_uregex_close)(URegularExpression *);
static void (*cicu_uregex_setTimeLimit)(URegularExpression *, int32_t, UErrorCode *);
static void (*cicu_uregex_setText)(URegularExpression *, const UChar *, int32_t, UErrorCode *);
static UBool (*cicu_uregex_find)(URegularExpression *, int32_t, UErrorCode *);
static const char *(*cicu_u_errorName)(UErrorCode);

static pthread_once_t cicu_once = PTHREAD_ONCE_INIT;
static char cicu_failure[512];

#define CICU_BIND(handle, pointer, name) \
    if (!(*(void **)&pointer = dlsym(handle, CICU_SYMBOL(name)))) { \
        snprintf(cicu_failure, sizeof cicu_failure, "%s", dlerror()); \
        return; \
    }

static void cicu_bind(void) {
    void *handle = dlopen(CICU_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(cicu_failure, sizeof cicu_failure, "%s", dlerror());
        return;
    }
    CICU_BIND(handle, cicu_uregex_open, uregex_open)
    CICU_BIND(handle, cicu_uregex_clone, uregex_clone)
    CICU_BIND(handle, cicu_uregex_close, uregex_close)
    CICU_BIND(handle, cicu_uregex_setTimeLimit, uregex_setTimeLimit)
    CICU_BIND(handle, cicu_uregex_setText, uregex_setText)
    CICU_BIND(handle, cicu_uregex_find, uregex_find)
    CICU_BIND(handle, cicu_u_errorName, u_errorName)
}

int cicu_load(char *error, size_t capacity) {
    pthread_once(&cicu_once, cicu_bind);
    if (cicu_failure[0] != 0 || cicu_u_errorName == NULL) {
        if (capacity > 0) snprintf(error, capacity, "%s", cicu_failure[0] ? cicu_failure : "ICU not loaded");
        return -1;
    }
    return 0;
}

void *cicu_open(const uint16_t *pattern, int32_t length, uint32_t flags, int32_t time_limit, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    UParseError where;
    URegularExpression *regex = cicu_uregex_open((const UChar *)pattern, length, flags, &where, &code);
    if (U_SUCCESS(code)) cicu_uregex_setTimeLimit(regex, time_limit, &code);
    *status = code;
    if (U_FAILURE(code)) {
        if (regex) cicu_uregex_close(regex);
        return NULL;
    }
    return regex;
}

void *cicu_clone(const void *regex, int32_t time_limit, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    URegularExpression *copy = cicu_uregex_clone((const URegularExpression *)regex, &code);
    if (U_SUCCESS(code)) cicu_uregex_setTimeLimit(copy, time_limit, &code);
    *status = code;
    if (U_FAILURE(code)) {
        if (copy) cicu_uregex_close(copy);
        return NULL;
    }
    return copy;
}

void cicu_close(void *regex) {
    cicu_uregex_close((URegularExpression *)regex);
}

int cicu_find(void *regex, const uint16_t *text, int32_t length, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    cicu_uregex_setText((URegularExpression *)regex, (const UChar *)text, length, &code);
    UBool found = U_SUCCESS(code) ? cicu_uregex_find((URegularExpression *)regex, 0, &code) : 0;
    *status = code;
    if (U_FAILURE(code)) return -1;
    return found ? 1 : 0;
}

const char *cicu_error_name(int32_t status) {
    return cicu_u_errorName((UErrorCode)status);
}
