// What TresorSQLite does with SQLite in C: process-wide settings made before SQLite is first used
// (sqlite3_config is variadic, which Swift cannot call), and a look at the WAL index's header.
#ifndef CSQLITESETTINGS_H
#define CSQLITESETTINGS_H

/// What sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) answered when the process was loaded:
/// SQLITE_OK (0) when SQLite keeps no memory statistics.
int csqlite_memstatus_off_result(void);

/// The first region of the WAL index (the -shm file) of `db` (a sqlite3 *) in WAL mode, or NULL.
/// It stays mapped while the connection is open.
const void *csqlite_wal_index(void *db);

/// Copies the 48-byte header of the WAL index at `index` into `out`: 0, or 1 when a writer was
/// changing it (or it is being rebuilt), and `out` is left as it was.
int csqlite_wal_header(const void *index, void *out);

#endif
