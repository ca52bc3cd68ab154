import Foundation
import Testing
import WayfindTestSupport

/// Runs the built magickey-suggest and magickey-find binaries where a process matters
/// (pipes between them, `ulimit -v`); the rest runs in-process (WayfindCoreTests,
/// MagickeySuggestFindTests).
@Suite struct MagickeyEndToEndTests {
    func suggest(_ arguments: [String], input: String = "") async throws -> RunResult {
        try await Binaries.run("magickey-suggest", arguments, input: Data(input))
    }

    func find(_ arguments: [String], input: Data = Data()) async throws -> RunResult {
        try await Binaries.run("magickey-find", arguments, input: input)
    }

    func temporaryFile(_ data: Data, name: String) throws -> String {
        try TestFiles.write(data, name: name)
    }

    @Test func theFirstSuggestionPipesIntoFind() async throws {
        let r = try await Binaries.shell("magickey-suggest paris | head -1 | magickey-find")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.lines == ["Paris, Île-de-France, France\t48.85341\t2.34880\t100\tcapital\tFR\tÎle-de-France\t2138551\t2988507"])
    }

    @Test func aPlaceNamedWithABraceIsFoundFromSuggestsLine() async throws {
        let tsv = "name\tlatitude\tlongitude\n{Brace} Corner\t10.5\t20.25\n"
        let path = try temporaryFile(Data(tsv.utf8), name: "brace.tsv")
        let r = try await Binaries.shell("magickey-suggest --places '\(path)' brace | magickey-find --places '\(path)'")
        #expect(r.stderr == "")
        #expect(r.status == 0)
        #expect(r.lines.first?.hasPrefix("{Brace} Corner\t10.50000\t20.25000\t100\t") == true)
    }

    /// The worst row the limit lets through, one-letter words up to 1 MiB, is searched
    /// within a fixed address-space limit.
    @Test func aRowAtTheLimitIsSearchedInBoundedMemory() async throws {
        let tsv = "name\tlatitude\tlongitude\n" + String(repeating: "a ", count: (1 << 20) / 2 - 10) + "\t1\t2\n"
        let path = try temporaryFile(Data(tsv.utf8), name: "one-letter-words.tsv")
        let r = try await Binaries.shell("ulimit -v \(MagickeyEndToEndTests.addressSpaceKiB); magickey-suggest --places '\(path)' a | cut -c1-10")
        #expect(r.stderr == "")
        #expect(r.out == "a a a a a \n")
    }

    /// The address space the worst 1 MiB row must fit in: it needs under 60 MiB (about 43
    /// MiB resident), and needed about 90 when `SearchText.words` reserved 28 bytes per byte.
    static let addressSpaceKiB = 72 * 1024

    @Test func aClosedPipeIsSuccess() async throws {
        let r = try await Binaries.shell("magickey-suggest -n 15 s | head -1 >/dev/null; echo ${PIPESTATUS[0]}")
        #expect(r.out == "0\n")
    }

    @Test func theBinaryWorksFromAnyDirectory() async throws {
        let r = try await Binaries.run("magickey-suggest", ["zurich"], currentDirectory: URL(fileURLWithPath: "/"))
        #expect(r.lines.first?.hasPrefix("Zürich, Switzerland\t") == true)
    }
}
