import WayfindCore
import WayfindCLI

let status = Smartgrep.run(Array(CommandLine.arguments.dropFirst()), context: .process())
Platform.exit(status.rawValue)
