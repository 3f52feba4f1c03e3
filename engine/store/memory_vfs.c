/* SQLite's operating-system layer for the engine (sqlite.org/vfs.html). Every database
** the engine opens is ":memory:" (engine/store/database.cpp) and temporary tables stay
** in memory (SQLITE_TEMP_STORE=3), so SQLite is built with SQLITE_OS_OTHER=1 — without
** its unix (or Windows) layer — and runs on this one, natively and in WASM alike. It
** opens no file, and has no clock and no entropy: the engine's rule is no wall clock,
** and nothing SQLite does for the engine's SQL draws on either. */
#include <sqlite3.h>
#include <string.h>

/* Nothing is ever a file: any attempt to open one fails with SQLITE_CANTOPEN. */
static int vfs_open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags,
                    int* out_flags) {
  (void)vfs, (void)name, (void)flags, (void)out_flags;
  file->pMethods = 0;
  return SQLITE_CANTOPEN;
}

static int vfs_delete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
  (void)vfs, (void)name, (void)sync_dir;
  return SQLITE_IOERR_DELETE;
}

/* No file exists. */
static int vfs_access(sqlite3_vfs* vfs, const char* name, int flags, int* result) {
  (void)vfs, (void)name, (void)flags;
  *result = 0;
  return SQLITE_OK;
}

static int vfs_full_pathname(sqlite3_vfs* vfs, const char* name, int size, char* out) {
  (void)vfs;
  sqlite3_snprintf(size, out, "%s", name);
  return SQLITE_OK;
}

/* SQLite seeds its pseudo-random generator from this: the same seed in every run. */
static int vfs_randomness(sqlite3_vfs* vfs, int size, char* out) {
  (void)vfs;
  memset(out, 0, (size_t)size);
  return size;
}

static int vfs_sleep(sqlite3_vfs* vfs, int microseconds) {
  (void)vfs;
  return microseconds;
}

/* Time stands still at the Unix epoch (2440587.5 as a Julian day number). SQLite has no
** floating point here (SQLITE_OMIT_FLOATING_POINT, CMakeLists.txt), so sqlite3.h types this
** day number as an integer (it always asks vfs_current_time_ms below, iVersion 2). */
#ifdef SQLITE_OMIT_FLOATING_POINT
typedef sqlite3_int64 julian_day;
#else
typedef double julian_day;
#endif
static int vfs_current_time(sqlite3_vfs* vfs, julian_day* now) {
  (void)vfs;
  *now = (julian_day)2440587.5;
  return SQLITE_OK;
}

static int vfs_current_time_ms(sqlite3_vfs* vfs, sqlite3_int64* now) {
  (void)vfs;
  *now = (sqlite3_int64)210866760000000;
  return SQLITE_OK;
}

static int vfs_last_error(sqlite3_vfs* vfs, int size, char* out) {
  (void)vfs, (void)size, (void)out;
  return 0;
}

static sqlite3_vfs memory_vfs = {
    2,                     /* iVersion: up to xCurrentTimeInt64 */
    sizeof(sqlite3_file),  /* szOsFile */
    512,                   /* mxPathname */
    0,                     /* pNext */
    "idemlab-memory",      /* zName */
    0,                     /* pAppData */
    vfs_open,
    vfs_delete,
    vfs_access,
    vfs_full_pathname,
    0, 0, 0, 0, /* xDlOpen, xDlError, xDlSym, xDlClose: no extension loading */
    vfs_randomness,
    vfs_sleep,
    vfs_current_time,
    vfs_last_error,
    vfs_current_time_ms,
    0, 0, 0, /* version 3's system-call overrides */
};

/* Called by sqlite3_initialize() (sqlite.org/c3ref/initialize.html) when it is built
** with SQLITE_OS_OTHER=1: registers the memory VFS as the default. Returns SQLITE_OK, or
** SQLite's error code. */
int sqlite3_os_init(void) { return sqlite3_vfs_register(&memory_vfs, 1); }

/* Called by sqlite3_shutdown(): nothing to release. */
int sqlite3_os_end(void) { return SQLITE_OK; }
