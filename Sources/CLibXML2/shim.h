// libxml2 (Debian's libxml2-dev): its pull reader validates an ISO 20022 file against its XSD
// while the file streams through, so a clearing file of any size is read in constant memory.
#include <libxml/xmlversion.h>
// why: with ICU on, libxml2's headers bring the system's ICU, whose enums clash with the ICU
// Foundation carries; nothing here uses libxml2's ICU converters.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlerror.h>

/// xmlFree is a global function pointer, which Swift 6 cannot read from any thread.
static inline void tresor_xml_free(void *pointer) { xmlFree(pointer); }
