#include <sqlite3.h>

// sqlite3_db_config is variadic, which Swift cannot call: this fixes the form of the options
// that take an int and an int pointer.
static inline int routine_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *applied) {
    return sqlite3_db_config(db, op, value, applied);
}
