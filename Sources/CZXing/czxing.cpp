#include "czxing.h"

#include <cstdlib>
#include <cstring>
#include <exception>

#include <ZXing/ReadBarcode.h>

extern "C" int czxing_read_qr(const uint8_t *gray, int width, int height, int stride, uint8_t **contents, size_t *lengths, int max) {
    // why a catch-all: no C++ exception may cross into Swift; an image ZXing cannot handle has no code.
    try {
        ZXing::ImageView image(gray, width, height, ZXing::ImageFormat::Lum, stride);
        ZXing::DecodeHints hints;
        hints.setFormats(ZXing::BarcodeFormat::QRCode);
        hints.setTryHarder(true);
        hints.setTryRotate(true);
        hints.setTryDownscale(true);
        ZXing::Results results;
        // why every other pixel first on a large photo: a bill that fills a 12-megapixel frame
        // has modules of 15 px and more, and ZXing's binarizer costs by the pixel (it was two
        // thirds of such a scan); a view with twice the strides copies nothing. A code too
        // small for it (a QR-bill on a whole A4 page) is then looked for at full size.
        if (static_cast<long>(width) * height > 4000000L) {
            ZXing::ImageView half(gray, width / 2, height / 2, ZXing::ImageFormat::Lum, stride * 2, 2);
            results = ZXing::ReadBarcodes(half, hints);
        }
        bool anyValid = false;
        for (const auto &result : results) anyValid = anyValid || result.isValid();
        if (!anyValid) results = ZXing::ReadBarcodes(image, hints);
        int found = 0;
        for (const auto &result : results) {
            if (found >= max) break;
            if (!result.isValid()) continue;
            // why the raw bytes: a QR-bill is UTF-8 by its standard; no character-set guessing.
            const auto &bytes = result.bytes();
            auto *copy = static_cast<uint8_t *>(std::malloc(bytes.size() + 1));
            if (copy == nullptr) break;
            if (!bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
            contents[found] = copy;
            lengths[found] = bytes.size();
            found += 1;
        }
        return found;
    } catch (...) {
        return 0;
    }
}

extern "C" void czxing_free(uint8_t *content) { std::free(content); }
