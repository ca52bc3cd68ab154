import WayfindCore
import WayfindCLI

let status = RouteGraphVisit.run(Array(CommandLine.arguments.dropFirst()), context: .process())
Platform.exit(status.rawValue)
