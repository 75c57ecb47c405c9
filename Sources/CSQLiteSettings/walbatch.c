// A VFS over the platform's own (unix) that gathers what a connection appends to its write-ahead
// log and hands it to the kernel in a few writes, when SQLite syncs the log.
//
// why: SQLite writes each frame of a commit as two pwrite calls (a 24-byte header, then the page).
// A group of ~32 transfers commits ~100 frames, so ~200 system calls (strace at 64 connections);
// on this machine kind a call costs several µs (Python, the same bytes: 200 pwrite 1.2 ms, one
// pwritev of them 0.06 ms). At 64 connections a COMMIT took 1.37-1.44 ms where its fdatasync took
// ~0.45; gathered, 1.21-1.26 ms (4 writes a commit), and the single writer's cycle is that shorter.
//
// What reaches the disk, and when, does not change: SQLite syncs the log before a commit counts
// (synchronous = FULL), and the sync writes what was gathered first. What other connections can
// see does not change either: they read frames only up to the end the WAL index's header names,
// and the writer publishes a new end only after a barrier on the database file (wal.c,
// walIndexWriteHdr), where this VFS writes out what its connection gathered if nothing synced it
// (synchronous below FULL). A process killed before the sync loses the gathered frames, as it would
// have lost the commit.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "csqlitesettings.h"

// At most this many bytes gathered: past it, what is gathered is written first. why: a large
// transaction (a migration) spills pages to the log long before it commits; memory stays bounded.
#define GATHER_MAX (8 * 1024 * 1024)

typedef struct WalBatchFile WalBatchFile;

// One open file: the methods, then our fields, then the unix VFS's own file object (`real`).
struct WalBatchFile {
    sqlite3_file base;
    sqlite3_file *real;
    // Database files: the name SQLite opened it with (the key its log finds it by), the log of the
    // same connection while it is open, and the links of the list of open database files.
    const char *name;
    WalBatchFile *wal;
    WalBatchFile *next;
    WalBatchFile *previous;
    // Logs: the database file of the same connection, whether this log's writes are gathered (it
    // is linked to that file), and what was gathered: `length` bytes meant for the file from `start`.
    WalBatchFile *database;
    int isWal;
    unsigned char *gathered;
    sqlite3_int64 start;
    sqlite3_int64 length;
    sqlite3_int64 capacity;
    // Writes SQLite asked of the log, and writes handed to the unix VFS for them (for the tests).
    sqlite3_int64 asked;
    sqlite3_int64 written;
};

static sqlite3_vfs *underlying = NULL;
static sqlite3_vfs walbatch_vfs;
static sqlite3_io_methods walbatch_methods;
static pthread_mutex_t databases_lock = PTHREAD_MUTEX_INITIALIZER;
static WalBatchFile *databases = NULL;
static int register_result = -1;

// The most bytes the unix VFS writes in one call: it passes a write's length to pwrite masked with
// 0x1ffff (os_unix.c, seekAndWriteFd), so a longer one would be cut and reported as a full disk.
#define WRITE_MAX 0x1ffff

// Writes out what `file` gathered, in calls of at most WRITE_MAX bytes (4 for a commit of 100
// frames, where SQLite made 200). Nothing is kept when a write fails: the caller reports the
// error to SQLite, and an I/O error ends the transaction those bytes belonged to (the pager
// rolls it back; nothing it wrote to the log was published), so they must not reach the file later.
static int flush(WalBatchFile *file) {
    sqlite3_int64 done = 0;
    int code = SQLITE_OK;
    while (done < file->length && code == SQLITE_OK) {
        sqlite3_int64 amount = file->length - done < WRITE_MAX ? file->length - done : WRITE_MAX;
        code = file->real->pMethods->xWrite(file->real, file->gathered + done, (int)amount, file->start + done);
        done += amount;
        file->written += 1;
    }
    file->length = 0;
    return code;
}

