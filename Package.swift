// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Whereabouts",
    platforms: [.iOS(.v15), .macOS(.v13)],
    products: [
        .library(name: "WhereaboutsCore", targets: ["WhereaboutsCore"]),
        .library(name: "WhereaboutsStore", targets: ["WhereaboutsStore"]),
        .library(name: "WhereaboutsDelivery", targets: ["WhereaboutsDelivery"]),
        .library(name: "WhereaboutsSimulator", targets: ["WhereaboutsSimulator"]),
        .library(name: "Whereabouts", targets: ["Whereabouts"]),
        .library(name: "WhereaboutsGPSD", targets: ["WhereaboutsGPSD"]),
        .library(name: "WhereaboutsApple", targets: ["WhereaboutsApple"]),
        .executable(name: "whereabouts", targets: ["whereabouts"]),
        // Helpers for tests (temporary folders removed at exit, sample records), shared with Server/'s tests.
        .library(name: "WhereaboutsTestSupport", targets: ["WhereaboutsTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "CacheHints"),
        .target(name: "WhereaboutsCore", dependencies: ["CacheHints"]),
        .target(
            name: "WhereaboutsStore",
            dependencies: ["WhereaboutsCore", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "WhereaboutsDelivery", dependencies: ["WhereaboutsCore"]),
        .target(
            name: "WhereaboutsSimulator",
            dependencies: [
                "WhereaboutsCore", "Whereabouts", "WhereaboutsStore", "WhereaboutsDelivery",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The runtime: the LocationEngine actor wiring the core to a LocationService, the store and
        // the uploader, and the JSON bridge for React Native and Capacitor.
        .target(
            name: "Whereabouts",
            dependencies: [
                "WhereaboutsCore", "WhereaboutsStore", "WhereaboutsDelivery",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // A LocationService reading a real GPS receiver through gpsd's JSON protocol.
        .target(
            name: "WhereaboutsGPSD",
            dependencies: ["WhereaboutsCore", "Whereabouts", .product(name: "Logging", package: "swift-log")]),
        // The iOS adapter: CoreLocation, CoreMotion, BGTaskScheduler, background URLSession and local
        // notifications. Its logic talks to them through small protocols and compiles (and is tested) on
        // Linux; only Apple/ adopts the real frameworks, on iOS. Its privacy manifest declares the
        // required-reason APIs it and the store use and the precise location it records.
        .target(
            name: "WhereaboutsApple",
            dependencies: [
                "WhereaboutsCore", "Whereabouts", "WhereaboutsDelivery", "WhereaboutsStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")]),
        .executableTarget(
            name: "whereabouts",
            dependencies: [
                "WhereaboutsCore",
                "WhereaboutsSimulator",
                "WhereaboutsStore",
                "WhereaboutsDelivery",
                "WhereaboutsTestServer",
                "Whereabouts",
                "WhereaboutsGPSD",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A real HTTP server on 127.0.0.1 with injectable faults, for tests and `whereabouts bench
        // delivery`. No library product includes it, so apps never resolve Hummingbird.
        .target(
            name: "WhereaboutsTestServer",
            dependencies: [
                "WhereaboutsCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // What several test targets share: waiting for a condition without a wall-clock deadline, policies,
        // temporary folders, sample records. It depends on the core alone, so core tests build without GRDB.
        .target(name: "WhereaboutsTestSupport", dependencies: ["WhereaboutsCore"], path: "Tests/WhereaboutsTestSupport"),
        // What the test targets that open a SQLite store share.
        .target(
            name: "WhereaboutsStoreTestSupport", dependencies: ["WhereaboutsStore", "WhereaboutsTestSupport"],
            path: "Tests/WhereaboutsStoreTestSupport"),
        .testTarget(name: "WhereaboutsCoreTests", dependencies: ["WhereaboutsCore", "WhereaboutsTestSupport"]),
        .testTarget(
            name: "WhereaboutsStoreTests",
            dependencies: [
                "WhereaboutsCore", "WhereaboutsStore", "WhereaboutsStoreTestSupport", "WhereaboutsTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "WhereaboutsSimulatorTests",
            dependencies: [
                "WhereaboutsSimulator", "WhereaboutsCore", "Whereabouts", "WhereaboutsStore", "WhereaboutsDelivery",
                "WhereaboutsTestSupport",
            ]),
        .testTarget(
            name: "WhereaboutsDeliveryTests",
            dependencies: [
                "WhereaboutsCore", "WhereaboutsStore", "WhereaboutsDelivery", "WhereaboutsTestServer", "WhereaboutsStoreTestSupport",
                "WhereaboutsTestSupport",
            ]),
        .testTarget(
            name: "WhereaboutsEngineTests",
            dependencies: [
                "Whereabouts", "WhereaboutsCore", "WhereaboutsDelivery", "WhereaboutsSimulator", "WhereaboutsStore",
                "WhereaboutsTestServer", "WhereaboutsTestSupport", .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "WhereaboutsAppleTests",
            dependencies: [
                "WhereaboutsApple", "Whereabouts", "WhereaboutsCore", "WhereaboutsDelivery", "WhereaboutsStore", "WhereaboutsTestServer",
                "WhereaboutsTestSupport",
            ]),
        .testTarget(
            name: "WhereaboutsGPSDTests",
            dependencies: [
                "WhereaboutsGPSD", "Whereabouts", "WhereaboutsCore", "WhereaboutsStore", "whereabouts", "WhereaboutsTestServer",
                "WhereaboutsTestSupport",
            ]),
        .testTarget(
            name: "WhereaboutsCLITests",
            dependencies: [
                "whereabouts", "WhereaboutsTestServer", "WhereaboutsStore", "WhereaboutsCore", "WhereaboutsTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
