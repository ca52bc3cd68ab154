// swift-tools-version:6.0
// wayfind: small Unix tools that find the place, name or stop you want next.
// No dependencies by design: the toolchain only.
import PackageDescription

let package = Package(
    name: "wayfind",
    products: [
        .library(name: "WayfindCore", targets: ["WayfindCore"]),
        .executable(name: "smartgrep", targets: ["smartgrep"]),
        .executable(name: "routegraph-visit", targets: ["routegraph-visit"]),
        .executable(name: "routegraph-suggest", targets: ["routegraph-suggest"]),
    ],
    targets: [
        .target(
            name: "WayfindCore",
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
        ),
        .executableTarget(name: "smartgrep", dependencies: ["WayfindCore"]),
        .executableTarget(name: "routegraph-visit", dependencies: ["WayfindCore"]),
        .executableTarget(name: "routegraph-suggest", dependencies: ["WayfindCore"]),
        .testTarget(name: "WayfindCoreTests", dependencies: ["WayfindCore"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["WayfindCore", "smartgrep", "routegraph-visit", "routegraph-suggest"],
            exclude: ["Fixtures"]
        ),
    ]
)
