#pragma once

#include <cstdint>
#include <vector>

namespace tresor {

/// The contents of a QR code on paper that is not flat (a bill out of a pocket), which ZXing-C++
/// 1.4 does not find: its alignment patterns are each looked for where their neighbours say, the
/// module grid is fitted to the image patch by patch, and the modules read are decoded by ZXing.
/// Empty when no code is read. `pixelStride` 2 reads every other pixel (a large photo).
std::vector<std::vector<uint8_t>> ReadBentQR(const uint8_t *gray, int width, int height, int stride, int pixelStride);

}  // namespace tresor
