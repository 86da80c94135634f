import PackagePlugin

/// Compiles the ECB reference-rate history (`RateSources/Embedded/eurofxref-hist.csv` in the target) into the
/// target as a Swift source file, so the built `fxbatch` carries its default rates without a resource bundle
/// and still works when the binary is copied alone to another directory.
@main
struct EmbedECBHistoryPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let input = target.directoryURL.appending(path: "RateSources/Embedded/eurofxref-hist.csv")
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedECBHistory+Data.swift")
    return [
      .buildCommand(
        displayName: "Embedding the ECB reference-rate history",
        executable: try context.tool(named: "EmbedECBHistory").url,
        arguments: [input.path(percentEncoded: false), output.path(percentEncoded: false)],
        inputFiles: [input],
        outputFiles: [output]
      )
    ]
  }
}
