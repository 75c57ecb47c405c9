import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorTestSupport

@Suite("Resource packs: versions, deltas, atomic publish, rollback")
struct ResourceServiceTests {
    static func file(_ path: String, _ text: String) -> ResourceFile { ResourceFile(path: path, bytes: Data(text.utf8)) }

    /// A client's copy: path → bytes, built by applying deltas and downloading files by hash.
    static func apply(_ delta: ManifestDelta, to state: [String: Data], _ resources: ResourceService) async throws -> [String: Data] {
        var state = state
        for path in delta.removed { state[path] = nil }
        for entry in delta.added + delta.changed {
            let file = try #require(try await resources.file(hash: entry.hash))
            #expect(Hashing.sha256Hex(file.bytes) == entry.hash)
            state[entry.path] = file.bytes
        }
        return state
    }

    @Test(
        "from every earlier version, applying the delta gives what a fresh download gives",
        arguments: StoreKind.available, [1, 2, 3] as [UInt64])
    func deltasEqualFreshDownloads(kind: StoreKind, seed: UInt64) async throws {
        let resources = Services(database: try await kind.makeDatabase()).resources
        var generator = SplitMix(seed: seed)
        var pack: [String: String] = ["i18n/de.json": #"{"login_title": "Anmelden"}"#]
        var published: [Int64] = [0]
        for step in 0..<24 {
            if step % 7 == 6, published.count > 2 {
                let earlier = published[Int(generator.next() % UInt64(published.count - 1)) + 1]
                published.append(try await resources.rollback(to: earlier, actor: "test"))
                continue
            }
            let icon = "images/icon-\(generator.next() % 4).svg"
            let paths = ["images/logo.svg", icon, "styles/theme.css", "images/photo-\(generator.next() % 3).svg"]
            let path = paths[Int(generator.next() % 4)]
            switch generator.next() % 3 {
            case 0 where pack[path] != nil: pack[path] = nil
            default:
                pack[path] =
                    path.hasSuffix(".svg")
                    ? "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>\(step)</title></svg>"
                    : path.hasSuffix(".css") ? ":root { --brand: #0b4f\(10 + step); }" : #"{"step": \#(step)}"#
            }
            let version = try await resources.publish(pack.map { Self.file($0.key, $0.value) }, baseLanguage: "de", actor: "test")
            if version != published.last { published.append(version) }
        }
        let current = try await resources.currentVersion()
        let fresh = try await Self.apply(try await resources.delta(since: 0), to: [:], resources)
        #expect(fresh.count == (try await resources.version(current))!.entries.count)
        for since in published {
            var state: [String: Data] = [:]
            for entry in try #require(try await resources.version(since)).entries {
                state[entry.path] = try #require(try await resources.file(hash: entry.hash)).bytes
            }
            let delta = try await resources.delta(since: since)
            #expect(delta.version == current)
            #expect(try await Self.apply(delta, to: state, resources) == fresh, "seed \(seed), since \(since)")
        }
        await #expect(throws: DomainError.self) { try await resources.delta(since: current + 1) }
    }

    @Test("a pack with any bad file publishes nothing, and says which file", arguments: StoreKind.available)
    func refusedWhole(kind: StoreKind) async throws {
        let resources = Services(database: try await kind.makeDatabase()).resources
        let good = [Self.file("i18n/de.json", #"{"a": "A", "b": "B"}"#), Self.file("styles/theme.css", ":root { --brand: #123456; }")]
        #expect(try await resources.publish(good, baseLanguage: "de", actor: "test") == 1)
        let bad: [(ResourceFile, String)] = [
            (Self.file("images/logo.svg", #"<svg onload="alert(1)"></svg>"#), "images/logo.svg"),
            (Self.file("styles/theme.css", "@import url(https://evil.example/x.css);"), "styles/theme.css"),
            (Self.file("i18n/fr.json", #"{"c": "C"}"#), "i18n/fr.json"),
            (Self.file("i18n/fr.json", #"{"a": 1}"#), "i18n/fr.json"),
            (Self.file("screens/pay-iban.json", "{not json"), "screens/pay-iban.json"),
            (
                Self.file("screens/pay-iban.json", #"{"format": 1, "id": "pay-iban", "title": "x", "sections": [], "actions": []}"#),
                "screens/pay-iban.json"
            ),
            (Self.file("../etc/passwd.json", "{}"), "../etc/passwd.json"),
            (Self.file("scripts/app.js", "alert(1)"), "scripts/app.js"),
            (ResourceFile(path: "images/big.png", bytes: Data(count: ResourcePack.fileBytesMax + 1)), "images/big.png"),
        ]
        for (file, path) in bad {
            let error = await #expect(throws: ResourcePackError.self) {
                try await resources.publish(good + [file], baseLanguage: "de", actor: "test")
            }
            #expect(error?.path == path, "\(String(describing: error))")
        }
        // A language pack's fault is told by entry, or by line and column.
        let nested = await #expect(throws: ResourcePackError.self) {
            try await resources.publish(
                good + [Self.file("i18n/fr.json", "{\"a\": \"A\",\n \"login\": {\"title\": \"T\"}}")], baseLanguage: "de", actor: "test")
        }
        #expect(nested?.message == "a language pack is one JSON object of strings; login: has the wrong type", "\(String(describing: nested))")
        let broken = await #expect(throws: ResourcePackError.self) {
            try await resources.publish(good + [Self.file("i18n/fr.json", "{\"a\": \"A\",\n \"b\": \"B\",,}")], baseLanguage: "de", actor: "test")
        }
        #expect(broken?.message.hasSuffix("is not valid JSON: Invalid value at line 2, column 11") == true, "\(String(describing: broken))")
        #expect(try await resources.currentVersion() == 1)
        // The same pack again is no new version; a rollback is one, with the old files.
        #expect(try await resources.publish(good.reversed(), baseLanguage: "de", actor: "test") == 1)
        #expect(try await resources.publish([good[0]], baseLanguage: "de", actor: "test") == 2)
        #expect(try await resources.rollback(to: 1, actor: "test") == 3)
        #expect(try await resources.rollback(to: 1, actor: "test") == 3, "a rollback to what is current is no new version")
        #expect(try await resources.version(3)?.entries == resources.version(1)?.entries)
        #expect(try await resources.delta(since: 2).added.map(\.path) == ["styles/theme.css"])
    }

    @Test("readers during publishing see one whole version or the other, never a mix", arguments: StoreKind.available)
    func atomicPublish(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        let resources = Services(database: database).resources
        let again = Services(database: try kind.openAgain(database)).resources
        func pack(_ tag: String) -> [ResourceFile] {
            (0..<20).map { Self.file("images/icon-\($0).svg", #"<svg xmlns="http://www.w3.org/2000/svg"><title>\#(tag) \#($0)</title></svg>"#) }
        }
        let packs = [pack("a"), pack("b")]
        let manifests = packs.map { Set($0.map(\.hash)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<20 { try await resources.publish(packs[round % 2], baseLanguage: "de", actor: "test") }
            }
            group.addTask {
                for _ in 0..<60 {
                    let seen = Set(try await again.delta(since: 0).added.map(\.hash))
                    #expect(seen.isEmpty || manifests.contains(seen), "a reader saw a mix of two versions")
                }
            }
            try await group.waitForAll()
        }
        #expect(try await resources.currentVersion() == 20)
    }
}
