// libpq, PostgreSQL's C client library (Debian's libpq5), for `diag fleet`, loaded at run time.
//
// `diag` does not link libpq: with it come gnutls, Kerberos, LDAP and SASL, some twenty shared
// libraries whose loading and symbol binding cost every `diag` run (a one-minute window query is
// a 20 ms target) several milliseconds. The functions below keep libpq's own names and types
// (from its header) and forward to the library, which clibpq_load opens on first use.
#ifndef CLIBPQ_H
#define CLIBPQ_H
#include <stddef.h>
#include <postgresql/libpq-fe.h>

/// Opens libpq.so.5 and binds the functions diag uses, once per process (thread-safe).
/// Returns 0, or -1 with the reason (dlopen's or dlsym's message) in `error`.
int clibpq_load(char *error, size_t capacity);

#endif
