#ifndef FXBATCH_CZSTD_SHIM_H
#define FXBATCH_CZSTD_SHIM_H
// Zstandard (Debian's libzstd-dev): `.zst` input read as a stream, and output named `.zst` written.
#include <zstd.h>
// Its error codes, to tell data that is no zstd frame and a frame asking too much memory from other damage.
#include <zstd_errors.h>
#endif