static int gather(WalBatchFile *file, const void *bytes, int amount, sqlite3_int64 offset) {
    sqlite3_int64 end = file->start + file->length;
    // Inside what is gathered (SQLite rewriting a frame of the same transaction): copied over.
    if (file->length > 0 && offset >= file->start && offset + amount <= end) {
        memcpy(file->gathered + (offset - file->start), bytes, (size_t)amount);
        return SQLITE_OK;
    }
    // Anything but the next bytes, or too many: what is gathered goes first.
    if (file->length > 0 && (offset != end || file->length + amount > GATHER_MAX)) {
        int code = flush(file);
        if (code != SQLITE_OK) return code;
    }
    if (amount > GATHER_MAX) {
        file->written += 1;
        return file->real->pMethods->xWrite(file->real, bytes, amount, offset);
    }
    if (file->length == 0) file->start = offset;
    if (file->length + amount > file->capacity) {
        sqlite3_int64 capacity = file->capacity == 0 ? 256 * 1024 : file->capacity;
        while (capacity < file->length + amount) capacity *= 2;
        if (capacity > GATHER_MAX) capacity = GATHER_MAX;
        unsigned char *grown = realloc(file->gathered, (size_t)capacity);
        if (grown == NULL) {
            // No memory to gather: written as SQLite would have.
            int code = flush(file);
            if (code != SQLITE_OK) return code;
            file->written += 1;
            return file->real->pMethods->xWrite(file->real, bytes, amount, offset);
        }
        file->gathered = grown;
        file->capacity = capacity;
    }
    memcpy(file->gathered + file->length, bytes, (size_t)amount);
    file->length += amount;
    return SQLITE_OK;
}

static int walbatch_close(sqlite3_file *base) {
    WalBatchFile *file = (WalBatchFile *)base;
    int code = file->isWal ? flush(file) : SQLITE_OK;
    pthread_mutex_lock(&databases_lock);
    if (file->isWal) {
        if (file->database != NULL && file->database->wal == file) file->database->wal = NULL;
    } else if (file->name != NULL) {
        if (file->wal != NULL) file->wal->database = NULL;
        if (file->previous != NULL) file->previous->next = file->next; else if (databases == file) databases = file->next;
        if (file->next != NULL) file->next->previous = file->previous;
    }
    pthread_mutex_unlock(&databases_lock);
    free(file->gathered);
    file->gathered = NULL;
    int closed = file->real->pMethods->xClose(file->real);
    return code != SQLITE_OK ? code : closed;
}

static int walbatch_read(sqlite3_file *base, void *bytes, int amount, sqlite3_int64 offset) {
    WalBatchFile *file = (WalBatchFile *)base;
    // why a flush only when the read meets what is gathered: reading the log back happens when a
    // checkpoint copies it and when a transaction re-reads a page it spilled.
    if (file->length > 0 && offset < file->start + file->length && offset + amount > file->start) {
        int code = flush(file);
        if (code != SQLITE_OK) return code;
    }
    return file->real->pMethods->xRead(file->real, bytes, amount, offset);
}

static int walbatch_write(sqlite3_file *base, const void *bytes, int amount, sqlite3_int64 offset) {
    WalBatchFile *file = (WalBatchFile *)base;
    if (file->isWal) {
        file->asked += 1;
        return gather(file, bytes, amount, offset);
    }
    return file->real->pMethods->xWrite(file->real, bytes, amount, offset);
}

static int walbatch_truncate(sqlite3_file *base, sqlite3_int64 size) {
    WalBatchFile *file = (WalBatchFile *)base;
    int code = flush(file);
    if (code != SQLITE_OK) return code;
    return file->real->pMethods->xTruncate(file->real, size);
}

static int walbatch_sync(sqlite3_file *base, int flags) {
    WalBatchFile *file = (WalBatchFile *)base;
    int code = flush(file);
    // why: one large transaction (a migration) should not leave its megabytes with the connection.
    if (file->capacity > 1024 * 1024) {
        free(file->gathered);
        file->gathered = NULL;
        file->capacity = 0;
    }
    if (code != SQLITE_OK) return code;
    return file->real->pMethods->xSync(file->real, flags);
}

static int walbatch_file_size(sqlite3_file *base, sqlite3_int64 *size) {
    WalBatchFile *file = (WalBatchFile *)base;
    int code = file->real->pMethods->xFileSize(file->real, size);
    // What is gathered counts as written, as it would be without this VFS.
    if (code == SQLITE_OK && file->length > 0 && file->start + file->length > *size) *size = file->start + file->length;
    return code;
}

static int walbatch_lock(sqlite3_file *base, int level) {
    WalBatchFile *file = (WalBatchFile *)base;
    return file->real->pMethods->xLock(file->real, level);
}

