#ifndef CSQLITE_ALLOC_H
#define CSQLITE_ALLOC_H

/// Makes SQLite allocate its small blocks (up to 1 KiB) through a cache kept by each thread, in
/// front of malloc (alloc.c says why). It must come before the process's first connection:
/// returns SQLITE_OK, or SQLITE_MISUSE (changing nothing) once SQLite has started.
int csqlite_use_thread_caches(void);

#endif
