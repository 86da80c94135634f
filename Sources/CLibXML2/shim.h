#ifndef FXBATCH_CLIBXML2_SHIM_H
#define FXBATCH_CLIBXML2_SHIM_H

// Debian builds libxml2 with ICU support; its headers then include ICU's, which clash with the ICU the
// Swift toolchain ships. xmlversion.h defines LIBXML_ICU_ENABLED, so undefine it before anything else.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlerror.h>

#endif
