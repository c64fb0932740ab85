// SQLite's allocator for `diag`: malloc, with a cache per thread of the small blocks SQLite frees.
//
// Every chunk a query opens costs SQLite about 1,200 allocations (its schema parsed, a dozen
// statements prepared, `EXPLAIN QUERY PLAN` among them), most under 1 KiB and freed soon after.
// glibc keeps 7 freed blocks of a size per thread; past that they go back to the arena, under
// its lock, and large requests in between make it consolidate them: a `CONTAINS` that finds
// nothing in diagd's store of 10M records (51 chunks) spent a sixth of its time in malloc and
// free, and GLIBC_TUNABLES=glibc.malloc.tcache_count=1000 took it from 36 to 27 ms. This does
// the same for SQLite alone, from inside the process (docs/STORE.md, "Reading").
//
// Each block has a 16-byte header holding its size rounded up to 16 (so blocks stay 16-byte
// aligned). A freed block of at most 1 KiB goes on its thread's list for its size, up to 512 a
// size and 1 MiB a thread; anything else goes back to malloc. Blocks move freely between
// threads: the one that frees a block keeps it. A thread's cache is freed when it exits.
#include "csqlite_alloc.h"
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    classes = 64,            // sizes 16, 32, …, 1,024
    per_class = 512,         // blocks kept per size and thread
    header = 16,
};
static const size_t thread_budget = 1 << 20;  // bytes kept per thread, headers included

typedef struct block { struct block *next; } block;
typedef struct cache {
    block *lists[classes + 1];
    unsigned counts[classes + 1];
    size_t bytes;
} cache;

static _Thread_local cache *thread_cache;
static pthread_key_t cache_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int key_made;

// At a thread's exit: every block it kept back to malloc.
static void release(void *value) {
    cache *c = value;
    thread_cache = NULL;
    for (int i = 0; i <= classes; i++) {
        while (c->lists[i]) {
            block *b = c->lists[i];
            c->lists[i] = b->next;
            free((char *)b - header);
        }
    }
    free(c);
}

static void make_key(void) { key_made = pthread_key_create(&cache_key, release) == 0; }

// The calling thread's cache, made on first use; NULL if it cannot be (then malloc alone).
static cache *this_thread(void) {
    if (thread_cache) return thread_cache;
    pthread_once(&key_once, make_key);
    if (!key_made) return NULL;
    cache *c = calloc(1, sizeof(cache));
    if (!c) return NULL;
    if (pthread_setspecific(cache_key, c) != 0) { free(c); return NULL; }
    thread_cache = c;
    return c;
}

static size_t rounded(int n) { return ((size_t)n + 15) & ~(size_t)15; }
static size_t size_of(void *p) { return (size_t)((uint64_t *)((char *)p - header))[0]; }

static void *x_malloc(int n) {
    if (n <= 0) return NULL;
    size_t size = rounded(n);
    size_t class = size / 16;
    if (class <= classes) {
        cache *c = this_thread();
        if (c && c->lists[class]) {
            block *b = c->lists[class];
            c->lists[class] = b->next;
            c->counts[class]--;
            c->bytes -= size + header;
            return b;
        }
    }
    uint64_t *h = malloc(size + header);
    if (!h) return NULL;
    h[0] = size;
    return (char *)h + header;
}

static void x_free(void *p) {
    if (!p) return;
    size_t size = size_of(p);
    size_t class = size / 16;
    if (class <= classes) {
        cache *c = this_thread();
        if (c && c->counts[class] < per_class && c->bytes + size + header <= thread_budget) {
            block *b = p;
            b->next = c->lists[class];
            c->lists[class] = b;
            c->counts[class]++;
            c->bytes += size + header;
            return;
        }
    }
    free((char *)p - header);
}

static int x_size(void *p) { return p ? (int)size_of(p) : 0; }

static void *x_realloc(void *p, int n) {
    if (!p) return x_malloc(n);
    if (n <= 0) return NULL;
    size_t old = size_of(p), size = rounded(n);
    if (size == old) return p;
    if (old / 16 > classes && size / 16 > classes) {
        // Neither size is cached: malloc's realloc, which may grow the block in place.
        uint64_t *h = realloc((char *)p - header, size + header);
        if (!h) return NULL;
        h[0] = size;
        return (char *)h + header;
    }
    void *q = x_malloc(n);
    if (!q) return NULL;
    memcpy(q, p, old < size ? old : size);
    x_free(p);
    return q;
}

static int x_roundup(int n) { return n > 0 ? (int)rounded(n) : n; }
static int x_init(void *unused) { (void)unused; return SQLITE_OK; }
static void x_shutdown(void *unused) { (void)unused; }

int csqlite_use_thread_caches(void) {
    static const sqlite3_mem_methods methods = {
        x_malloc, x_free, x_realloc, x_size, x_roundup, x_init, x_shutdown, NULL
    };
    return sqlite3_config(SQLITE_CONFIG_MALLOC, &methods);
}
