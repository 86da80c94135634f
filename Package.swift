// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "fxbatch",
  products: [
    .executable(name: "fxbatch", targets: ["fxbatch"]),
    .library(name: "FXBatch", targets: ["FXBatch"]),
  ],
  targets: [
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]
    ),
    .systemLibrary(
      name: "CSQLite3",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .systemLibrary(
      name: "CCurl",
      pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]
    ),
    .systemLibrary(
      name: "CZip",
      pkgConfig: "libzip",
      providers: [.apt(["libzip-dev"])]
    ),
    .systemLibrary(
      name: "CISAL",
      pkgConfig: "libisal",
      providers: [.apt(["libisal-dev"])]
    ),
    .systemLibrary(
      name: "CZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"])]
    ),
    .systemLibrary(
      name: "CLZMA",
      pkgConfig: "liblzma",
      providers: [.apt(["liblzma-dev"])]
    ),
    // Debian's libbz2-dev has no pkg-config file: the module map links it by name.
    .systemLibrary(
      name: "CBZip2",
      providers: [.apt(["libbz2-dev"])]
    ),
    // Linux's tee(2), which Swift's Glibc module leaves out: standard input's first bytes looked at, not taken.
    .systemLibrary(
      name: "CLinuxPipes"
    ),
    .executableTarget(
      name: "EmbedECBHistory"
    ),
    .plugin(
      name: "EmbedECBHistoryPlugin",
      capability: .buildTool(),
      dependencies: ["EmbedECBHistory"]
    ),
    .target(
      name: "FXBatch",
      dependencies: ["CLibXML2", "CSQLite3", "CCurl", "CZip", "CISAL", "CZstd", "CLZMA", "CBZip2", "CLinuxPipes"],
      exclude: ["RateSources/Embedded"],
      plugins: ["EmbedECBHistoryPlugin"]
    ),
    .executableTarget(
      name: "fxbatch",
      dependencies: ["FXBatch"]
    ),
    .target(
      name: "FXBatchTestSupport",
      dependencies: ["FXBatch"]
    ),
    .testTarget(
      name: "FXBatchTests",
      dependencies: ["FXBatch", "FXBatchTestSupport", "fxbatch"],
      resources: [.copy("Fixtures")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
