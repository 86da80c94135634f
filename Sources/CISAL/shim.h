#ifndef FXBATCH_CISAL_SHIM_H
#define FXBATCH_CISAL_SHIM_H
// Intel's ISA-L (Debian's libisal-dev): its deflate, several times faster than zlib's at the same ratio, for
// the sheets fxbatch writes into workbooks (ZipDeflater); its inflate, about six times faster than zlib's, for
// the entries fxbatch reads (ZipEntryStream); and its CRC-32 (zlib's polynomial and conventions, with PCLMUL).
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

/// The size ISA-L suggests for level 1's buffer (ISAL_DEF_LVL1_DEFAULT, a macro of arithmetic Swift cannot
/// import).
static inline unsigned int fxbatch_isal_level1_buffer_size(void) { return ISAL_DEF_LVL1_DEFAULT; }

#endif
