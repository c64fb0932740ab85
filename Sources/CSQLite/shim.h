#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift does not import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic; wrap the calls we use.
static inline int csqlite_db_config_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}

// sqlite3_db_config with an int flag (SQLITE_DBCONFIG_ENABLE_TRIGGER, _ENABLE_VIEW,
// _TRUSTED_SCHEMA, _DEFENSIVE): the variadic call wrapped for Swift.
static inline int csqlite_db_config_flag(sqlite3 *db, int option, int on) {
    return sqlite3_db_config(db, option, on, (int *)0);
}

// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on): before the process's first connection only.
static inline int csqlite_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

// sqlite3_config(SQLITE_CONFIG_PMASZ, pages): likewise.
static inline int csqlite_config_pmasz(unsigned int pages) {
    return sqlite3_config(SQLITE_CONFIG_PMASZ, pages);
}

// The number of frames in a connection's WAL after each of its commits, stored at `frames`
// (sqlite3_wal_hook; it replaces SQLite's own automatic checkpoint hook, which the chunk writer
// turns off). `frames` must outlive the hook: remove it (NULL) before freeing them.
static int csqlite_wal_frames_hook(void *frames, sqlite3 *db, const char *name, int count) {
    (void)db; (void)name;
    *(int *)frames = count;
    return SQLITE_OK;
}
static inline void csqlite_track_wal_frames(sqlite3 *db, int *frames) {
    if (frames) {
        sqlite3_wal_hook(db, csqlite_wal_frames_hook, frames);
    } else {
        sqlite3_wal_hook(db, 0, 0);
    }
}
