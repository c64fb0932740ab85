#include <archive.h>
#include <archive_entry.h>
#include <locale.h>

// LC_CTYPE_MASK is a macro Swift does not import. libarchive 3.6.2 crashes on non-ASCII
// UTF-8 pathnames in the C locale (issue 2233), so the writing thread switches to this one.
static inline locale_t carchive_new_utf8_ctype_locale(void) {
    return newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}
