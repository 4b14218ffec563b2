// swift-tools-version: 5.9
import PackageDescription

// The Capacitor plugin for Swift Package Manager (Capacitor 6+). The Whereabouts engine is this
// repository's package, two folders up: an app that installs this folder with npm resolves it there.
let package = Package(
    name: "WhereaboutsCapacitor",
    platforms: [.iOS(.v15)],
    products: [
        .library(name: "WhereaboutsCapacitor", targets: ["WhereaboutsPlugin"])
    ],
    dependencies: [
        .package(url: "https://github.com/ionic-team/capacitor-swift-pm.git", from: "6.0.0"),
        .package(name: "Whereabouts", path: "../.."),
    ],
    targets: [
        .target(
            name: "WhereaboutsPlugin",
            dependencies: [
                .product(name: "Capacitor", package: "capacitor-swift-pm"),
                .product(name: "Cordova", package: "capacitor-swift-pm"),
                .product(name: "Whereabouts", package: "Whereabouts"),
            ],
            path: "ios/Sources/WhereaboutsPlugin")
    ]
)
