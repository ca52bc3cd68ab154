import WayfindCore
import WayfindCLI

let status = RouteGraphSuggest.run(Array(CommandLine.arguments.dropFirst()), context: .process())
Platform.exit(status.rawValue)
