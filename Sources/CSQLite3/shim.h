#ifndef FXBATCH_CSQLITE3_SHIM_H
#define FXBATCH_CSQLITE3_SHIM_H
#include <sqlite3.h>
#endif
