#ifndef FXBATCH_CZIP_SHIM_H
#define FXBATCH_CZIP_SHIM_H
#include <zip.h>
// zlib, which libzip deflates with: fxbatch deflates a converted sheet itself as it is written (ZipDeflater).
#include <zlib.h>

// The command bitmaps a zip_source_function callback answers ZIP_SOURCE_SUPPORTS with. libzip builds them with
// a function-like macro (and zip_source_make_command_bitmap is variadic), neither of which Swift can call.

/// A source that can be opened, read and stat'ed: an entry's data as it comes (a converted sheet being deflated).
static inline zip_int64_t fxbatch_zip_source_supports_readable(void) { return ZIP_SOURCE_SUPPORTS_READABLE; }

/// A source that can be opened, read, sought and told, and stat'ed: an archive read from a file.
static inline zip_int64_t fxbatch_zip_source_supports_seekable(void) { return ZIP_SOURCE_SUPPORTS_SEEKABLE; }

/// A seekable source that can also be written: an archive read from one file and written to another.
static inline zip_int64_t fxbatch_zip_source_supports_writable(void) { return ZIP_SOURCE_SUPPORTS_WRITABLE; }

#endif
