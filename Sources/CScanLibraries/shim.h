// The C libraries behind TresorScan: Leptonica decodes and prepares images, zbar reads QR codes,
// Tesseract 5 reads text, libheif decodes HEIC photos. Installed by scripts/install-deps.sh
// (libzbar-dev, libtesseract-dev, libheif-dev).
#include <leptonica/allheaders.h>
#include <zbar.h>
#include <tesseract/capi.h>
#include <libheif/heif.h>
