// Only the reentrant API: every call takes the worker's own context.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
