#include "BentQR.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include <ZXing/ReadBarcode.h>

// Why this exists: ZXing-C++ 1.4 (Debian's) samples a QR code through one perspective transform
// from its three finders and one alignment pattern. A bent bill moves the middle of the code by
// more than half a module from where that transform puts it, and ZXing then reports no code at
// all. Here every alignment pattern is looked for near where its found neighbours say it is, the
// grid between them is interpolated, then moved patch by patch to where its module centres are
// farthest from a dark/light edge; the modules read are drawn again as a flat, clean symbol that
// ZXing decodes (format, version, masking and error correction stay ZXing's).
//
// Coordinates are pixel centres: the point (3.0, 4.0) is the middle of pixel (3, 4).
namespace tresor {
namespace {

struct Point {
    double x = 0, y = 0;
};
Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }
Point operator*(Point a, double s) { return {a.x * s, a.y * s}; }
double length(Point a) { return std::hypot(a.x, a.y); }
double cross(Point a, Point b) { return a.x * b.y - a.y * b.x; }

/// Each pixel against the mean of the pixels around it (shading and creases move that mean with
/// them): `ink` is the pixel minus 90 % of the mean, below zero where the paper is printed;
/// `edge` is the pixel minus the mean, near zero between a dark and a light module.
struct Measured {
    int width = 0, height = 0;
    std::vector<int16_t> ink, edge;

    size_t index(int x, int y) const { return static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x); }
    bool darkAt(int x, int y) const { return ink[index(x, y)] < 0; }
    bool dark(Point p) const {
        if (p.x < -0.5 || p.y < -0.5) return false;
        auto x = static_cast<int>(p.x + 0.5), y = static_cast<int>(p.y + 0.5);
        return x < width && y < height && darkAt(x, y);
    }
    /// Bilinear between the four pixels around a point; zero outside the image.
    double interpolated(const std::vector<int16_t> &values, Point p) const {
        if (p.x < 0 || p.y < 0) return 0;
        auto x = static_cast<int>(p.x), y = static_cast<int>(p.y);
        if (x + 1 >= width || y + 1 >= height) return 0;
        double fx = p.x - x, fy = p.y - y;
        size_t k = index(x, y);
        double top = values[k] * (1 - fx) + values[k + 1] * fx;
        double bottom = values[k + static_cast<size_t>(width)] * (1 - fx) + values[k + static_cast<size_t>(width) + 1] * fx;
        return top * (1 - fy) + bottom * fy;
    }
};

Measured measure(const uint8_t *gray, int width, int height, int stride, int pixelStride) {
    Measured out;
    out.width = width;
    out.height = height;
    auto pixels = static_cast<size_t>(width) * static_cast<size_t>(height);
    out.ink.assign(pixels, 0);
    out.edge.assign(pixels, 0);
    const auto row = static_cast<size_t>(width) + 1;
    std::vector<uint32_t> integral(row * (static_cast<size_t>(height) + 1), 0);
    for (int y = 0; y < height; ++y) {
        uint32_t sum = 0;
        const uint8_t *line = gray + static_cast<ptrdiff_t>(y) * stride;
        for (int x = 0; x < width; ++x) {
            sum += line[static_cast<ptrdiff_t>(x) * pixelStride];
            integral[(static_cast<size_t>(y) + 1) * row + static_cast<size_t>(x) + 1] = integral[static_cast<size_t>(y) * row + static_cast<size_t>(x) + 1] + sum;
        }
    }
    // why this radius: a few modules of a code that fills a tenth of the photo or more.
    const int radius = std::max(8, std::min(width, height) / 48);
    for (int y = 0; y < height; ++y) {
        auto y0 = static_cast<size_t>(std::max(0, y - radius)), y1 = static_cast<size_t>(std::min(height, y + radius + 1));
        const uint8_t *line = gray + static_cast<ptrdiff_t>(y) * stride;
        for (int x = 0; x < width; ++x) {
            auto x0 = static_cast<size_t>(std::max(0, x - radius)), x1 = static_cast<size_t>(std::min(width, x + radius + 1));
            uint64_t sum = static_cast<uint64_t>(integral[y1 * row + x1]) + integral[y0 * row + x0] - integral[y0 * row + x1] - integral[y1 * row + x0];
            uint64_t count = (x1 - x0) * (y1 - y0);
            auto value = static_cast<int>(line[static_cast<ptrdiff_t>(x) * pixelStride]);
            auto mean = static_cast<int>(sum / count);
            out.ink[out.index(x, y)] = static_cast<int16_t>(value - static_cast<int>(sum * 9 / (count * 10)));
            out.edge[out.index(x, y)] = static_cast<int16_t>(value - mean);
        }
    }
    return out;
}

