// swift-tools-version: 6.0
import PackageDescription

// The Capacitor plugin for Swift Package Manager (Capacitor 6+), with the Whereabouts engine's
// targets: their sources are in engine/Sources/, copied into the npm package when it is packed, so
// the installed package needs nothing outside it. The targets and their dependencies are those of the
// repository's Package.swift (engine/targets.json lists them).
let package = Package(
    name: "WhereaboutsCapacitor",
    platforms: [.iOS(.v15)],
    products: [
        .library(name: "WhereaboutsCapacitor", targets: ["WhereaboutsPlugin"])
    ],
    dependencies: [
        // Capacitor's CLI pins the app's CapApp-SPM to its @capacitor/ios version exactly: admit every
        // major this package supports (6, 7 and 8), not only 6.x as `from: "6.0.0"` would.
        .package(url: "https://github.com/ionic-team/capacitor-swift-pm.git", "6.0.0"..<"9.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(name: "CacheHints", path: "engine/Sources/CacheHints"),
        .target(name: "WhereaboutsCore", dependencies: ["CacheHints"], path: "engine/Sources/WhereaboutsCore"),
        .target(
            name: "WhereaboutsStore",
            dependencies: ["WhereaboutsCore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "engine/Sources/WhereaboutsStore"),
        .target(name: "WhereaboutsDelivery", dependencies: ["WhereaboutsCore"], path: "engine/Sources/WhereaboutsDelivery"),
        .target(
            name: "Whereabouts",
            dependencies: [
                "WhereaboutsCore", "WhereaboutsStore", "WhereaboutsDelivery",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "engine/Sources/Whereabouts"),
        .target(
            name: "WhereaboutsApple",
            dependencies: [
                "WhereaboutsCore", "Whereabouts", "WhereaboutsDelivery", "WhereaboutsStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "engine/Sources/WhereaboutsApple", resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "WhereaboutsLaunch", path: "ios/Sources/WhereaboutsLaunch"),
        .target(
            name: "WhereaboutsPlugin",
            dependencies: [
                .product(name: "Capacitor", package: "capacitor-swift-pm"),
                .product(name: "Cordova", package: "capacitor-swift-pm"),
                "Whereabouts", "WhereaboutsApple", "WhereaboutsLaunch",
            ],
            path: "ios/Sources/WhereaboutsPlugin",
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ],
    swiftLanguageModes: [.v6]
)
