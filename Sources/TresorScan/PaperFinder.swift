/// Finds the till receipt in a photo of it lying on a table: the largest connected region
/// brighter than Otsu's threshold, on a grey thumbnail of the photo.
///
/// why: a real phone photo (Tests/corpus/receipts-real) shows wood or cloth around the paper;
/// Tesseract reads its grain as lines of letters (`à AN A VA OA`) above the shop's name, and
/// spends its time on them. Cut to the paper, the first line is the shop again.
enum PaperFinder {
    struct Box: Equatable {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
    }

    /// The paper's box in the thumbnail (`gray` row by row, `width` × `height`), or nil when
    /// there is nothing to cut: the paper fills the photo (a scan), or no bright region is
    /// large enough to be a receipt (a dark photo; better read whole than cut wrong).
    static func paper(in gray: [UInt8], width: Int, height: Int) -> Box? {
        guard width > 2, height > 2, gray.count == width * height else { return nil }
        let threshold = otsuThreshold(gray)
        var seen = [Bool](repeating: false, count: gray.count)
        var best: (count: Int, box: Box)?
        var stack: [Int] = []
        for start in gray.indices where !seen[start] && gray[start] > threshold {
            seen[start] = true
            stack.append(start)
            var count = 0
            var (minX, minY, maxX, maxY) = (width, height, 0, 0)
            while let index = stack.popLast() {
                count += 1
                let (x, y) = (index % width, index / width)
                (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && nx < width && ny >= 0 && ny < height {
                    let next = ny * width + nx
                    if !seen[next], gray[next] > threshold {
                        seen[next] = true
                        stack.append(next)
                    }
                }
            }
            if count > best?.count ?? 0 {
                best = (count, Box(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1))
            }
        }
        guard let best else { return nil }
        let area = width * height
        let boxArea = best.box.width * best.box.height
        // A receipt is at least a tenth of a photo taken to read it; a box of nine tenths or
        // more leaves nothing worth cutting.
        guard best.count * 10 >= area, boxArea * 10 < area * 9 else { return nil }
        return best.box
    }

    /// The grey level that best splits the pixels into two classes (Otsu 1979: the largest
    /// variance between the classes).
    static func otsuThreshold(_ gray: [UInt8]) -> UInt8 {
        var histogram = [Int](repeating: 0, count: 256)
        for value in gray { histogram[Int(value)] += 1 }
        let total = gray.count
        let sum = histogram.enumerated().reduce(0) { $0 + $1.offset * $1.element }
        var (backgroundCount, backgroundSum) = (0, 0)
        var (bestVariance, bestLevel) = (0.0, 0)
        for level in 0..<256 {
            backgroundCount += histogram[level]
            backgroundSum += level * histogram[level]
            let foregroundCount = total - backgroundCount
            guard backgroundCount > 0, foregroundCount > 0 else { continue }
            let meanBackground = Double(backgroundSum) / Double(backgroundCount)
            let meanForeground = Double(sum - backgroundSum) / Double(foregroundCount)
            let variance = Double(backgroundCount) * Double(foregroundCount) * (meanBackground - meanForeground) * (meanBackground - meanForeground)
            if variance > bestVariance { (bestVariance, bestLevel) = (variance, level) }
        }
        return UInt8(bestLevel)
    }
}