/// Runs of 1:1:3:1:1 (dark, light, dark, light, dark) as a line crosses a finder pattern.
bool finderRatios(const int runs[5]) {
    int total = runs[0] + runs[1] + runs[2] + runs[3] + runs[4];
    if (total < 7) return false;
    double module = total / 7.0, slack = module * 0.6;
    return std::abs(module - runs[0]) < slack && std::abs(module - runs[1]) < slack && std::abs(3 * module - runs[2]) < 3 * slack &&
           std::abs(module - runs[3]) < slack && std::abs(module - runs[4]) < slack;
}

/// From a dark pixel, both ways along (dx, dy) over the five runs of a finder pattern: the centre
/// of its middle run and the pattern's length, or false when the runs are not those of a finder.
bool crossCheck(const Measured &image, int x, int y, int dx, int dy, int maxRun, Point &centre, int &total) {
    auto inside = [&](int px, int py) { return px >= 0 && py >= 0 && px < image.width && py < image.height; };
    const bool colours[3] = {true, false, true};
    int back[3] = {0, 0, 0}, ahead[3] = {0, 0, 0};
    int px = x, py = y;
    for (int k = 0; k < 3; ++k) {
        while (inside(px, py) && image.darkAt(px, py) == colours[k] && back[k] <= maxRun) {
            back[k] += 1;
            px -= dx;
            py -= dy;
        }
        if (back[k] == 0 || back[k] > maxRun) return false;
    }
    px = x + dx;
    py = y + dy;
    for (int k = 0; k < 3; ++k) {
        while (inside(px, py) && image.darkAt(px, py) == colours[k] && ahead[k] <= maxRun) {
            ahead[k] += 1;
            px += dx;
            py += dy;
        }
        if ((k > 0 && ahead[k] == 0) || ahead[k] > maxRun) return false;
    }
    const int runs[5] = {back[2], back[1], back[0] + ahead[0], ahead[1], ahead[2]};
    if (!finderRatios(runs)) return false;
    double offset = (ahead[0] - back[0] + 1) / 2.0;
    centre = {x + dx * offset, y + dy * offset};
    total = runs[0] + runs[1] + runs[2] + runs[3] + runs[4];
    return true;
}

struct Finder {
    Point centre;
    double module = 0;
    int hits = 0;
};

/// Finder patterns: rows with 1:1:3:1:1 runs, checked down their column and again along the
/// row through the centre found; the hits of one pattern are averaged.
std::vector<Finder> findFinders(const Measured &image) {
    std::vector<Finder> found;
    const int maxRun = std::max(image.width, image.height) / 8;
    std::vector<int> starts;
    for (int y = 0; y < image.height; ++y) {
        starts.clear();
        bool previous = false;
        for (int x = 0; x < image.width; ++x) {
            bool dark = image.darkAt(x, y);
            if (x == 0 || dark != previous) starts.push_back(x);
            previous = dark;
        }
        starts.push_back(image.width);
        for (size_t k = 0; k + 5 < starts.size(); ++k) {
            if (!image.darkAt(starts[k], y)) continue;
            int runs[5];
            for (size_t r = 0; r < 5; ++r) runs[r] = starts[k + r + 1] - starts[k + r];
            if (!finderRatios(runs)) continue;
            int cx = (starts[k + 2] + starts[k + 3] - 1) / 2;
            Point vertical, horizontal;
            int verticalTotal = 0, horizontalTotal = 0;
            if (!crossCheck(image, cx, y, 0, 1, maxRun, vertical, verticalTotal)) continue;
            auto cy = static_cast<int>(std::lround(vertical.y));
            if (!crossCheck(image, cx, cy, 1, 0, maxRun, horizontal, horizontalTotal)) continue;
            Point centre{horizontal.x, vertical.y};
            double module = (verticalTotal + horizontalTotal) / 14.0;
            auto same = std::find_if(found.begin(), found.end(), [&](const Finder &f) { return length(f.centre - centre) < 2 * std::max(module, f.module); });
            if (same == found.end()) {
                found.push_back({centre, module, 1});
                continue;
            }
            double n = same->hits;
            same->centre = (same->centre * n + centre) * (1 / (n + 1));
            same->module = (same->module * n + module) / (n + 1);
            same->hits += 1;
        }
    }
    found.erase(std::remove_if(found.begin(), found.end(), [](const Finder &f) { return f.hits < 3; }), found.end());
    std::sort(found.begin(), found.end(), [](const Finder &a, const Finder &b) { return a.hits > b.hits; });
    if (found.size() > 8) found.resize(8);
    return found;
}

