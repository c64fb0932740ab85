// zlib (Debian's zlib1g-dev; libarchive already links it) for gzip-encoded OTLP/HTTP bodies.
#include <zlib.h>
