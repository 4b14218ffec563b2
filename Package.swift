// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Whereabouts",
    platforms: [.iOS(.v15), .macOS(.v13)],
    products: [
        .library(name: "WhereaboutsCore", targets: ["WhereaboutsCore"]),
        .library(name: "WhereaboutsSimulator", targets: ["WhereaboutsSimulator"]),
        .executable(name: "whereabouts", targets: ["whereabouts"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(name: "WhereaboutsCore"),
        .target(name: "WhereaboutsSimulator", dependencies: ["WhereaboutsCore"]),
        .executableTarget(
            name: "whereabouts",
            dependencies: [
                "WhereaboutsCore",
                "WhereaboutsSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "WhereaboutsCoreTests", dependencies: ["WhereaboutsCore", "WhereaboutsSimulator"]),
        .testTarget(name: "WhereaboutsCoreSpecTests", dependencies: ["WhereaboutsCore", "WhereaboutsSimulator"]),
        .testTarget(name: "WhereaboutsSimulatorTests", dependencies: ["WhereaboutsSimulator", "WhereaboutsCore"]),
        .testTarget(name: "WhereaboutsCLITests", dependencies: ["whereabouts"]),
    ],
    swiftLanguageModes: [.v6]
)