/// Where a symbol of this version has alignment patterns along one axis (ISO/IEC 18004 table E.1,
/// computed as Project Nayuki's QR library does).
std::vector<int> alignmentPositions(int version) {
    if (version == 1) return {};
    int count = version / 7 + 2;
    int step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2;
    std::vector<int> positions(static_cast<size_t>(count));
    positions[0] = 6;
    for (int i = count - 1, position = version * 4 + 10; i >= 1; --i, position -= step) positions[static_cast<size_t>(i)] = position;
    return positions;
}

/// A point whose place is known both in the symbol (in modules) and in the image.
struct Control {
    Point module;
    Point image;
};

/// Where a module coordinate lies by the affine map of the nearest known points not in a line
/// (the bend is smooth, so near points say the most), with the image vectors of one module.
bool predict(const std::vector<Control> &known, Point target, Point &out, Point &unitU, Point &unitV) {
    std::vector<size_t> order(known.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return length(known[a].module - target) < length(known[b].module - target); });
    if (order.size() < 3) return false;
    const Control &origin = known[order[0]];
    for (size_t i = 1; i < order.size(); ++i) {
        for (size_t j = i + 1; j < order.size(); ++j) {
            Point a = known[order[i]].module - origin.module, b = known[order[j]].module - origin.module;
            double determinant = cross(a, b);
            if (std::abs(determinant) < 0.3 * length(a) * length(b)) continue;
            Point ia = known[order[i]].image - origin.image, ib = known[order[j]].image - origin.image;
            unitU = (ia * b.y - ib * a.y) * (1 / determinant);
            unitV = (ib * a.x - ia * b.x) * (1 / determinant);
            Point delta = target - origin.module;
            out = origin.image + unitU * delta.x + unitV * delta.y;
            return true;
        }
    }
    return false;
}

/// The centre of an alignment pattern (dark ring, light ring, dark centre) within `reach`
/// quarter modules of a prediction: the mean of the places where the most of its 25 modules match
/// (at least 22).
bool locateAlignment(const Measured &image, Point predicted, Point unitU, Point unitV, int reach, Point &out) {
    int best = -1, count = 0;
    Point sum;
    for (int sv = -reach; sv <= reach; ++sv) {
        for (int su = -reach; su <= reach; ++su) {
            Point centre = predicted + unitU * (su * 0.25) + unitV * (sv * 0.25);
            int score = 0;
            for (int v = -2; v <= 2; ++v)
                for (int u = -2; u <= 2; ++u) score += image.dark(centre + unitU * u + unitV * v) == (std::max(std::abs(u), std::abs(v)) != 1);
            if (score > best) {
                best = score;
                sum = centre;
                count = 1;
            } else if (score == best) {
                sum = sum + centre;
                count += 1;
            }
        }
    }
    if (best < 22) return false;
    out = sum * (1.0 / count);
    return true;
}

/// The image place of every module centre, interpolated in the cells between alignment patterns.
struct Grid {
    int dimension = 0;
    std::vector<Point> centres;

    Point at(int u, int v) const { return centres[static_cast<size_t>(v) * static_cast<size_t>(dimension) + static_cast<size_t>(u)]; }
};

