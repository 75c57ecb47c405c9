// The WAL index's header as a reader finds it, for read connections that keep their snapshot
// between statements while nothing is committed (`SQLiteReader`).
#include <sqlite3.h>
#include <string.h>

#include "csqlitesettings.h"

// The WAL index (the -shm file) is mapped in regions of this size; the header is in region 0.
#define WALINDEX_PGSZ 32768
// One copy of the header (WalIndexHdr in wal.c); the index holds two, one after the other.
#define WALINDEX_HDR 48

const void *csqlite_wal_index(void *db) {
    sqlite3_file *file = NULL;
    if (sqlite3_file_control((sqlite3 *)db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK || file == NULL) return NULL;
    if (file->pMethods == NULL || file->pMethods->iVersion < 2 || file->pMethods->xShmMap == NULL) return NULL;
    void volatile *region = NULL;
    if (file->pMethods->xShmMap(file, 0, WALINDEX_PGSZ, 0, &region) != SQLITE_OK) return NULL;
    return (const void *)region;
}

int csqlite_wal_header(const void *index, void *out) {
    // As wal.c's walIndexTryHdr reads it: the first copy, a barrier, the second; a writer
    // writes the second first, so two equal copies are a header no writer was changing.
    unsigned char first[WALINDEX_HDR];
    unsigned char second[WALINDEX_HDR];
    const volatile unsigned char *bytes = (const volatile unsigned char *)index;
    for (int i = 0; i < WALINDEX_HDR; i++) first[i] = bytes[i];
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int i = 0; i < WALINDEX_HDR; i++) second[i] = bytes[WALINDEX_HDR + i];
    // isInit, the byte after iVersion, unused and iChange: 0 while the index is being rebuilt.
    if (memcmp(first, second, WALINDEX_HDR) != 0 || first[12] == 0) return 1;
    memcpy(out, first, WALINDEX_HDR);
    return 0;
}
