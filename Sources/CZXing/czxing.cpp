#include "czxing.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include <ZXing/ReadBarcode.h>

#include "BentQR.hpp"

namespace {

/// Each code's raw bytes, malloc'd for the caller (a QR-bill is UTF-8 by its standard; no
/// character-set guessing).
int handOver(const std::vector<std::vector<uint8_t>> &codes, uint8_t **contents, size_t *lengths, int max) {
    int found = 0;
    for (const auto &bytes : codes) {
        if (found >= max) break;
        auto *copy = static_cast<uint8_t *>(std::malloc(bytes.size() + 1));
        if (copy == nullptr) break;
        if (!bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
        contents[found] = copy;
        lengths[found] = bytes.size();
        found += 1;
    }
    return found;
}

std::vector<std::vector<uint8_t>> readByZXing(const uint8_t *gray, int width, int height, int stride) {
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
    std::vector<std::vector<uint8_t>> codes;
    for (const auto &result : results)
        if (result.isValid()) codes.emplace_back(result.bytes().begin(), result.bytes().end());
    return codes;
}

}  // namespace

extern "C" int czxing_read_qr(const uint8_t *gray, int width, int height, int stride, uint8_t **contents, size_t *lengths, int max, int readers) {
    // why a catch-all: no C++ exception may cross into Swift; an image ZXing cannot handle has no code.
    try {
        std::vector<std::vector<uint8_t>> codes;
        if ((readers & CZXING_READER_ZXING) != 0) codes = readByZXing(gray, width, height, stride);
        if (codes.empty() && (readers & CZXING_READER_BENT) != 0) {
            // why every other pixel on a large photo: a bill bent enough to need this fills much
            // of the frame, and the reader's cost grows with the pixels.
            bool large = static_cast<long>(width) * height > 4000000L;
            codes = large ? tresor::ReadBentQR(gray, width / 2, height / 2, stride * 2, 2) : tresor::ReadBentQR(gray, width, height, stride, 1);
        }
        return handOver(codes, contents, lengths, max);
    } catch (...) {
        return 0;
    }
}

extern "C" void czxing_free(uint8_t *content) { std::free(content); }
