import WayfindCore
import WayfindCLI
import WayfindPlaces

EmbeddedPlaces.install()
let status = MagickeySuggest.run(Array(CommandLine.arguments.dropFirst()), context: .process())
Platform.exit(status.rawValue)