bool fitGrid(const Measured &image, const Finder &topLeft, const Finder &topRight, const Finder &bottomLeft, int version, Grid &grid) {
    const int dimension = 17 + 4 * version;
    const double far = dimension - 3.5;
    std::vector<Control> known = {{{3.5, 3.5}, topLeft.centre}, {{far, 3.5}, topRight.centre}, {{3.5, far}, bottomLeft.centre}};
    std::vector<double> lines;
    for (int position : alignmentPositions(version)) lines.push_back(position + 0.5);
    if (lines.empty()) lines = {3.5, far};
    const size_t n = lines.size();
    // From the top-left corner outwards, so each pattern is predicted by found neighbours.
    std::vector<std::pair<size_t, size_t>> order;
    for (size_t j = 0; j < n; ++j)
        for (size_t i = 0; i < n; ++i) order.emplace_back(i, j);
    std::stable_sort(order.begin(), order.end(), [](auto a, auto b) { return a.first + a.second < b.first + b.second; });
    std::vector<Point> nodes(n * n);
    std::vector<bool> measured(n * n, false);
    for (auto [i, j] : order) {
        bool finderCorner = (i == 0 && j == 0) || (i == n - 1 && j == 0) || (i == 0 && j == n - 1);
        if (finderCorner || version == 1) continue;
        Point target{lines[i], lines[j]}, predicted, unitU, unitV, found;
        if (!predict(known, target, predicted, unitU, unitV)) return false;
        // why a wider second look: next to the pattern hidden by the Swiss cross, a prediction
        // from farther neighbours can miss a strongly bent corner by more than 2.5 modules.
        if (!locateAlignment(image, predicted, unitU, unitV, 10, found) && !locateAlignment(image, predicted, unitU, unitV, 16, found)) continue;
        known.push_back({target, found});
        nodes[j * n + i] = found;
        measured[j * n + i] = true;
    }
    for (size_t j = 0; j < n; ++j) {
        for (size_t i = 0; i < n; ++i) {
            size_t k = j * n + i;
            if (measured[k]) continue;
            // why the mean of four first: the pattern under the Swiss cross in the middle of a
            // QR-bill is never found, and a smooth bend puts it between its four neighbours.
            if (i > 0 && j > 0 && i + 1 < n && j + 1 < n && measured[k - 1] && measured[k + 1] && measured[k - n] && measured[k + n]) {
                nodes[k] = (nodes[k - 1] + nodes[k + 1] + nodes[k - n] + nodes[k + n]) * 0.25;
                continue;
            }
            Point unitU, unitV;
            if (!predict(known, {lines[i], lines[j]}, nodes[k], unitU, unitV)) return false;
        }
    }
    // Module coordinates outside the outer patterns (the finders' corners) extrapolate the
    // outer cells.
    auto cell = [&](double coordinate, size_t &index, double &fraction) {
        index = 0;
        while (index + 2 < n && coordinate > lines[index + 1]) index += 1;
        fraction = (coordinate - lines[index]) / (lines[index + 1] - lines[index]);
    };
    grid.dimension = dimension;
    grid.centres.resize(static_cast<size_t>(dimension) * static_cast<size_t>(dimension));
    for (int v = 0; v < dimension; ++v) {
        for (int u = 0; u < dimension; ++u) {
            size_t i = 0, j = 0;
            double s = 0, t = 0;
            cell(u + 0.5, i, s);
            cell(v + 0.5, j, t);
            Point top = nodes[j * n + i] * (1 - s) + nodes[j * n + i + 1] * s;
            Point bottom = nodes[(j + 1) * n + i] * (1 - s) + nodes[(j + 1) * n + i + 1] * s;
            grid.centres[static_cast<size_t>(v) * static_cast<size_t>(dimension) + static_cast<size_t>(u)] = top * (1 - t) + bottom * t;
        }
    }
    return true;
}

