#include "CArchive.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Each libarchive function DiagBundle calls, as a pointer bound by carchive_load.
#define CARCHIVE_FUNCTIONS(X) \
    X(struct archive *, archive_read_new, (void), ()) \
    X(int, archive_read_support_format_tar, (struct archive *a), (a)) \
    X(int, archive_read_support_filter_gzip, (struct archive *a), (a)) \
    X(int, archive_read_support_filter_zstd, (struct archive *a), (a)) \
    X(int, archive_read_support_filter_none, (struct archive *a), (a)) \
    X(int, archive_read_open, (struct archive *a, void *data, archive_open_callback *opener, archive_read_callback *reader, \
        archive_close_callback *closer), (a, data, opener, reader, closer)) \
    X(int, archive_read_next_header, (struct archive *a, struct archive_entry **entry), (a, entry)) \
    X(la_ssize_t, archive_read_data, (struct archive *a, void *buffer, size_t size), (a, buffer, size)) \
    X(int, archive_read_free, (struct archive *a), (a)) \
    X(struct archive *, archive_write_new, (void), ()) \
    X(int, archive_write_set_format_pax, (struct archive *a), (a)) \
    X(int, archive_write_add_filter_gzip, (struct archive *a), (a)) \
    X(int, archive_write_add_filter_zstd, (struct archive *a), (a)) \
    X(int, archive_write_add_filter_none, (struct archive *a), (a)) \
    X(int, archive_write_set_filter_option, (struct archive *a, const char *m, const char *o, const char *v), (a, m, o, v)) \
    X(int, archive_write_set_bytes_per_block, (struct archive *a, int bytes), (a, bytes)) \
    X(int, archive_write_open_fd, (struct archive *a, int fd), (a, fd)) \
    X(int, archive_write_header, (struct archive *a, struct archive_entry *entry), (a, entry)) \
    X(la_ssize_t, archive_write_data, (struct archive *a, const void *buffer, size_t size), (a, buffer, size)) \
    X(int, archive_write_close, (struct archive *a), (a)) \
    X(int, archive_write_free, (struct archive *a), (a)) \
    X(int, archive_errno, (struct archive *a), (a)) \
    X(const char *, archive_error_string, (struct archive *a), (a)) \
    X(struct archive_entry *, archive_entry_new, (void), ()) \
    X(void, archive_entry_free, (struct archive_entry *e), (e)) \
    X(__LA_MODE_T, archive_entry_filetype, (struct archive_entry *e), (e)) \
    X(const char *, archive_entry_hardlink, (struct archive_entry *e), (e)) \
    X(const char *, archive_entry_pathname, (struct archive_entry *e), (e)) \
    X(const char *, archive_entry_pathname_utf8, (struct archive_entry *e), (e)) \
    X(const char *, archive_entry_symlink, (struct archive_entry *e), (e)) \
    X(la_int64_t, archive_entry_size, (struct archive_entry *e), (e)) \
    X(int, archive_entry_size_is_set, (struct archive_entry *e), (e)) \
    X(void, archive_entry_set_filetype, (struct archive_entry *e, unsigned int type), (e, type)) \
    X(void, archive_entry_set_hardlink_utf8, (struct archive_entry *e, const char *target), (e, target)) \
    X(void, archive_entry_set_mtime, (struct archive_entry *e, time_t seconds, long nanoseconds), (e, seconds, nanoseconds)) \
    X(void, archive_entry_set_pathname_utf8, (struct archive_entry *e, const char *path), (e, path)) \
    X(void, archive_entry_set_perm, (struct archive_entry *e, __LA_MODE_T mode), (e, mode)) \
    X(void, archive_entry_set_size, (struct archive_entry *e, la_int64_t size), (e, size)) \
    X(void, archive_entry_set_symlink_utf8, (struct archive_entry *e, const char *target), (e, target))

#define CARCHIVE_POINTER(result, name, parameters, arguments) static result(*carchive_##name) parameters;
CARCHIVE_FUNCTIONS(CARCHIVE_POINTER)

// The forwarding definitions are hidden: libarchive, once loaded, must never bind to them.
#define CARCHIVE_FORWARD(result, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) result name parameters { return carchive_##name arguments; }
CARCHIVE_FUNCTIONS(CARCHIVE_FORWARD)

static pthread_once_t carchive_once = PTHREAD_ONCE_INIT;
static char carchive_failure[512];

static void carchive_open(void) {
    void *library = dlopen("libarchive.so.13", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(carchive_failure, sizeof carchive_failure, "cannot load libarchive (Debian package libarchive13): %s",
                 reason ? reason : "unknown reason");
        return;
    }
#define CARCHIVE_BIND(result, name, parameters, arguments) \
    *(void **)(&carchive_##name) = dlsym(library, #name); \
    if (carchive_##name == NULL) { \
        snprintf(carchive_failure, sizeof carchive_failure, "libarchive.so.13 has no function %s", #name); \
        return; \
    }
    CARCHIVE_FUNCTIONS(CARCHIVE_BIND)
}

int carchive_load(char *error, size_t capacity) {
    pthread_once(&carchive_once, carchive_open);
    if (carchive_failure[0] == 0) return 0;
    if (error != NULL && capacity > 0) snprintf(error, capacity, "%s", carchive_failure);
    return -1;
}
