// The three pieces of wayfind in an app: a search box's matcher, a route graph that
// predicts the next place, and the suggest -> magicKey -> find geocoder.
import Foundation
import WayfindCore
import WayfindPlaces

// 1. Match as smartgrep does: each query word starts a different word, any order,
//    ignoring case and accents.
let symbols = ["xmark.bin.fill", "tray.and.arrow.down", "São Paulo", "trash.slash"]
let matcher = LineMatcher(MatchQuery("bin x"))
print("matches:", symbols.filter { matcher.matches($0) })
print("São Paulo for 'sao':", LineMatcher(MatchQuery("sao")).matches("São Paulo"))

// 2. A route graph: log visits, ask what usually comes next, save as JSON.
var graph = RouteGraph()
let day: Int64 = 86_400
for (i, place) in ["Home", "Airport", "Hotel", "Airport", "Home", "Airport", "Hotel"].enumerated() {
    graph.visit(place, at: 1_700_000_000 + Int64(i) * day)
}
let next = graph.suggestions(for: SuggestionRequest(from: "Airport", limit: 2, now: 1_700_000_000 + 8 * day))
print("after Airport:", next.map(\.place))
let saved = try RouteGraph(json: graph.json())
print("JSON round trip:", saved == graph)

// 2b. Share a graph file with the shell tools (routegraph-visit --graph FILE): the same
//     lock and atomic save, so an app and the tools can write it at once.
let path = FileManager.default.temporaryDirectory.appendingPathComponent("wayfind-example-\(ProcessInfo.processInfo.processIdentifier).json").path
defer { for file in [path, path + ".lock", path + ".bak"] { try? FileManager.default.removeItem(atPath: file) } }
let file = try GraphFile(resolving: path)
try file.record(VisitRequest(visits: [.init(place: "Home", time: 1_700_000_000), .init(place: "Office", time: 1_700_003_600)]))
try file.update { graph in graph.visit("Home", at: 1_700_030_000) }
let fromOffice = try file.suggestions(for: SuggestionRequest(from: "Office", limit: 1, now: 1_700_040_000))
print("file, after Office:", fromOffice.map(\.place), "edges:", try file.load().edges.count)

// 3. Geocode offline: suggestions as the user types, then the place behind a key.
let geocoder = try Geocoder.embedded()
let chicago = Coordinate(latitude: 41.88, longitude: -87.63)
let suggestions = try geocoder.suggest("springf", near: chicago, limit: 3)
for suggestion in suggestions { print("suggest:", suggestion.text) }
if let first = suggestions.first, let found = try geocoder.find(magicKey: first.magicKey).first {
    print("find:", found.place.label, found.place.coordinate.latitude, found.place.coordinate.longitude)
}

// 4. A predictive search box: the places this user went to (gazetteer labels, as `find`
//    returns them) ranked with the geocoder's matches; an empty box shows the predictions.
var history = RouteGraph()
let boston = "Boston, Massachusetts, United States", cambridge = "Cambridge, Massachusetts, United States"
for (i, place) in [boston, cambridge, boston, cambridge, boston].enumerated() {
    history.visit(place, at: 1_700_000_000 + Int64(i) * 3600, timeZone: .utc)
}
let here = Coordinate(latitude: 42.36, longitude: -71.06)
for text in ["", "c", "bro"] {
    let box = try geocoder.suggest(text, history: history, at: 1_700_020_000, timeZone: .utc, near: here, limit: 3)
    print("box \"\(text)\":", box.map { ($0.predicted ? "*" : "") + $0.text })
}
print(EmbeddedGazetteer.attribution)
