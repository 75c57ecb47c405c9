import Foundation
import TresorCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads an ECB rates file from a path or an http(s) URL (at most 16 MB, 20 s).
enum RatesDownload {
    static func fetch(_ source: String) async throws -> Data {
        guard source.hasPrefix("http://") || source.hasPrefix("https://"), let url = URL(string: source) else {
            return try Data(contentsOf: URL(fileURLWithPath: source))
        }
        var request = URLRequest(url: url, timeoutInterval: 20)
        request.setValue("Tresor", forHTTPHeaderField: "User-Agent")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200, data.count <= 16 << 20 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(source) did not answer 200 with a rates file"])
        }
        return data
    }
}
