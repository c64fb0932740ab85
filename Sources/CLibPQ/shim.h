// libpq, PostgreSQL's C client library (Debian's libpq-dev), for `diag fleet`.
#include <libpq-fe.h>
