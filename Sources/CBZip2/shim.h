#ifndef FXBATCH_CBZIP2_SHIM_H
#define FXBATCH_CBZIP2_SHIM_H
// libbzip2 (Debian's libbz2-dev): `.bz2` input read as a stream, and output named `.bz2` written.
#include <bzlib.h>
#endif
