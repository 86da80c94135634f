import Foundation

// The executable only turns arguments into library calls, prints, and maps results to an exit status.
exit(FXBatchCommand.run(Array(CommandLine.arguments.dropFirst())))
