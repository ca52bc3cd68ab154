import WayfindCore
import WayfindPlaces

// Every tool in one binary (`make install` links each tool's name to it); see MultiCall.
guard let (tool, arguments) = MultiCall.resolve(CommandLine.arguments) else {
    var usage = Array(MultiCall.usage.utf8)
    try? FileDescriptor.standardError.writeAll(&usage, count: usage.count)
    Platform.exit(ExitStatus.error.rawValue)
}
if tool.usesGazetteer { EmbeddedPlaces.install() }
Platform.exit(tool.run(arguments, .process()).rawValue)
