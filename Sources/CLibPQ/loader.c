#include "CLibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Each libpq function diag calls, as a pointer bound by clibpq_load.
#define CLIBPQ_FUNCTIONS(X) \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname), (keywords, values, expand_dbname)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(void, PQfinish, (PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg)) \
    X(void, PQconninfoFree, (PQconninfoOption *connOptions), (connOptions)) \
    X(void, PQfreemem, (void *ptr), (ptr)) \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    X(PGresult *, PQexecParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
        const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), \
        (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes)) \
    X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg)) \
    X(void, PQclear, (PGresult *res), (res)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    X(int, PQntuples, (const PGresult *res), (res)) \
    X(int, PQnfields, (const PGresult *res), (res)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetlength, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))

#define CLIBPQ_POINTER(result, name, parameters, arguments) static result(*clibpq_##name) parameters;
CLIBPQ_FUNCTIONS(CLIBPQ_POINTER)

// The forwarding definitions are hidden: libpq, once loaded, must never bind to them.
#define CLIBPQ_FORWARD(result, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) result name parameters { return clibpq_##name arguments; }
CLIBPQ_FUNCTIONS(CLIBPQ_FORWARD)

static pthread_once_t clibpq_once = PTHREAD_ONCE_INIT;
static char clibpq_failure[512];

static void clibpq_open(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(clibpq_failure, sizeof clibpq_failure, "cannot load libpq (Debian package libpq5): %s", reason ? reason : "unknown reason");
        return;
    }
#define CLIBPQ_BIND(result, name, parameters, arguments) \
    *(void **)(&clibpq_##name) = dlsym(library, #name); \
    if (clibpq_##name == NULL) { \
        snprintf(clibpq_failure, sizeof clibpq_failure, "libpq.so.5 has no function %s", #name); \
        return; \
    }
    CLIBPQ_FUNCTIONS(CLIBPQ_BIND)
}

int clibpq_load(char *error, size_t capacity) {
    pthread_once(&clibpq_once, clibpq_open);
    if (clibpq_failure[0] == 0) return 0;
    if (error != NULL && capacity > 0) snprintf(error, capacity, "%s", clibpq_failure);
    return -1;
}
