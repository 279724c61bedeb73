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
        .library(name: "PickerClient", targets: ["PickerClient", "ImagePicker"]),
    ],
    targets: [
        // C libraries from Debian, through pkg-config.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The libraries under libvips that Imaging also asks directly, instead of parsing their formats itself.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        // Fixed-arity wrappers of the variadic libvips calls we use.
        .target(name: "CShims", dependencies: ["CVips", "CResize"], linkerSettings: [.linkedLibrary("gmodule-2.0")]),
        // A lanczos3 downscale of 8-bit pixels in memory, vectorised: libvips 8.14's is scalar.
        .target(name: "CResize", linkerSettings: [.linkedLibrary("m")]),
        // libjpeg-turbo decoding a JPEG with its damage read from its message codes (needs setjmp, so C).
        .target(name: "CJPEGDecoder", dependencies: ["CResize"], linkerSettings: [.linkedLibrary("jpeg")]),
        // Fixed-arity wrappers of the variadic libcurl calls.
        .target(name: "CCurlShims", dependencies: ["CCurl"]),
        // Fixed-arity wrappers of the variadic libmicrohttpd calls, and the one GnuTLS call HTTPS needs.
        .target(name: "CMicroHTTPDShims", dependencies: ["CMicroHTTPD"], linkerSettings: [.linkedLibrary("gnutls")]),
        // The Linux file calls Glibc's Swift module leaves out (sync_file_range).
        .target(name: "CStorageShims"),
        // The posix_spawn file actions and pipe2 that Glibc's Swift module leaves out.
        .target(name: "CSpawnShims"),

        .target(
            name: "Imaging",
            dependencies: ["Failures", "Vocabulary", "CVips", "CShims", "CZlib", "CExif", "CLCMS2", "CWebP", "CHeif", "CJPEGDecoder"],
            swiftSettings: strict),
        // The one shape of every module's errors (`Failure`).
        .target(name: "Failures", swiftSettings: strict),
        // The words every layer shares: media types, pixel sizes and rectangles.
        .target(name: "Vocabulary", swiftSettings: strict),
        // Child processes with deadlines: ffmpeg, ffprobe, and the image decoder of risky formats.
        .target(name: "ChildProcess", dependencies: ["CSpawnShims"], swiftSettings: strict),
        .target(name: "Executors", swiftSettings: strict),
        .target(name: "Memo", swiftSettings: strict),
        // Places named from a position, from GeoNames' towns and iso-codes' country names that the
        // install step writes into Data (scripts/places.py).
        .target(name: "Places", dependencies: ["Failures"], resources: [.copy("Data")], swiftSettings: strict),
        .target(name: "Video", dependencies: ["Failures", "ChildProcess", "Executors", "Memo", "UTCTime"], swiftSettings: strict),
        // SHA-256, SHA-1 and HMAC from libcrypto, and the hex they are written in.
        .target(name: "Digests", dependencies: ["CCrypto"], swiftSettings: strict),
        .target(name: "Storage", dependencies: ["Failures", "CSQLite", "Digests", "CStorageShims", "Executors"], swiftSettings: strict),
        // The library's database on a PostgreSQL server (libpq), for several servers sharing one library.
        .target(name: "PostgreSQL", dependencies: ["CPostgres", "Digests", "Storage", "Executors", "UTCTime"], swiftSettings: strict),
        .target(
            name: "PhotoLibrary",
            dependencies: [
                "Failures", "Vocabulary", "Imaging", "Video", "Digests", "Storage", "ChildProcess", "Executors", "Memo", "CZlib", "UTCTime",
                "Places",
            ],
            swiftSettings: strict),
        // Measurements for `make bench`; not part of the app.
        .executableTarget(
            name: "cameraroll-bench", dependencies: ["PhotoLibrary", "Imaging", "Places", "PostgreSQL", "Storage", "Vocabulary"],
            swiftSettings: strict),
        .target(name: "ImagePicker", dependencies: ["Failures", "Vocabulary"], swiftSettings: strict),
        // A moment's parts in UTC without Foundation's calendar (and ICU's time-zone tables).
        .target(name: "UTCTime", swiftSettings: strict),
        .target(name: "PickerClient", dependencies: ["ImagePicker"], swiftSettings: strict),
        // A client's IP address, as the connection limits and the sign-in lock-out count clients.
        .target(name: "IPAddress", swiftSettings: strict),
        .target(
            name: "HTTPServer", dependencies: ["CMicroHTTPD", "CMicroHTTPDShims", "Digests", "IPAddress", "Memo"], swiftSettings: strict),
        // The owner's password, sign-in sessions, lock-out and capability URLs (libcrypto).
        .target(
            name: "Credentials", dependencies: ["Failures", "CCrypto", "Digests", "Storage", "IPAddress", "Executors"],
            swiftSettings: strict),
        .target(name: "Certificates", dependencies: ["Failures", "CCrypto", "Storage"], swiftSettings: strict),
        // AWS Signature Version 4 for S3 requests and presigned URLs (libcrypto).
        .target(name: "S3", dependencies: ["Failures", "CCurl", "CCurlShims", "Digests", "Storage", "UTCTime"], swiftSettings: strict),
        .target(name: "QRCode", dependencies: ["Failures", "CQRencode"], swiftSettings: strict),
        .target(
            name: "CameraRollServer",
            dependencies: [
                "Failures", "Vocabulary", "HTTPServer", "ImagePicker", "PhotoLibrary", "Imaging", "Video", "Credentials", "IPAddress",
                "Executors", "Memo", "UTCTime",
            ],
            resources: [.copy("Web")], swiftSettings: strict),
        .executableTarget(
            name: "cameraroll",
            dependencies: [
                "CameraRollServer", "HTTPServer", "Certificates", "QRCode", "ImagePicker", "PickerClient", "PhotoLibrary", "Imaging",
                "Video", "Storage", "PostgreSQL", "S3", "Credentials", "IPAddress", "Vocabulary", "ChildProcess",
            ],
            swiftSettings: strict),

        // Every parser of ours as a libFuzzer target; `make fuzz` runs them, `make test` replays what they found.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "Imaging", "Video", "PhotoLibrary", "Credentials", "IPAddress", "HTTPServer", "CameraRollServer", "ImagePicker",
                "PostgreSQL", "S3", "Storage", "ChildProcess", "Vocabulary", "Places",
            ],
            swiftSettings: strict),
        .executableTarget(name: "cameraroll-fuzz", dependencies: ["FuzzTargets", "Vocabulary"], swiftSettings: strict),
        .target(name: "TestSupport", dependencies: ["HTTPServer", "ChildProcess", "Digests"], swiftSettings: strict),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport", "Vocabulary"], swiftSettings: strict),
        .testTarget(name: "FailuresTests", dependencies: ["Failures"], swiftSettings: strict),
        .testTarget(name: "ChildProcessTests", dependencies: ["ChildProcess", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ExecutorsTests", dependencies: ["Executors"], swiftSettings: strict),
        .testTarget(name: "MemoTests", dependencies: ["Memo"], swiftSettings: strict),
        .testTarget(name: "PlacesTests", dependencies: ["Places"], swiftSettings: strict),
        .testTarget(name: "VideoTests", dependencies: ["Video", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "DigestsTests", dependencies: ["Digests"], swiftSettings: strict),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PostgreSQLTests", dependencies: ["PostgreSQL", "Storage", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "PhotoLibraryTests",
            dependencies: [
                "PhotoLibrary", "PostgreSQL", "S3", "Digests", "Storage", "Imaging", "ChildProcess", "TestSupport", "Vocabulary",
            ],
            swiftSettings: strict),
        .testTarget(name: "CommandLineTests", dependencies: ["S3", "ChildProcess", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ImagePickerTests", dependencies: ["ImagePicker"], swiftSettings: strict),
        .testTarget(
            name: "PickerClientTests",
            dependencies: ["PickerClient", "ImagePicker", "CameraRollServer", "HTTPServer", "PhotoLibrary", "TestSupport"],
            swiftSettings: strict),
        .testTarget(name: "CredentialsTests", dependencies: ["Credentials", "Digests", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "IPAddressTests", dependencies: ["IPAddress"], swiftSettings: strict),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["Digests", "HTTPServer", "IPAddress", "Memo", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CertificatesTests", dependencies: ["Certificates", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "S3Tests", dependencies: ["S3", "Storage", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "PhotoLibrary", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "CameraRollServerTests",
            dependencies: [
                "CameraRollServer", "HTTPServer", "ImagePicker", "PhotoLibrary", "PostgreSQL", "S3", "Digests", "Storage", "Credentials",
                "IPAddress",
                "Imaging", "TestSupport", "Vocabulary",
            ],
            swiftSettings: strict),
    ]
)
