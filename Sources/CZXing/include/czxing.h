// The C face of ZXing-C++ (Debian's libzxing-dev, the decoder of many banking and retail
// scanners) for TresorScan: QR codes in an 8-bit greyscale image.
#ifndef CZXING_H
#define CZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The readers czxing_read_qr may use: ZXing's own, then (when it found nothing) the reader of
/// bent codes (BentQR.cpp). Production asks for both; a test asks for one to show what each reads.
enum { CZXING_READER_ZXING = 1, CZXING_READER_BENT = 2, CZXING_READERS_ALL = 3 };

/// Reads the QR codes in `gray` (width × height bytes, `stride` bytes per row), trying harder,
/// turned and downscaled as ZXing does, then as a bent code. Writes up to `max` results (each the
/// code's raw bytes, malloc'd, with its length) and returns how many it found.
int czxing_read_qr(const uint8_t *gray, int width, int height, int stride, uint8_t **contents, size_t *lengths, int max, int readers);

/// Frees a result of czxing_read_qr.
void czxing_free(uint8_t *content);

#ifdef __cplusplus
}
#endif

#endif
