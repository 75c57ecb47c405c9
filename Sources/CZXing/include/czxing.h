// The C face of ZXing-C++ (Debian's libzxing-dev, the decoder of many banking and retail
// scanners) for TresorScan: QR codes in an 8-bit greyscale image.
#ifndef CZXING_H
#define CZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the QR codes in `gray` (width × height bytes, `stride` bytes per row), trying harder,
/// turned and downscaled as ZXing does. Writes up to `max` results (each the code's raw bytes,
/// malloc'd, with its length) and returns how many it found.
int czxing_read_qr(const uint8_t *gray, int width, int height, int stride, uint8_t **contents, size_t *lengths, int max);

/// Frees a result of czxing_read_qr.
void czxing_free(uint8_t *content);

#ifdef __cplusplus
}
#endif

#endif
