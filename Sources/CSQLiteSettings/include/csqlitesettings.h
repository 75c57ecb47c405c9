// What TresorSQLite does with SQLite in C: process-wide settings made before SQLite is first used
// (sqlite3_config is variadic, which Swift cannot call), a look at the WAL index's header, and a
// VFS that writes each commit's log frames in a few calls (walbatch.c).
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

/// Registers walbatch.c's VFS as the default (over the unix VFS), once, when the process is loaded.
int csqlite_walbatch_register(void);

/// What registering it answered: SQLITE_OK (0) when every connection opened since uses it.
int csqlite_walbatch_result(void);

/// The write-ahead log of `db` (a sqlite3 *), when it is open through walbatch.c's VFS: the writes
/// SQLite asked of it, the writes that reached the file for them, and the bytes gathered and not
/// yet written. 0, or 1 when the connection has no such log open.
int csqlite_walbatch_log(void *db, long long *asked, long long *written, long long *pending);

#endif
