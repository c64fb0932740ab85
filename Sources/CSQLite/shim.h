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