/// The grid moved, patch by patch, to where its module centres are farthest from a dark/light
/// edge (between two modules of different colour a point is neither). Interpolating between alignment patterns 20 to 28 modules apart misses a bend's middle by
/// up to half a module; a patch of 21 × 21 modules holds enough edges to say which way (by up to
/// 0.45 of a module, so it never slips to the neighbouring module), and the shifts of
/// neighbouring patches are averaged, weighted by how clearly each patch chose.
Grid refined(const Measured &image, const Grid &grid) {
    const int dimension = grid.dimension, step = 6, reach = 10, tries = 3;
    const double tryStep = 0.15;
    const int patches = dimension / step + 1;
    const auto count = static_cast<size_t>(patches) * static_cast<size_t>(patches);
    std::vector<Point> shift(count);
    std::vector<double> weight(count, 0);
    for (int pv = 0; pv < patches; ++pv) {
        for (int pu = 0; pu < patches; ++pu) {
            int cu = std::min(pu * step, dimension - 2), cv = std::min(pv * step, dimension - 2);
            Point unitU = grid.at(cu + 1, cv) - grid.at(cu, cv), unitV = grid.at(cu, cv + 1) - grid.at(cu, cv);
            double best = -1, total = 0;
            Point bestShift;
            for (int ov = -tries; ov <= tries; ++ov) {
                for (int ou = -tries; ou <= tries; ++ou) {
                    Point offset = unitU * (ou * tryStep) + unitV * (ov * tryStep);
                    double score = 0;
                    for (int v = std::max(0, cv - reach); v <= std::min(dimension - 1, cv + reach); ++v)
                        for (int u = std::max(0, cu - reach); u <= std::min(dimension - 1, cu + reach); ++u)
                            score += std::abs(image.interpolated(image.edge, grid.at(u, v) + offset));
                    total += score;
                    if (score > best) {
                        best = score;
                        bestShift = offset;
                    }
                }
            }
            size_t k = static_cast<size_t>(pv) * static_cast<size_t>(patches) + static_cast<size_t>(pu);
            shift[k] = bestShift;
            weight[k] = best - total / ((2 * tries + 1) * (2 * tries + 1));
        }
    }
    std::vector<Point> smooth(count);
    for (int pv = 0; pv < patches; ++pv) {
        for (int pu = 0; pu < patches; ++pu) {
            Point sum;
            double weights = 0;
            for (int dv = -1; dv <= 1; ++dv) {
                for (int du = -1; du <= 1; ++du) {
                    int qu = pu + du, qv = pv + dv;
                    if (qu < 0 || qv < 0 || qu >= patches || qv >= patches) continue;
                    size_t k = static_cast<size_t>(qv) * static_cast<size_t>(patches) + static_cast<size_t>(qu);
                    double w = weight[k] * (du == 0 && dv == 0 ? 2 : 1);
                    sum = sum + shift[k] * w;
                    weights += w;
                }
            }
            smooth[static_cast<size_t>(pv) * static_cast<size_t>(patches) + static_cast<size_t>(pu)] = weights > 0 ? sum * (1 / weights) : Point{};
        }
    }
    auto smoothAt = [&](int u, int v) { return smooth[static_cast<size_t>(v) * static_cast<size_t>(patches) + static_cast<size_t>(u)]; };
    Grid out = grid;
    for (int v = 0; v < dimension; ++v) {
        for (int u = 0; u < dimension; ++u) {
            double fu = std::min(static_cast<double>(patches - 1), static_cast<double>(u) / step);
            double fv = std::min(static_cast<double>(patches - 1), static_cast<double>(v) / step);
            int iu = std::min(patches - 2, static_cast<int>(fu)), iv = std::min(patches - 2, static_cast<int>(fv));
            double s = fu - iu, t = fv - iv;
            Point offset = (smoothAt(iu, iv) * (1 - s) + smoothAt(iu + 1, iv) * s) * (1 - t) + (smoothAt(iu, iv + 1) * (1 - s) + smoothAt(iu + 1, iv + 1) * s) * t;
            out.centres[static_cast<size_t>(v) * static_cast<size_t>(dimension) + static_cast<size_t>(u)] = grid.at(u, v) + offset;
        }
    }
    return out;
}

std::vector<uint8_t> readModules(const Measured &image, const Grid &grid) {
    std::vector<uint8_t> modules(grid.centres.size(), 0);
    for (size_t k = 0; k < modules.size(); ++k) modules[k] = image.interpolated(image.ink, grid.centres[k]) < 0 ? 1 : 0;
    return modules;
}

/// Whether the timing patterns (row and column 6, dark and light in turn) read mostly right: a
/// wrong version guess reads them as noise, and is dropped before the costly fitting.
bool timingAgrees(const std::vector<uint8_t> &modules, int dimension) {
    int wrong = 0, total = 0;
    for (int k = 8; k < dimension - 8; ++k) {
        uint8_t expected = k % 2 == 0 ? 1 : 0;
        wrong += modules[static_cast<size_t>(6 * dimension + k)] != expected;
        wrong += modules[static_cast<size_t>(k * dimension + 6)] != expected;
        total += 2;
    }
    return wrong * 5 < total;
}

