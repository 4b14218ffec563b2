// swift-tools-version: 6.0
import PackageDescription

// The companion server. A separate package so iOS apps that depend on Whereabouts never resolve its
// dependencies; it shares the wire formats of the root package's WhereaboutsCore.
let package = Package(
    name: "WhereaboutsServer",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "WhereaboutsServer", targets: ["WhereaboutsServer"]),
        .executable(name: "whereabouts-server", targets: ["whereabouts-server"]),
    ],
    dependencies: [
        .package(name: "Whereabouts", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // Debian's libsodium (libsodium-dev): OwnTracks encrypts payloads with crypto_secretbox.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // A small MQTT 3.1.1 subscriber on SwiftNIO: QoS 1, persistent sessions, PUBACK after the handler, TLS.
        .target(
            name: "WhereaboutsMQTT",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "WhereaboutsServer",
            dependencies: [
                "CSodium",
                "WhereaboutsMQTT",
                .product(name: "WhereaboutsCore", package: "Whereabouts"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        .executableTarget(
            name: "whereabouts-server",
            dependencies: [
                "WhereaboutsServer",
                "WhereaboutsMQTT",
                .product(name: "WhereaboutsCore", package: "Whereabouts"),
                .product(name: "WhereaboutsDelivery", package: "Whereabouts"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "WhereaboutsServerTests",
            dependencies: [
                "WhereaboutsServer",
                "WhereaboutsMQTT",
                "CSodium",
                .product(name: "WhereaboutsCore", package: "Whereabouts"),
                .product(name: "WhereaboutsStore", package: "Whereabouts"),
                .product(name: "WhereaboutsDelivery", package: "Whereabouts"),
                .product(name: "WhereaboutsSimulator", package: "Whereabouts"),
                .product(name: "WhereaboutsTestSupport", package: "Whereabouts"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
