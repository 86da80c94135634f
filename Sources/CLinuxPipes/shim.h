#ifndef FXBATCH_CLINUXPIPES_SHIM_H
#define FXBATCH_CLINUXPIPES_SHIM_H
// Linux's tee(2), which glibc declares only under _GNU_SOURCE (so Swift's Glibc module leaves it out): it copies
// the bytes waiting in one pipe into another without taking them, so that the first bytes of standard input can
// be looked at (is it compressed?) and still be read by the reader that converts it in one pass.
#include <sys/types.h>

ssize_t tee(int fd_in, int fd_out, size_t len, unsigned int flags);

/// tee(2) with no flags: waits for bytes in `input` (a pipe), copies up to `count` of them into `output` (a
/// pipe) and leaves them in `input`; 0 when `input` is empty and has no writer left.
static inline ssize_t fxbatch_tee(int input, int output, size_t count) { return tee(input, output, count, 0); }

#endif
