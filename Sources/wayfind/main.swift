import WayfindCore
import WayfindCLI
import WayfindPlaces

// Every tool in one binary (`make install` links each tool's name to it); see MultiCall.
let argv = CommandLine.arguments
guard let (tool, arguments) = MultiCall.resolve(argv) else {
    Platform.exit(MultiCall.run(Array(argv.dropFirst()), context: .process()).rawValue)
}
if tool.usesGazetteer { EmbeddedPlaces.install() }
Platform.exit(tool.run(arguments, .process()).rawValue)
