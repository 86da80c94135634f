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
      dependencies: ["CLibXML2", "CSQLite3", "CCurl", "CZip", "CISAL"],
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