static int walbatch_unlock(sqlite3_file *base, int level) {
    WalBatchFile *file = (WalBatchFile *)base;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int walbatch_check_reserved_lock(sqlite3_file *base, int *out) {
    WalBatchFile *file = (WalBatchFile *)base;
    return file->real->pMethods->xCheckReservedLock(file->real, out);
}

static int walbatch_file_control(sqlite3_file *base, int operation, void *argument) {
    WalBatchFile *file = (WalBatchFile *)base;
    // why no flush: no file control reads the log's bytes, and SQLite ignores the answer of some
    // (sqlite3OsFileControlHint), so a write failing here would go unreported.
    return file->real->pMethods->xFileControl(file->real, operation, argument);
}

static int walbatch_sector_size(sqlite3_file *base) {
    WalBatchFile *file = (WalBatchFile *)base;
    return file->real->pMethods->xSectorSize(file->real);
}

static int walbatch_device_characteristics(sqlite3_file *base) {
    WalBatchFile *file = (WalBatchFile *)base;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int walbatch_shm_map(sqlite3_file *base, int region, int size, int extend, void volatile **out) {
    WalBatchFile *file = (WalBatchFile *)base;
    if (file->real->pMethods->iVersion < 2) return SQLITE_IOERR;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, out);
}

static int walbatch_shm_lock(sqlite3_file *base, int offset, int count, int flags) {
    WalBatchFile *file = (WalBatchFile *)base;
    if (file->real->pMethods->iVersion < 2) return SQLITE_IOERR;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

// The barrier before the WAL index's header is published (and on other WAL index reads and
// writes): what this connection gathered for its log is written out first, so no connection can
// be told of frames still here. With synchronous = FULL the sync before it already did; below
// FULL this is the write. why abort when that write fails: the header goes out after this call
// whatever it answers (it returns nothing), and readers would read frames the file lacks; a
// process that stops leaves a log that recovery cuts at its last whole commit.
static void walbatch_shm_barrier(sqlite3_file *base) {
    WalBatchFile *file = (WalBatchFile *)base;
    WalBatchFile *wal = file->wal;
    if (wal != NULL && wal->length > 0 && flush(wal) != SQLITE_OK) {
        fprintf(stderr, "tresor: writing the SQLite write-ahead log failed; stopping before readers see it\n");
        abort();
    }
    if (file->real->pMethods->iVersion >= 2) file->real->pMethods->xShmBarrier(file->real);
}

static int walbatch_shm_unmap(sqlite3_file *base, int deleteFlag) {
    WalBatchFile *file = (WalBatchFile *)base;
    if (file->real->pMethods->iVersion < 2) return SQLITE_OK;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

static int walbatch_fetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **out) {
    WalBatchFile *file = (WalBatchFile *)base;
    if (file->real->pMethods->iVersion < 3) {
        *out = NULL;
        return SQLITE_OK;
    }
    return file->real->pMethods->xFetch(file->real, offset, amount, out);
}

static int walbatch_unfetch(sqlite3_file *base, sqlite3_int64 offset, void *pointer) {
    WalBatchFile *file = (WalBatchFile *)base;
    if (file->real->pMethods->iVersion < 3) return SQLITE_OK;
    return file->real->pMethods->xUnfetch(file->real, offset, pointer);
}

static sqlite3_io_methods walbatch_methods = {
    3,
    walbatch_close,
    walbatch_read,
    walbatch_write,
    walbatch_truncate,
    walbatch_sync,
    walbatch_file_size,
    walbatch_lock,
    walbatch_unlock,
    walbatch_check_reserved_lock,
    walbatch_file_control,
    walbatch_sector_size,
    walbatch_device_characteristics,
    walbatch_shm_map,
    walbatch_shm_lock,
    walbatch_shm_barrier,
    walbatch_shm_unmap,
    walbatch_fetch,
    walbatch_unfetch,
};

static int walbatch_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *base, int flags, int *outFlags) {
    (void)vfs;
    WalBatchFile *file = (WalBatchFile *)base;
    memset(file, 0, sizeof(WalBatchFile));
    file->real = (sqlite3_file *)((char *)file + sizeof(WalBatchFile));
    int code = underlying->xOpen(underlying, name, file->real, flags, outFlags);
    if (code != SQLITE_OK || file->real->pMethods == NULL) {
        // SQLite calls no method of a file whose open failed (pMethods NULL); the unix VFS's own
        // object needs no closing then either.
        file->base.pMethods = NULL;
        return code != SQLITE_OK ? code : SQLITE_CANTOPEN;
    }
    file->base.pMethods = &walbatch_methods;
    pthread_mutex_lock(&databases_lock);
    if ((flags & SQLITE_OPEN_MAIN_DB) && name != NULL) {
        file->name = name;
        file->next = databases;
        if (databases != NULL) databases->previous = file;
        databases = file;
    } else if ((flags & SQLITE_OPEN_WAL) && name != NULL) {
        // The log's database file is the one SQLite opened under the same name pointer: each
        // connection has its own (sqlite3_filename_database, meant for a VFS, gives it back).
        // why gathered only when found: below FULL the barrier on that file is what writes the
        // frames out before readers are told of them; a log without it is passed straight through.
        const char *database = sqlite3_filename_database(name);
        for (WalBatchFile *candidate = databases; candidate != NULL; candidate = candidate->next) {
            if (candidate->name == database) {
                candidate->wal = file;
                file->database = candidate;
                file->isWal = 1;
                break;
            }
        }
    }
    pthread_mutex_unlock(&databases_lock);
    return SQLITE_OK;
}

static int walbatch_delete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    return underlying->xDelete(underlying, name, syncDir);
}

