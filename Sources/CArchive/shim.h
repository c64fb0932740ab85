#include <archive.h>
#include <archive_entry.h>
#include <locale.h>
