// swift-tools-version: 6.2
import PackageDescription

// Strictness is set once here for every Swift target (see STYLE.md, "Habits").
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "CameraRoll",
    products: [
        .executable(name: "cameraroll", targets: ["cameraroll"]),
        .library(name: "PhotoLibrary", targets: ["PhotoLibrary"]),
    ],
    targets: [
        // C libraries from Debian, through pkg-config.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Fixed-arity wrappers of the variadic libvips calls we use.
        .target(name: "CShims", dependencies: ["CVips"]),

        .target(name: "Imaging", dependencies: ["CVips", "CShims"], swiftSettings: strict),
        .target(name: "Video", swiftSettings: strict),
        .target(name: "Storage", dependencies: ["CSQLite", "CCrypto"], swiftSettings: strict),
        .target(name: "PhotoLibrary", dependencies: ["Imaging", "Video", "Storage"], swiftSettings: strict),
        // Measurements for `make bench`; not part of the app.
        .executableTarget(
            name: "cameraroll-bench", dependencies: ["PhotoLibrary", "Imaging", "Storage"], swiftSettings: strict),
        .executableTarget(name: "cameraroll", dependencies: ["PhotoLibrary", "Imaging", "Video", "Storage"], swiftSettings: strict),

        .target(name: "TestSupport", swiftSettings: strict),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "VideoTests", dependencies: ["Video", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PhotoLibraryTests", dependencies: ["PhotoLibrary", "Imaging", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CommandLineTests", dependencies: ["TestSupport"], swiftSettings: strict),
    ]
)
