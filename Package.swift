// swift-tools-version:6.0
// wayfind: small Unix tools that find the place, name or stop you want next.
// No dependencies by design: the toolchain only.
import PackageDescription

let package = Package(
    name: "wayfind",
    products: [
        .library(name: "WayfindCore", targets: ["WayfindCore"]),
        .executable(name: "smartgrep", targets: ["smartgrep"]),
        .executable(name: "magickey-suggest", targets: ["magickey-suggest"]),
        .executable(name: "magickey-find", targets: ["magickey-find"]),
        .executable(name: "routegraph-visit", targets: ["routegraph-visit"]),
        .executable(name: "routegraph-suggest", targets: ["routegraph-suggest"]),
    ],
    targets: [
        // The embedded gazetteer: places.tsv and places.index, put into the binary by an
        // assembler .incbin (the target folder is on the assembler's include path).
        .target(
            name: "WayfindPlacesData",
            exclude: ["places.tsv", "places.index"],
            cSettings: [.headerSearchPath(".")]
        ),
        // The core does not link the gazetteer: only the magickey tools carry its 7.5 MB
        // (they hand it to `EmbeddedGazetteer.install`), so smartgrep stays small.
        .target(
            name: "WayfindCore",
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
        ),
        .executableTarget(name: "smartgrep", dependencies: ["WayfindCore"]),
        .executableTarget(name: "magickey-suggest", dependencies: ["WayfindCore", "WayfindPlacesData"]),
        .executableTarget(name: "magickey-find", dependencies: ["WayfindCore", "WayfindPlacesData"]),
        // Regenerates Sources/WayfindPlacesData/places.index (`make places-index`).
        .executableTarget(name: "wayfind-places-index", dependencies: ["WayfindCore"]),
        .executableTarget(name: "routegraph-visit", dependencies: ["WayfindCore"]),
        .executableTarget(name: "routegraph-suggest", dependencies: ["WayfindCore"]),
        .testTarget(name: "WayfindCoreTests", dependencies: ["WayfindCore", "WayfindPlacesData"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "WayfindCore", "smartgrep", "routegraph-visit", "routegraph-suggest", "magickey-suggest", "magickey-find",
            ],
            exclude: ["Fixtures"]
        ),
    ]
)
