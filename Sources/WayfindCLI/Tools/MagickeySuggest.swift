import WayfindCore

/// `magickey-suggest`: suggestions as you type, each with a magicKey, from a gazetteer.

/// The magickey-suggest tool: its flag table and `run`.
package enum MagickeySuggest {
    /// The default and largest `--max-suggestions`, as ArcGIS's suggest has them.
    package static let defaultSuggestions = 5
    package static let maximumSuggestions = 15

    /// The flag table.
    package static let spec = ToolSpec(
        name: "magickey-suggest",
        summary: "suggest places for partial text, each with a magicKey",
        usage: ["[OPTIONS] TEXT...", "[OPTIONS] < QUERIES"],
        description: """
            Print the places whose name, alternate names (in any language and script), \
            region or country start with \
            the words of TEXT (or of each line of standard input), best first, one per \
            line: the label ('Name, Region, Country'), a tab, the magicKey, a tab, and \
            isCollection ('true' or 'false'). Give the magicKey to magickey-find to get the \
            place's coordinates. Words match as in smartgrep: 'sao paulo', 'paris tx', \
            'zurich' and 'krakow' work, and so do 'usa', 'uk', 'uae' and Canada's and \
            Australia's province and state abbreviations ('vancouver bc', 'sydney nsw'); \
            st, saint and sankt, ste and sainte, ft and fort, mt and mount stand for each \
            other in a finished word ('st petersburg', 'st-etienne', 'ft worth'), and a \
            hyphen also stands for a space ('new-york', 'saint-petersburg'), in every \
            gazetteer. A query that names a category ('capitals', \
            'admin seat', or a value of a --places file's category column, such as \
            'coffee') is also suggested as a collection. With --graph, the places a \
            route graph predicts are suggested too, ranked with the others (see PREDICTION).
            """,
        flags: MagickeyOptions.Flags.table + [
            graph.spec, from.spec, at.spec,
            maxSuggestions.spec, nullDataFlag.spec,
            MagickeyOptions.Flags.json.spec,
            StandardFlags.help(),
            StandardFlags.version,
            StandardFlags.generate,
        ],
        positionalCompletion: .none,
        jsonErrorsFlag: MagickeyOptions.Flags.json.spec.long,
        manSections: [
            ManSection(
                "RANKING",
                """
                A place matches when the words typed for its name all start different words \
                of one of its names (its own name, a code in capitals, or one of its \
                alternate names: Roma, Wien, München), and each other word starts a \
                different word of its region or country, in any form --country takes \
                ('paris tx', 'cardiff gbr', 'prague czech republic', 'springfield il'). At \
                least one word must be in a name: a region or a country qualifies a query, \
                it never carries one ('new' does not find Sydney by New South Wales). Words \
                are never pieced together from two names of a place ('new o' does not find \
                Jakarta by New York Van Java and Koningin van het Oosten). A word joined \
                to the next by an apostrophe may be typed with it or without it: \
                'maanshan' and "ma'anshan" spell Ma’anshan whole, 'luan' Lu’an; \
                'laquila' and 'aquila' both find L'Aquila.

                When nothing matches, the text after the last comma (else the last word, \
                then the last two) is tried as a country or region: a code, or any of the \
                embedded gazetteer's names for it, with --places too, spelled whole or, \
                while the last word is typed, begun ('münchen, deutschland', 'roma, \
                italia', 'munich bavaria', 'praha česká republika'). The rest is searched \
                among that area's places, by their own region and country. When nothing \
                there has that name and a comma set the area apart, the area itself is \
                suggested ('seattle, canada' gives Canada; not for a code alone, which may \
                be a region's too). Letters, digits, commas and spaces typed in full width \
                (as a CJK input method types them) read as their ordinary forms.

                Countries and first-level regions are places of the embedded gazetteer \
                (categories country and region), found by their names in many languages \
                and by their codes typed in capitals ('DEU', 'LUX', 'NSW'); magickey-find \
                gives their centre (capital or seat) and extent.

                Suggestions are ordered by, in turn:

                Coverage: more query words in the name, or spelling a one-word region, \
                country or code whole, first ('new y' gives New York City before New City, \
                New York, whose y only begins its region; 'san francisco ca' gives San \
                Francisco, California before San Francisco de Campeche).

                Tier: the place's own name, a code typed in capitals (DEU, LUX, CA), or a \
                common alternate name spelled whole, or begun as typed when the text has \
                accents or another script ('münc' keeps Munich before Muncie), first; then \
                a common alternate name begun, or a rare one spelled whole; then a rare one \
                begun. Rare alternate \
                names are old names, descriptions and names of other, more important places \
                (Portland for Blue Island, Illinois): the embedded gazetteer lists them \
                apart (rare_alternatenames), a --places file may too. So 'lon' gives London \
                and Long Beach before Hanoi (Thang Long), and 'portland' near Chicago \
                gives Portland, Oregon and Maine before Blue Island.

                Score: near and important in one number,

                  ln(importance) + ln(\(Int(RankKey.wholeNameWeight))) if the name is spelled whole (\(Int(RankKey.shortWholeNameWeight)) while the last word, \(PlaceSearch.shortQueryLetters) ASCII letters or fewer and in the name, is typed)
                                 + ln(\(Int(RankKey.ownNameWeight))) if it is the place's own name
                                 + ln(\(Int(RankKey.codeWeight))) if it is a code typed in capitals
                                 + ln(\(Int(RankKey.startWeight))) if a query word begins the name
                                 - ln(\(Int((1 / RankKey.begunAreaWeight).rounded()))) if it is a country or region begun, not spelled whole
                                 - ln(\(Int((1 / RankKey.begunWordWeight).rounded()))) if a word typed in full, a space after it, only begins a word of the name ('la ' gives La Paz before Lagos; 'st ' near Chicago St. Charles and St. Louis before Streamwood)
                                 - \(Int(RankKey.distanceWeight)) × ln(1 + d / D)   with --location

                where importance is the population plus one, times 2 for a GTFS station, \
                1/2 for a section of a city and \(PlaceCategory.importanceFactor("region")) for a region or a country; d is the \
                distance from --location, at most 3000 km, beyond which distance no longer \
                counts; D is --distance (default \(Int(LocationBias.defaultNearDistance / 1000)) km). So an area named whole \
                ranks as a town of \(PlaceCategory.importanceFactor("region")) of its people ('france', 'california'), one begun \
                does not crowd out its towns ('chi' gives Chicago before China, 'germa' \
                Germany before Germantown). A whole name weighs as a place \
                \(Int(RankKey.wholeNameWeight)) times as large ('bath' gives Bath before Bathinda), yet the \
                first suggestion stays while its name is typed on ('st peters' keeps Saint \
                Petersburg before Saint Peters, 'st lo' St. Louis before Saint-Lô, which 'st lô' and \
                'st lo ' spell); names are typed from their start ('chi' \
                gives Chicago before Ho Chi Minh City). A place D away counts a factor of \
                2^\(Int(RankKey.distanceWeight)) less than one next door: near a location the nearest town of \
                the letters typed comes first, unless a city many times its size is about \
                as near.

                Finally, the gazetteer's order. A place ranks by whichever of its names \
                puts it highest ('sana' begins Sanaa's own name, which weighs more than \
                spelling its alternate Sana while the word is short). A collection the \
                query names is listed before the places.
                """),
            ManSection(
                "PREDICTION",
                """
                With --graph FILE, the route graph of routegraph-visit(1) (or of \
                magickey-find --graph) predicts too. With an empty TEXT ('') the places \
                that usually come next from the last place visited (or --from PLACE) are \
                suggested, in routegraph-suggest(1)'s order. With TEXT, the graph's places \
                whose label TEXT matches (smartgrep's rules) and the geocoder's matches are \
                ranked together by one score:

                  score = graph score / (1 + km from --location / \(Int(PredictiveBlend.nearnessDistance)))
                        + \(PredictiveBlend.letterTrust) × letters typed (at most \(PredictiveBlend.trustedLetters)) / (1 + place in the geocoder's order)

                The graph score is routegraph-suggest's (about 10 for a daily habit, under 1 \
                for a place visited once); the geocoder's first place scores at least \
                \(Int(PredictiveBlend.wholeNameScore)) when TEXT spells its own name whole, so a \
                whole-name match ('paris') is not pushed out by places visited once or \
                twice; not while one short word is typed on ('ath' spells Ath, Belgium, but \
                Athens, visited, comes first). Graph places are gazetteer labels, as magickey-find prints them \
                ('Paris, Île-de-France, France'): a label of several places picks the nearest \
                to --location, else the most important, and a graph place that is not in \
                the gazetteer (another program's name, 'Home') is left out. FILE is only \
                read. A missing FILE is an empty graph, with a note on standard error \
                (naming a file of a close name in its folder, if there is one). A FILE that \
                cannot be read (damaged, not a route graph, a folder) is reported, and the \
                gazetteer's suggestions are printed without predictions, with exit status \
                2: the search box goes on searching. Queries on standard input read FILE \
                once, and again only when it changed, so one process sees the visits \
                recorded while it runs (see STANDARD INPUT). \
                A gazetteer on standard input \
                (--places -) does not go with --graph, which reads the gazetteer once per \
                predicted place: give its file. With --json, a predicted suggestion has \
                "predicted":true after isCollection.
                """),
            ManSection(
                "STANDARD INPUT",
                """
                With no TEXT, each line of standard input is a query, answered as soon as it \
                arrives: its suggestions, then an empty line (with -z, queries end with NUL \
                and each answer with a NUL), flushed. So a program can keep one process as a \
                search box: write what the user typed, read up to the empty line, and so on \
                at each keystroke, without starting a process or reading the gazetteer's index \
                and the graph each time. An empty query gets an empty answer (with --graph, \
                the predictions). A line that is not UTF-8 is reported with its number, gets \
                an empty answer, and the next is answered (exit status 2 at the end). Memory \
                stays bounded whatever the input: a line may be 1 MiB long, and \
                'yes paris | magickey-suggest | head -1' ends at once.

                From bash, with a coprocess:

                  coproc box { magickey-suggest --graph ~/places.json; }
                  ask() { printf '%s\\n' "$1" >&"${box[1]}"; while IFS= read -r line <&"${box[0]}" && [ -n "$line" ]; do printf '%s\\n' "$line"; done; }
                  ask par; ask pari; ask paris

                From Python:

                  box = subprocess.Popen(["magickey-suggest", "--json"], stdin=PIPE, stdout=PIPE, text=True, bufsize=1)
                  def ask(text):
                      box.stdin.write(text + "\\n"); box.stdin.flush()
                      answer = box.stdout.readline(); box.stdout.readline()  # the empty line
                      return json.loads(answer)["suggestions"]
                """),
            ManSection(
                "OUTPUT",
                """
                TSV: text, magicKey and isCollection, tab-separated, one suggestion per line. \
                With --json, ArcGIS's suggest shape, one object per query on one line:

                  {"suggestions":[{"text":"Paris, Île-de-France, France","magicKey":"…","isCollection":false}]}

                A place found by one of its alternate names says which, in a "matched" \
                member after isCollection: 'magickey-suggest --json roma' gives \
                {"text":"Rome, Lazio, Italy",…,"matched":"Roma"}. It is left out when the \
                place's own name, region or country matched.

                A magicKey is opaque, URL-safe and stable: the same place of the same \
                gazetteer always gets the same key. It names the gazetteer it came from (a \
                fingerprint of its bytes), so magickey-find needs the same --places file.
                """),
            MagickeyOptions.gazetteerSection,
            ManSection(
                "EXIT STATUS",
                """
                0 if a suggestion was printed, 1 if none was, 2 if an error occurred. Output \
                closed early (a reader such as 'head -1' going away) is not an error. \
                With --json, an error is also printed on standard output as ArcGIS's error \
                object, one line: {"error":{"code":400,"message":"Unable to complete \
                operation.","details":["MESSAGE"]}}, code 400 for a request that cannot be \
                right (a bad flag or key), 500 for a failure on our side (an unreadable \
                gazetteer). With no TEXT and a terminal on standard input, the usage is \
                printed (exit 2) instead of waiting for input.
                """),
            ManSection(
                "EXAMPLES",
                """
                Suggest places, then find the first:

                  magickey-suggest paris | head -1 | magickey-find

                Springfield nearest Boston:

                  magickey-suggest --location 42.36,-71.06 springfield

                Capitals in Europe:

                  magickey-suggest --extent -25,34,45,72 --category capital ber

                Where next, from the places found before with magickey-find --graph:

                  magickey-suggest --graph ~/places.json ''
                """),
            ManSection("SEE ALSO", "magickey-find(1), smartgrep(1), routegraph-suggest(1), routegraph(5)"),
        ]
    )

    static let maxSuggestions = Flag(
        "max-suggestions", short: "n", value: "N", help: "print at most N suggestions per query (default 5, at most 15)",
        expected: "a number from 1 to \(maximumSuggestions)"
    ) { Int($0).flatMap { (1...maximumSuggestions).contains($0) ? $0 : nil } }

    static let nullDataFlag = Flag(
        "null-data", short: "z", help: "queries on standard input end with NUL, and so does each answer",
        manHelp:
            "Queries on standard input end with NUL instead of a newline, and each answer ends with a NUL instead of an empty line (see STANDARD INPUT)."
    )

    static let graph = Flag(
        "graph", value: "FILE", help: "also suggest the places this route graph predicts (see PREDICTION)",
        manHelp:
            "Also suggest the places the route graph in FILE (routegraph(5)) predicts, ranked with the geocoder's matches; with an empty TEXT, only the predicted places. FILE is only read. See PREDICTION.",
        completion: .file, expected: "a file name"
    ) { $0.isEmpty ? nil : $0 }
    static let from = Flag(
        "from", value: "PLACE", help: "with --graph: predict what follows PLACE (default: the last place)",
        expected: "a place name", parse: RouteGraphVisit.placeName)
    static let at = Flag.at(
        help: "with --graph: predict as if it were TIME (Unix seconds or ISO 8601)",
        manHelp:
            "With --graph: predict as if it were TIME instead of now (the time of day whose habits count), as routegraph-suggest --at: Unix seconds or ISO 8601 such as 2024-05-01T18:00:00+02:00."
    )

    /// Runs magickey-suggest with `arguments` (without argv[0]) in `context`.
    package static func run(_ arguments: [String], context: ToolContext) -> ExitStatus {
        runTool(spec, arguments: arguments, context: context, extraVersionLines: MagickeyOptions.versionLines()) {
            parsed, output, errors in
            let options = try MagickeyOptions(parsed)
            let limit = try parsed.value(of: maxSuggestions) ?? defaultSuggestions
            let graphPath = try parsed.value(of: graph)
            let fromPlace = try parsed.value(of: from)
            let time = try parsed.value(of: at)
            let nullData = try parsed.value(of: nullDataFlag)
            if graphPath == nil && (fromPlace != nil || time != nil) { throw UsageError("--from and --at go with --graph") }
            // Standard input is read once: it holds the gazetteer or the queries, and a
            // gazetteer there cannot be read again for each place the graph predicts.
            if options.placesPath == "-" {
                if graphPath != nil { throw UsageError("--places - (standard input) does not go with --graph; give the gazetteer's file") }
                if parsed.positionals.isEmpty { throw UsageError("no TEXT given, and standard input holds the gazetteer (--places -)") }
            }
            if parsed.positionals.isEmpty && context.inputIsTerminal { throw UsageError("no TEXT given, and standard input is a terminal") }
            let geocoder = try options.geocoder(context: context, tool: spec.name)
            var notes = try options.whatLooksWrong(in: geocoder)
            /// Reports the notes, once an answer was given.
            func reportNotes() {
                for note in notes { errors.report(note) }
                notes = []
            }
            let graphSource = graphPath.map { GraphSource(path: $0, errors: errors) }
            let streaming = parsed.positionals.isEmpty
            var answer = Answer(options: options, limit: limit, output: output, errors: errors, geocoder: geocoder, context: context)
            /// What the graph predicts for `query`; nil without --graph.
            func predictions(_ query: String) -> [RouteGraphSuggestion]? {
                let request = Geocoder.predictionRequest(from: fromPlace, now: time ?? context.now(), timeZone: context.timeZone, limit: limit)
                return graphSource?.predictions(for: request, filter: Geocoder.predictionFilter(query), streaming: streaming)
            }
            if !streaming {
                let query = parsed.positionals.joined(separator: " ")
                try answer.respond(query, predictions: predictions(query))
                reportNotes()
            } else {
                // Each answer ends with an empty line (NUL with -z) and is flushed, so a
                // program asking one query at a time knows where it ends.
                var lines = InputLines(context.standardInput, terminator: nullData ? 0 : 0x0A)
                while let line = try lines.next() {
                    switch line {
                    case .invalidUTF8:
                        errors.report(lines.invalidMessage)
                        answer.failed = true
                    case .text(let query):
                        try answer.respond(query, predictions: predictions(query))
                        reportNotes()
                    }
                    output.write(byte: nullData ? 0 : 0x0A)
                    output.flush()
                    if output.isClosed { break }
                }
            }
            if answer.failed || graphSource?.failed == true { return .error }
            return answer.printed > 0 ? .success : .nothingFound
        }
    }

    /// Answers queries: searches, prints the suggestions, and counts them.
    struct Answer {
        let options: MagickeyOptions
        let limit: Int
        let output: OutputBuffer
        let errors: ErrorReporter
        var geocoder: Geocoder
        let context: ToolContext
        /// How many suggestions were printed.
        var printed = 0
        /// Whether a query failed (reported; the next was answered).
        var failed = false

        /// Prints the suggestions for `query`, blended with `predictions` when a graph
        /// predicts. A query the gazetteer cannot answer is reported and counted as failed.
        mutating func respond(_ query: String, predictions: [RouteGraphSuggestion]?) throws {
            let (options, limit) = (self.options, self.limit)
            let suggestions = try options.rebuildingDamagedIndex(&geocoder, context: context, tool: spec.name, errors: errors) {
                (geocoder) throws(GeocoderError) in
                if let predictions {
                    return try geocoder.suggest(
                        query, predictions: predictions, near: options.bias.location, distance: options.bias.radius,
                        filters: options.filters, limit: limit)
                }
                return try geocoder.suggest(
                    query, near: options.bias.location, distance: options.bias.radius, filters: options.filters, limit: limit)
            }
            printed += suggestions.count
            if options.json {
                var json = MagickeySuggest.suggestionsJSON(suggestions)
                json.raw("\n")
                json.bytes.withUnsafeBufferPointer { output.write($0) }
                output.endRecord()
            } else {
                for s in suggestions {
                    // A --places file's names may hold escape sequences: a terminal is
                    // shown them escaped, as ls does, a pipe gets them as they are.
                    let text = context.outputIsTerminal ? MessageValue.escapingControlCharacters(s.text) : s.text
                    let collection = s.isCollection ? "true" : "false"
                    output.write(text + "\t" + s.magicKey + "\t" + collection + "\n")
                    output.endRecord()
                }
            }
        }
    }

    /// ArcGIS suggest's JSON for `suggestions`, on one line without a newline.
    static func suggestionsJSON(_ suggestions: [Geocoder.Suggestion]) -> JSONText {
        var json = JSONText()
        json.raw("{\"suggestions\":[")
        for (i, s) in suggestions.enumerated() {
            if i > 0 { json.raw(",") }
            json.raw("{")
            json.key("text")
            json.string(s.text)
            json.raw(",")
            json.key("magicKey")
            json.string(s.magicKey)
            json.raw(",")
            json.key("isCollection")
            json.raw(s.isCollection ? "true" : "false")
            if let matched = s.matched {
                json.raw(",")
                json.key("matched")
                json.string(matched)
            }
            if s.predicted { json.raw(",\"predicted\":true") }
            json.raw("}")
        }
        json.raw("]}")
        return json
    }
}
