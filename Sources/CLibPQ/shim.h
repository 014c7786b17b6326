// Debian's libpq-dev puts the header under /usr/include/postgresql (pkg-config libpq adds it).
#include <libpq-fe.h>
#include <postgres_ext.h>

// The PG_DIAG_* field codes are character-literal macros, which Swift does not import.
static const int clibpq_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int clibpq_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int clibpq_diag_message_detail = PG_DIAG_MESSAGE_DETAIL;
static const int clibpq_diag_message_hint = PG_DIAG_MESSAGE_HINT;
static const int clibpq_diag_schema_name = PG_DIAG_SCHEMA_NAME;
static const int clibpq_diag_table_name = PG_DIAG_TABLE_NAME;
static const int clibpq_diag_column_name = PG_DIAG_COLUMN_NAME;
static const int clibpq_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;
