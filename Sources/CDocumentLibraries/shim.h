// The C libraries behind TresorDocuments: cairo draws PDF pages and PNG images, Pango sets text
// on them (shaping, bidirectional text, line breaks, embedded fonts, so PDF text can be copied and
// searched), librsvg draws a bank's SVG logo. Installed by scripts/install-deps.sh
// (libpango1.0-dev, libcairo2-dev, librsvg2-dev); header paths come from pkg-config "pangocairo".
// libqrencode (libqrencode-dev) makes the QR codes a station shows and a certificate carries.
#include <cairo.h>
#include <qrencode.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>

// librsvg: its header pulls in gdk-pixbuf, whose include path pkg-config "pangocairo" does not give,
// so the three calls used are declared here, exactly as librsvg 2.52+ exports them.
typedef struct _RsvgHandle RsvgHandle;
typedef struct {
    double x;
    double y;
    double width;
    double height;
} RsvgRectangle;
RsvgHandle *rsvg_handle_new_from_data(const guint8 *data, gsize data_len, GError **error);
gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);
gboolean rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, gdouble *out_width, gdouble *out_height);
