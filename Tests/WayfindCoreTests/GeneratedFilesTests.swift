import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// Every generated file is what its generator makes now: each generator writes its files
/// into a scratch folder laid out as the repository, and each file is compared with the
/// committed one (`make generate` runs them all in place). The embedded gazetteer's index
/// is left to PlacesIndexTests, which builds it from places.tsv and compares the bytes.
@Suite struct GeneratedFilesTests {
    /// A generator: how to run it by hand, the files it makes, and the making.
    struct Generator: CustomStringConvertible, Sendable {
        /// How to run it by hand (what the failure says to do).
        var description: String
        /// Its files, relative to the repository.
        var paths: [String]
        /// Writes them under the folder given, laid out as the repository.
        var make: @Sendable (URL) throws -> Void
    }

    /// The man page and completions of wayfind and of each tool the multi-call table lists,
    /// from their flag tables, as `TOOL --generate=KIND` prints them.
    static let docs = Generator(description: "make docs", paths: programs().flatMap { docFiles($0.name).map(\.path) }) { root in
        for (name, run) in programs() {
            for (kind, path) in docFiles(name) {
                let r = runInProcess(run, ["--generate=\(kind)"])
                guard r.status == 0 else { throw GeneratorFailure("\(name) --generate=\(kind): \(r.stderr)") }
                try write(r.stdout, to: root, path)
            }
        }
    }

    /// wayfind and each tool, with its entry point.
    static func programs() -> [(name: String, run: ToolRun)] {
        [(MultiCall.name, MultiCall.run)] + MultiCall.tools.map { ($0.name, $0.run) }
    }

    /// The documentation files of the program `name`, with the `--generate` kind of each.
    static func docFiles(_ name: String) -> [(kind: String, path: String)] {
        [
            ("man", "man/\(name).1"), ("complete-bash", "completions/bash/\(name)"), ("complete-zsh", "completions/zsh/_\(name)"),
            ("complete-fish", "completions/fish/\(name).fish"),
        ]
    }

    /// The lead bytes of each ASCII byte's folds, from the folding tables.
    static let leadByteTable = Generator(
        description: "WAYFIND_REGENERATE=1 swift test --filter LeadByteTable",
        paths: [LeadByteTableTests.generatedPath]
    ) { root in
        try write(
            Data(LeadByteTableTests.render(LeadByteSet.computeASCIITable()).utf8), to: root, LeadByteTableTests.generatedPath)
    }

    /// The folding tables, from the toolchain's Unicode data and Foundation (compiles and
    /// runs the generator: about 7 s).
    static let unicodeTables = Generator(
        description: "make tables",
        paths: ["Sources/WayfindCore/Text/UnicodeTables.generated.swift", "Sources/WayfindUnicodeData/unicode_tables.c"]
    ) { root in
        try script("/bin/sh", "Tests/Generators/run-generate-unicode-tables.sh", root)
    }

    /// The country codes, from Debian's iso-codes and places.tsv.
    static let countryCodes = Generator(
        description: "python3 Tests/Generators/generate-country-codes.py",
        paths: ["Sources/WayfindCore/Places/CountryCodes.generated.swift"]
    ) { root in
        try script(TestProcess.executable("python3") ?? "python3", "Tests/Generators/generate-country-codes.py", root)
    }

    static let generators = [docs, leadByteTable, unicodeTables, countryCodes]

    struct GeneratorFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func write(_ bytes: Data, to root: URL, _ path: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: url)
    }

    /// Runs the generator script `path` of the repository with `interpreter`, its files
    /// going under `root`.
    static func script(_ interpreter: String, _ path: String, _ root: URL) throws {
        let r = try TestProcess.run(interpreter, [Repository.root.appendingPathComponent(path).path, root.path])
        guard r.status == 0 else { throw GeneratorFailure("\(path): \(r)") }
    }

    /// How much of a difference a failure shows.
    static let diffLinesShown = 80

    @Test(arguments: generators)
    func everyGeneratedFileIsWhatItsGeneratorMakesNow(generator: Generator) throws {
        let scratch = try TestFiles.directory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try generator.make(scratch)
        for path in generator.paths {
            let made = FileManager.default.contents(atPath: scratch.appendingPathComponent(path).path)
            let committed = FileManager.default.contents(atPath: Repository.root.appendingPathComponent(path).path)
            #expect(made != nil, "\(generator) made no \(path)")
            guard let made, made != committed else { continue }
            guard committed != nil else {
                Issue.record("\(path) is not committed: run \(generator) (or make generate)")
                continue
            }
            // The first lines of the difference (a new Unicode version changes thousands).
            let diff = try TestProcess.run(
                "/usr/bin/diff", ["-u", Repository.root.appendingPathComponent(path).path, scratch.appendingPathComponent(path).path])
            let shown = diff.lines.prefix(Self.diffLinesShown).joined(separator: "\n")
            Issue.record("\(path) is not what its generator makes now: run \(generator) (or make generate)\n\(shown)")
        }
    }

    /// Every committed file whose first lines say it is generated is one that a generator
    /// above makes, so none escapes the comparison, and a file no generator makes any more
    /// (the page of a tool taken out of the multi-call table) does not linger.
    @Test func everyFileThatSaysItIsGeneratedHasAGenerator() throws {
        let made = Set(Self.generators.flatMap(\.paths))
        var saying: [String] = []
        for folder in ["Sources", "man", "completions"] {
            let base = Repository.root.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(atPath: base.path)
            while let name = enumerator?.nextObject() as? String {
                guard enumerator?.fileAttributes?[.type] as? FileAttributeType == .typeRegular,
                    let handle = FileHandle(forReadingAtPath: base.appendingPathComponent(name).path)
                else { continue }
                defer { try? handle.close() }
                let head = String(decoding: try handle.read(upToCount: 300) ?? Data(), as: UTF8.self)
                if head.split(separator: "\n").prefix(2).contains(where: { $0.lowercased().contains("generated by") }) {
                    saying.append(folder + "/" + name)
                }
            }
        }
        let strays = Set(saying).subtracting(made).sorted()
        let missing = made.subtracting(saying).sorted()
        #expect(strays.isEmpty, "no generator makes \(strays): remove them, or add their generator above")
        #expect(missing.isEmpty, "not committed, or not saying they are generated: \(missing) (run make generate)")
    }
}
