// Poppler's GLib face draws a PDF's pages with cairo, for reading a QR-bill sent as a PDF
// invoice. Installed by scripts/install-deps.sh (libpoppler-glib-dev).
#include <poppler.h>
#include <cairo.h>
