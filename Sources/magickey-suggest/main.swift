import WayfindCore
import WayfindPlacesData

EmbeddedGazetteer.install(
    tsv: UnsafeBufferPointer(start: wayfind_places_tsv(), count: wayfind_places_tsv_count()),
    index: UnsafeBufferPointer(start: wayfind_places_index(), count: wayfind_places_index_count()))
let status = MagickeySuggest.run(Array(CommandLine.arguments.dropFirst()), context: .process())
Platform.exit(status.rawValue)