/// The modules drawn as a clean symbol (3 pixels a module, a quiet zone of 4) for ZXing to decode.
bool decodeFlat(const std::vector<uint8_t> &modules, int dimension, std::vector<std::vector<uint8_t>> &results) {
    const int scale = 3, quiet = 4, side = (dimension + 2 * quiet) * scale;
    std::vector<uint8_t> pixels(static_cast<size_t>(side) * static_cast<size_t>(side), 255);
    for (int v = 0; v < dimension; ++v)
        for (int u = 0; u < dimension; ++u)
            if (modules[static_cast<size_t>(v * dimension + u)] != 0)
                for (int y = 0; y < scale; ++y) std::fill_n(pixels.begin() + ((v + quiet) * scale + y) * side + (u + quiet) * scale, scale, uint8_t{0});
    ZXing::ImageView view(pixels.data(), side, side, ZXing::ImageFormat::Lum);
    ZXing::DecodeHints hints;
    hints.setFormats(ZXing::BarcodeFormat::QRCode);
    hints.setIsPure(true);
    auto result = ZXing::ReadBarcode(view, hints);
    if (!result.isValid()) return false;
    const auto &bytes = result.bytes();
    results.emplace_back(bytes.begin(), bytes.end());
    return true;
}

}  // namespace

std::vector<std::vector<uint8_t>> ReadBentQR(const uint8_t *gray, int width, int height, int stride, int pixelStride) {
    std::vector<std::vector<uint8_t>> results;
    if (width < 21 || height < 21) return results;
    const Measured image = measure(gray, width, height, stride, pixelStride);
    const auto finders = findFinders(image);
    // Three finders that make a right angle with two sides alike, the most square first.
    struct Triple {
        size_t corner, b, c;
        double score;
    };
    std::vector<Triple> triples;
    for (size_t a = 0; a < finders.size(); ++a) {
        for (size_t b = 0; b < finders.size(); ++b) {
            for (size_t c = b + 1; c < finders.size(); ++c) {
                if (b == a || c == a) continue;
                double ma = finders[a].module, mb = finders[b].module, mc = finders[c].module;
                if (std::max({ma, mb, mc}) > 1.5 * std::min({ma, mb, mc})) continue;
                Point ab = finders[b].centre - finders[a].centre, ac = finders[c].centre - finders[a].centre;
                double ratio = length(ab) / length(ac);
                double cosine = (ab.x * ac.x + ab.y * ac.y) / (length(ab) * length(ac));
                if (ratio < 0.75 || ratio > 1.33 || std::abs(cosine) > 0.4) continue;
                triples.push_back({a, b, c, std::abs(cosine) + std::abs(std::log(ratio))});
            }
        }
    }
    std::sort(triples.begin(), triples.end(), [](const Triple &x, const Triple &y) { return x.score < y.score; });
    if (triples.size() > 3) triples.resize(3);
    for (const auto &triple : triples) {
        const Finder &topLeft = finders[triple.corner];
        Finder topRight = finders[triple.b], bottomLeft = finders[triple.c];
        // Clockwise from the corner in an image whose y grows downwards (a code seen from the front).
        if (cross(topRight.centre - topLeft.centre, bottomLeft.centre - topLeft.centre) < 0) std::swap(topRight, bottomLeft);
        double module = (topLeft.module + topRight.module + bottomLeft.module) / 3;
        double span = (length(topRight.centre - topLeft.centre) + length(bottomLeft.centre - topLeft.centre)) / 2 / module + 7;
        auto estimate = static_cast<int>(std::lround((span - 17) / 4));
        for (int version : {estimate, estimate - 1, estimate + 1}) {
            if (version < 1 || version > 40) continue;
            Grid grid;
            if (!fitGrid(image, topLeft, topRight, bottomLeft, version, grid)) continue;
            auto modules = readModules(image, grid);
            if (!timingAgrees(modules, grid.dimension)) continue;
            if (decodeFlat(modules, grid.dimension, results)) return results;
            // Each fitting starts from the last one's grid, so a bend of a module and more is
            // followed in steps of less than half a module (measured: a bend of 6 px on modules of
            // 5.5 px needs three).
            for (int pass = 0; pass < 3; ++pass) {
                grid = refined(image, grid);
                if (decodeFlat(readModules(image, grid), grid.dimension, results)) return results;
            }
        }
    }
    return results;
}

}  // namespace tresor
