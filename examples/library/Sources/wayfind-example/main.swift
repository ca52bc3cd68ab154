// The three pieces of wayfind in an app: a search box's matcher, a route graph that
// predicts the next place, and the suggest -> magicKey -> find geocoder.
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
