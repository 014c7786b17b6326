// The session extension is declared only with these defined; Debian's library exports it.
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic, which Swift cannot call. Memory statistics off: with them on,
// every allocation of every connection takes one process-wide mutex, which two threads
// working on separate connections then fight over.
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
