// sqlite3_config is variadic, which Swift cannot call, and it must run before SQLite is first
// initialised (later it answers SQLITE_MISUSE), so it runs here, when the process is loaded:
// before main, before any thread, whichever test or command opens a database first.
#include <sqlite3.h>

#include "csqlitesettings.h"

static int memstatus_off_result = -1;

// why no memory statistics: with them on, every allocation and free SQLite makes takes one
// process-wide mutex to count it. Reads on two threads met there: `perf` put most of the server's
// futex calls under `GET /v1/accounts` (SQLite, 64 connections) in sqlite3Malloc and sqlite3_free.
// Nothing in Tresor reads the statistics (sqlite3_memory_used, sqlite3_status).
__attribute__((constructor)) static void csqlite_settings(void) {
    memstatus_off_result = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    // After the configuration: registering a VFS initialises SQLite (walbatch.c).
    csqlite_walbatch_register();
}

int csqlite_memstatus_off_result(void) { return memstatus_off_result; }