static int walbatch_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return underlying->xAccess(underlying, name, flags, out);
}

static int walbatch_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return underlying->xFullPathname(underlying, name, size, out);
}

static void *walbatch_dl_open(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return underlying->xDlOpen(underlying, name);
}

static void walbatch_dl_error(sqlite3_vfs *vfs, int size, char *message) {
    (void)vfs;
    underlying->xDlError(underlying, size, message);
}

static void (*walbatch_dl_sym(sqlite3_vfs *vfs, void *library, const char *symbol))(void) {
    (void)vfs;
    return underlying->xDlSym(underlying, library, symbol);
}

static void walbatch_dl_close(sqlite3_vfs *vfs, void *library) {
    (void)vfs;
    underlying->xDlClose(underlying, library);
}

static int walbatch_randomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return underlying->xRandomness(underlying, size, out);
}

static int walbatch_sleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return underlying->xSleep(underlying, microseconds);
}

static int walbatch_current_time(sqlite3_vfs *vfs, double *out) {
    (void)vfs;
    return underlying->xCurrentTime(underlying, out);
}

static int walbatch_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return underlying->xGetLastError(underlying, size, out);
}

static int walbatch_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return underlying->xCurrentTimeInt64(underlying, out);
}

static int walbatch_set_system_call(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr call) {
    (void)vfs;
    return underlying->xSetSystemCall(underlying, name, call);
}

static sqlite3_syscall_ptr walbatch_get_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return underlying->xGetSystemCall(underlying, name);
}

static const char *walbatch_next_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return underlying->xNextSystemCall(underlying, name);
}

int csqlite_walbatch_register(void) {
    underlying = sqlite3_vfs_find(NULL);
    // Only over the unix VFS of version 3 (Linux, macOS): another default is left alone.
    if (underlying == NULL || underlying->iVersion < 3 || strncmp(underlying->zName, "unix", 4) != 0) return SQLITE_ERROR;
    walbatch_vfs = (sqlite3_vfs){
        .iVersion = 3,
        .szOsFile = (int)sizeof(WalBatchFile) + underlying->szOsFile,
        .mxPathname = underlying->mxPathname,
        .zName = "tresor-walbatch",
        .xOpen = walbatch_open,
        .xDelete = walbatch_delete,
        .xAccess = walbatch_access,
        .xFullPathname = walbatch_full_pathname,
        .xDlOpen = walbatch_dl_open,
        .xDlError = walbatch_dl_error,
        .xDlSym = walbatch_dl_sym,
        .xDlClose = walbatch_dl_close,
        .xRandomness = walbatch_randomness,
        .xSleep = walbatch_sleep,
        .xCurrentTime = walbatch_current_time,
        .xGetLastError = walbatch_get_last_error,
        .xCurrentTimeInt64 = walbatch_current_time_int64,
        .xSetSystemCall = walbatch_set_system_call,
        .xGetSystemCall = walbatch_get_system_call,
        .xNextSystemCall = walbatch_next_system_call,
    };
    register_result = sqlite3_vfs_register(&walbatch_vfs, 1);
    return register_result;
}

int csqlite_walbatch_result(void) { return register_result; }

int csqlite_walbatch_log(void *db, long long *asked, long long *written, long long *pending) {
    sqlite3_file *file = NULL;
    if (sqlite3_file_control((sqlite3 *)db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file) != SQLITE_OK || file == NULL) return 1;
    if (file->pMethods != &walbatch_methods || !((WalBatchFile *)file)->isWal) return 1;
    WalBatchFile *log = (WalBatchFile *)file;
    *asked = log->asked;
    *written = log->written;
    *pending = log->length;
    return 0;
}
