// swift-tools-version:6.0
import PackageDescription

/// The OpenAPI generator, pinned, in a package of its own so that building the server never
/// builds it. scripts/generate-client.sh runs it to write Sources/TresorKit/Generated.
let package = Package(
    name: "openapi-generator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
    ]
)
