#ifndef FXBATCH_CLZMA_SHIM_H
#define FXBATCH_CLZMA_SHIM_H
// liblzma from XZ Utils (Debian's liblzma-dev): `.xz` input read as a stream, and output named `.xz` written.
#include <lzma.h>

/// LZMA_CONCATENATED (a macro Swift imports with the wrong type): the decoder reads one `.xz` stream after
/// another, as `xz -d` does.
static inline uint32_t fxbatch_lzma_concatenated(void) { return LZMA_CONCATENATED; }

#endif
