import Foundation

// The executable only turns arguments into library calls, prints, and maps results to an exit status.
Interrupts.install()
exit(FXBatchCommand.run(Array(CommandLine.arguments.dropFirst())))
