// swift-tools-version:6.0
// An app's view of wayfind: a package that depends on it by path and uses its libraries.
// `make test` builds and runs it; see "Use as a Swift library" in the README.
import PackageDescription

let package = Package(
    name: "wayfind-library-example",
    dependencies: [.package(name: "wayfind", path: "../..")],
    targets: [
        .executableTarget(
            name: "wayfind-example",
            dependencies: [
                .product(name: "WayfindCore", package: "wayfind"),
                .product(name: "WayfindPlaces", package: "wayfind"),
            ])
    ]
)
