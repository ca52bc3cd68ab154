// Regenerates the embedded gazetteer's index: wayfind-places-index places.tsv places.index
import WayfindCore

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
    print("usage: wayfind-places-index PLACES.tsv OUTPUT.index")
    Platform.exit(2)
}
do {
    guard let tsv = try FileSystem.readFile(at: arguments[0]) else {
        print("wayfind-places-index: no such file: \(arguments[0])")
        Platform.exit(2)
    }
    let index = try tsv.withUnsafeBufferPointer { bytes throws(GazetteerError) in try PlacesIndex.build(tsv: bytes) }
    try FileSystem.writeAtomically(index, to: arguments[1])
    print("wrote \(arguments[1]): \(index.count) bytes")
} catch {
    print("wayfind-places-index: \(error)")
    Platform.exit(2)
}
