import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The CSV reader, and a GTFS stops.txt read as a gazetteer by magickey-suggest and
/// magickey-find (in process).
@Suite struct GTFSStopsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("EndToEndTests/Fixtures/gtfs")
    static let sample = fixtures.appendingPathComponent("sample-stops.txt").path
    static let nasty = fixtures.appendingPathComponent("nasty-stops.txt").path

    // MARK: CSV

    static let csvCases: [(String, [[String]])] = [
        ("a,b,c\n", [["a", "b", "c"]]),
        ("\"a,b\",\"c\"\"d\"\r\n", [["a,b", "c\"d"]]),
        ("a,\"x\ny\"\nb\n", [["a", "x\ny"], ["b"]]),
        ("a,\n,\n", [["a", ""], ["", ""]]),
        ("a", [["a"]]),
        ("a,\"b\"", [["a", "b"]]),
        ("5\" gauge,b\n", [["5\" gauge", "b"]]),
        ("a\rb\r\n", [["a\rb"]]),
        ("\"\"\n\n", [[""], [""]]),
        ("\"a\"\"\",b\r\n\"\"\"\"\n", [["a\"", "b"], ["\""]]),
    ]

    @Test(arguments: csvCases)
    func csvFieldsAreReadAsRFC4180Says(input: String, expected: [[String]]) throws {
        let records = try CSVReader.records(Array(input.utf8)).get()
        #expect(records.map { $0.map { String(decoding: $0, as: UTF8.self) } } == expected)
    }

    static let csvProblems: [(String, CSVReader.LineProblem)] = [
        ("a,b\n\"open\nstill open\n", CSVReader.LineProblem(problem: .unclosedQuote, line: 2)),
        ("a\n\"a\"b,c\n", CSVReader.LineProblem(problem: .textAfterClosingQuote, line: 2)),
        ("\"x\ny\" z\n", CSVReader.LineProblem(problem: .textAfterClosingQuote, line: 2)),
    ]

    @Test(arguments: csvProblems)
    func brokenQuotingIsReportedWithItsLine(input: String, expected: CSVReader.LineProblem) {
        #expect(throws: expected) { try CSVReader.records(Array(input.utf8)).get() }
    }

    /// Random fields written with quoting read back the same (seeded, so reproducible).
    @Test func quotedFieldsReadBackAsWritten() throws {
        var generator = SplitMix64(seed: 26)
        let alphabet: [String] = ["a", "Я", "東", ",", "\"", "\n", "\r\n", " ", "\r", "e\u{301}"]
        for _ in 0..<300 {
            let records = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    (0..<Int.random(in: 0...5, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
                }
            }
            let text = records.map { $0.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") }
                .joined(separator: "\r\n")
            let read = try CSVReader.records(Array(text.utf8)).get()
            #expect(read.map { $0.map { String(decoding: $0, as: UTF8.self) } } == records, "\(text.debugDescription)")
        }
    }

    // MARK: stops.txt as TSV

    func transcoded(_ bytes: [UInt8], blocks: [Int]? = nil) throws -> String {
        var stops = GTFSStops(path: "stops.txt", rowLimit: 1 << 20)
        var output: [UInt8] = []
        var start = 0
        for end in blocks ?? [] {
            output += try bytes[start..<end].withUnsafeBufferPointer { (b) throws(GazetteerError) in try stops.transcode(b, isFinal: false)
            }
            start = end
        }
        output += try bytes[start...].withUnsafeBufferPointer { (b) throws(GazetteerError) in try stops.transcode(b, isFinal: false) }
        output += try stops.transcode(UnsafeBufferPointer(start: nil, count: 0), isFinal: true)
        return String(decoding: output, as: UTF8.self)
    }

    @Test func theSpecificationsSampleFeedBecomesOneTSVLinePerStop() throws {
        let tsv = try transcoded(Array(try Data(contentsOf: URL(fileURLWithPath: Self.sample))))
        let lines = tsv.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == 11)
        #expect(lines[0] == "id\tname\tlatitude\tlongitude\tcategory")
        #expect(lines[1] == "FUR_CREEK_RES\tFurnace Creek Resort (Demo)\t36.425288\t-117.133162\tstop")
        #expect(lines[9] == "AMV\tAmargosa Valley (Demo)\t36.641496\t-116.40094\tstop")
    }

    @Test func aNastyFeedKeepsStopsAndStationsAndItsLineNumbers() throws {
        let tsv = try transcoded(Array(try Data(contentsOf: URL(fileURLWithPath: Self.nasty))))
        let lines = tsv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 14, "\(lines)")
        #expect(lines[0] == "id\tname\tlatitude\tlongitude\tcategory")
        #expect(lines[1] == "MSK_KUR\tМосква, Курский вокзал\t55.7579\t37.6176\tstation")
        #expect(lines[3] == "", "an entrance is left out")
        #expect(lines[4] == "TYO\t東京駅\t35.6812\t139.7671\tstation")
        #expect(lines[5] == "TYO_M\t東京駅 丸の内口\t35.6813\t139.7673\tstop")
        #expect(lines[6] == "" && lines[7] == "", "a generic node and a boarding area are left out")
        #expect(lines[8] == "PAR_CAFE\tCafe\u{301} de la Gare \"Nord\"\t48.8809\t2.3522\tstop")
        #expect(lines[10] == "LON_TWO\tTwo-line station name\t51.5310\t-0.1240\tstation")
        #expect(lines[11] == "", "the record's second line")
        #expect(lines[12] == "BER_T\tBerlin Hbf (tief)\t52.5251\t13.3777\tstop")
    }

    @Test func theTSVIsTheSameHoweverTheFileIsCutIntoBlocks() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.nasty)))
        let whole = try transcoded(bytes)
        // Blocks end after a newline, as RecordReader hands them out: here after each one.
        let ends = bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }.dropLast()
        #expect(try transcoded(bytes, blocks: Array(ends)) == whole)
        for cut in ends { #expect(try transcoded(bytes, blocks: [cut]) == whole) }
    }

    @Test func aQuotedFieldLongerThanARowMayBeIsRefused() throws {
        var stops = GTFSStops(path: "stops.txt", rowLimit: 64)
        let header = Array("stop_name,stop_lat,stop_lon\n\"open".utf8)
        _ = try header.withUnsafeBufferPointer { (b) throws(GazetteerError) in try stops.transcode(b, isFinal: false) }
        let lines = Array(String(repeating: "still in the quotes\n", count: 4).utf8)
        #expect(throws: GazetteerError.rowTooLong(path: "stops.txt", limit: 64)) {
            try lines.withUnsafeBufferPointer { (b) throws(GazetteerError) in try stops.transcode(b, isFinal: false) }
        }
    }

    @Test func aHeaderIsAStopsFileWhenItNamesStopColumns() {
        func isHeader(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer { GTFSStops.isHeader($0) }
        }
        #expect(isHeader("stop_id,stop_name,stop_lat,stop_lon"))
        #expect(isHeader("\u{FEFF}\"stop_lon\", Stop_Name ,stop_lat"))
        #expect(isHeader("stop_id,stop_name"))
        #expect(!isHeader("name\tlatitude\tlongitude"))
        #expect(!isHeader("name,latitude,longitude"))
        #expect(!isHeader(""))
    }

    // MARK: The tools

    func suggest(_ arguments: [String]) -> RunResult { runInProcess("magickey-suggest", arguments) }
    func find(_ arguments: [String], input: Data = Data()) -> RunResult { runInProcess("magickey-find", arguments, input: input) }
    func fields(_ line: String?) -> [String] {
        guard let line else { return [] }
        return line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }

    @Test(arguments: [
        ("bullfrog", "Bullfrog (Demo)", "36.88108"), ("nye county", "Nye County Airport (Demo)", "36.86845"),
        ("stagecoach hotel", "Stagecoach Hotel & Casino (Demo)", "36.91568"),
    ])
    func aStopsKeyFindsTheStop(query: String, label: String, latitude: String) throws {
        let s = suggest(["--places", Self.sample, query])
        #expect(s.status == 0, "\(s)")
        let first = fields(s.lines.first)
        try #require(first.count == 3)
        #expect(first[0] == label && first[2] == "false")
        let found = find(["--places", Self.sample, "--json", first[1]])
        #expect(found.status == 0, "\(found)")
        #expect(found.out.contains("\"address\":\"\(label)\""))
        #expect(found.out.contains("\"y\":\(latitude)"))
    }

    @Test func namesInEveryScriptAndFormAreFound() throws {
        for (query, label) in [
            ("курский", "Москва, Курский вокзал"), ("cafe gare", "Cafe\u{301} de la Gare \"Nord\""), ("two line", "Two-line station name"),
        ] {
            let s = suggest(["--places", Self.nasty, "--category", "station,stop", query])
            #expect(s.status == 0, "\(query): \(s)")
            let first = fields(s.lines.first)
            try #require(first.count == 3, "\(query): \(s)")
            #expect(first[0] == label, "\(query): \(s)")
            let found = find(["--places", Self.nasty, first[1]])
            #expect(found.status == 0 && fields(found.lines.first).first == label, "\(query): \(found)")
        }
    }

    @Test func entrancesNodesAndBoardingAreasAreLeftOut() {
        for query in ["север", "generic node", "boarding"] {
            let s = suggest(["--places", Self.nasty, query])
            #expect(s.status == 1, "\(query): \(s)")
        }
    }

    @Test func aStationRanksAboveItsStopsAndCategoriesFilter() {
        #expect(placeImportance(population: 0, category: "station") > placeImportance(population: 0, category: "stop"))
        let all = suggest(["--places", Self.nasty, "курский вокзал"])
        #expect(all.lines.map { fields($0).first ?? "" } == ["Москва, Курский вокзал", "Курский вокзал, платформа 1"], "\(all)")
        let stops = suggest(["--places", Self.nasty, "--category", "stop", "курский вокзал"])
        #expect(stops.lines.map { fields($0).first ?? "" } == ["Курский вокзал, платформа 1"], "\(stops)")
        let stations = suggest(["--places", Self.nasty, "--category", "stations", "stations"])
        #expect(stations.lines.map { fields($0).first ?? "" } == ["Station"], "\(stations)")
    }

    @Test func theLocationBiasPutsTheNearerStopFirst() {
        // North Ave / D Ave N and North Ave / N A Ave are 600 m apart.
        let nearNADAV = suggest(["--places", Self.sample, "--location", "36.914893,-116.76821", "--distance", "100", "north ave"])
        #expect(
            nearNADAV.lines.map { fields($0).first ?? "" } == ["North Ave / D Ave N (Demo)", "North Ave / N A Ave (Demo)"], "\(nearNADAV)")
        let nearNANAA = suggest(["--places", Self.sample, "--location", "36.914944,-116.761472", "--distance", "100", "north ave"])
        #expect(
            nearNANAA.lines.map { fields($0).first ?? "" } == ["North Ave / N A Ave (Demo)", "North Ave / D Ave N (Demo)"], "\(nearNANAA)")
    }

    static let brokenFeeds: [(String, String)] = [
        ("stop_id,stop_name,stop_lon\nA,Alpha,2\n", "line 1: a GTFS stops.txt needs the column stop_lat, missing from its header"),
        ("stop_id,stop_lat\nA,2\n", "line 1: a GTFS stops.txt needs the columns stop_name, stop_lon, missing from its header"),
        ("stop_name,stop_lat,stop_lon\nAlpha,1,2\n\"Beta,1,2\n", "line 3: not valid CSV: a quoted field is not closed"),
        ("stop_name,stop_lat,stop_lon\n\"Al\"pha,1,2\n", "line 2: not valid CSV: text after a closing quote"),
        ("stop_name,stop_lat,stop_lon,location_type\nAlpha,1,2,7\n", "line 2: location_type '7' is not 0, 1, 2, 3, 4 or empty"),
        ("stop_name,stop_lat,stop_lon\n\"Two\nlines\",1,2\nBeta,,2\n", "line 4: latitude '' is not a number from -90 to 90"),
        ("stop_name,stop_lat,stop_lon\nAlpha,1,2\nB\u{FF}eta,1,2\n", "line 3: name is not valid UTF-8"),
    ]

    @Test(arguments: brokenFeeds)
    func aBrokenFeedIsOneLineNamingTheFileAndLine(feed: String, message: String) throws {
        // \u{FF} stands for the byte 0xFF, which is not UTF-8.
        let data = Data(feed.utf8).replacingOccurrences(of: [0xC3, 0xBF], with: [0xFF])
        let path = try TestFiles.write(data, name: "stops.txt")
        for tool in ["magickey-suggest", "magickey-find"] {
            let r = runInProcess(tool, ["--places", path, tool == "magickey-find" ? "--text" : "--", "alpha"])
            #expect(r.status == 2, "\(tool): \(r)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.hasPrefix("\(tool): \(path): \(message)"), "\(tool): \(r.stderr)")
            #expect(r.stderr.filter { $0 == "\n" }.count == 1, "\(r.stderr)")
        }
    }
}

extension Data {
    /// The data with every `old` byte sequence replaced by `new`.
    fileprivate func replacingOccurrences(of old: [UInt8], with new: [UInt8]) -> Data {
        var bytes = Array(self)
        var i = 0
        var out: [UInt8] = []
        while i < bytes.count {
            if i + old.count <= bytes.count && Array(bytes[i..<i + old.count]) == old {
                out += new
                i += old.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        bytes = out
        return Data(bytes)
    }
}
