// swift-tools-version:6.0
import PackageDescription

/// Tresor: a mobile banking platform. Targets follow ../shared/docs/ARCHITECTURE.md;
/// dependencies point down (domain ← ledger ← core ← storage ← server ← executable).
let package = Package(
    name: "tresor",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "tresor", targets: ["tresor"]),
        .library(name: "TresorDomain", targets: ["TresorDomain"]),
        /// The SDK for native apps: the generated HTTP client behind a small facade, the domain's
        /// offline validators, a credential store, device keys and an encrypted offline cache.
        .library(name: "TresorKit", targets: ["TresorKit"]),
        .executable(name: "tresor-shell", targets: ["tresor-shell"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "TresorDomain"),
        /// Child processes without Foundation's `Process` (see ChildProcess.swift for why).
        .target(name: "CSpawn"),
        .target(name: "TresorSpawn", dependencies: ["CSpawn"]),
        /// zbar, Tesseract 5 and Leptonica from Debian (scripts/install-deps.sh installs them).
        .systemLibrary(name: "CScanLibraries"),
        /// ZXing-C++ (Debian's libzxing-dev) behind a small C face: the QR decoder tried first.
        .target(name: "CZXing", linkerSettings: [.linkedLibrary("ZXing")]),
        /// Poppler (Debian's libpoppler-glib-dev) draws the pages of a QR-bill sent as a PDF.
        .systemLibrary(name: "CPDFPages", pkgConfig: "poppler-glib"),
        .target(name: "TresorScan", dependencies: ["CScanLibraries", "CPDFPages", "CZXing", "TresorDomain", "TresorSpawn"]),
        /// zlib (Debian's zlib1g-dev), for the web app's files sent gzip-compressed.
        .systemLibrary(name: "CZlib"),
        /// cairo, Pango and librsvg from Debian, for PDFs and icons (scripts/install-deps.sh installs them).
        .systemLibrary(name: "CDocumentLibraries", pkgConfig: "pangocairo"),
        .target(name: "TresorDocuments", dependencies: ["CDocumentLibraries", "TresorCore", "TresorLedger", "TresorDomain"]),
        .target(name: "TresorLedger", dependencies: ["TresorDomain"]),
        /// libxml2 (Debian's libxml2-dev): clearing files are read as they stream, checked against their XSD.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0"),
        .target(
            name: "TresorCore",
            dependencies: [
                "TresorLedger", "TresorDomain", "CLibXML2",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ],
            resources: [.copy("Clearing/Schemas"), .copy("Customers/CommonPasswords")]
        ),
        /// SQLite settings made when the process loads (memory statistics off), in C: sqlite3_config is variadic.
        .target(name: "CSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "TresorSQLite",
            dependencies: [
                "CSQLiteSettings", "TresorLedger", "TresorCore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "TresorPostgres",
            dependencies: [
                "TresorLedger", "TresorCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TresorServer",
            dependencies: [
                "TresorCore", "TresorLedger", "TresorDomain", "TresorScan", "TresorDocuments", "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/web"), .copy("Resources/screens"), .copy("Resources/xml")]
        ),
        .executableTarget(
            name: "tresor",
            dependencies: [
                "TresorServer", "TresorCore", "TresorLedger", "TresorSQLite", "TresorPostgres", "TresorScan", "TresorDocuments",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        /// Generated code in Sources/TresorKit/Generated comes from scripts/generate-client.sh.
        /// URLSession carries requests on Apple platforms, AsyncHTTPClient on Linux.
        .target(
            name: "TresorKit",
            dependencies: [
                "TresorDomain",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession", condition: .when(platforms: [.macOS, .iOS])),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        /// A command-line banking client built only on TresorKit: the SDK end to end on Linux.
        .executableTarget(
            name: "tresor-shell",
            dependencies: ["TresorKit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/tresor-shell"
        ),
        /// What several test targets share: the stores they run against.
        .target(
            name: "TresorTestSupport",
            dependencies: [
                "TresorLedger", "TresorSQLite", "TresorPostgres", "TresorSpawn", .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/TresorTestSupport"),
        .testTarget(name: "TresorDomainTests", dependencies: ["TresorDomain"]),
        .testTarget(name: "TresorScanTests", dependencies: ["TresorScan", "TresorDomain", "CZXing", "TresorTestSupport", "TresorSpawn"]),
        .testTarget(
            name: "TresorStoreTests",
            dependencies: [
                "TresorLedger", "TresorCore", "TresorDocuments", "TresorSQLite", "TresorPostgres", "TresorDomain", "TresorTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TresorKitTests",
            dependencies: [
                "TresorKit", "TresorDomain", "TresorTestSupport", "TresorSpawn",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "TresorServerTests",
            dependencies: [
                "TresorServer", "TresorCore", "TresorSQLite", "TresorPostgres", "TresorDomain", "TresorTestSupport", "TresorScan", "TresorDocuments",
                "TresorSpawn", .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
