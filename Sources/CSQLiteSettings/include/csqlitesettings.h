// Process-wide SQLite settings that must be made before SQLite is first used, for TresorSQLite.
#ifndef CSQLITESETTINGS_H
#define CSQLITESETTINGS_H

/// What sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) answered when the process was loaded:
/// SQLITE_OK (0) when SQLite keeps no memory statistics.
int csqlite_memstatus_off_result(void);

#endif
