import Foundation
import Testing
import WayfindTestSupport

/// The core's folders are layers, and each may use only those below it:
///
///     SearchBox                       the predicting search box: uses both below
///     RouteGraph   Places             never each other
///     Text   JSON                     never each other
///     Platform                        only the C library
///
/// The compiler keeps the targets apart (WayfindCore cannot import WayfindCLI); within
/// the core, this test does: a folder's code may name a type declared at the top level
/// of another folder only when that folder is below it. It also keeps the C library's
/// modules to one file, Platform/Platform.swift.
@Suite struct LayeringTests {
    /// The folders of Sources/WayfindCore each folder may use.
    static let allowed: [String: Set<String>] = [
        "Platform": [],
        "Text": ["Platform"],
        "JSON": ["Platform"],
        "RouteGraph": ["Platform", "Text", "JSON"],
        "Places": ["Platform", "Text", "JSON"],
        "SearchBox": ["Platform", "Text", "JSON", "RouteGraph", "Places"],
    ]

    /// A source file: its folder under Sources/WayfindCore, its name and its text.
    struct Source {
        var folder: String
        var name: String
        var text: String
    }

    /// The code of `text` without comments and string literals (roughly: enough that a
    /// type named in a comment or a message does not count as a use).
    static func code(_ text: String) -> String {
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var inString = false
            var previous: Character = " "
            var kept = ""
            for c in line {
                if !inString && c == "/" && previous == "/" {
                    kept.removeLast()
                    break
                }
                if c == "\"" && previous != "\\" { inString.toggle() } else if !inString { kept.append(c) }
                previous = c
            }
            out += kept + "\n"
        }
        return out
    }

    /// The names of the types `text` declares: at the top level (`topLevel`), or anywhere.
    static func declaredTypes(_ text: String, topLevel: Bool) -> Set<String> {
        let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "typealias", "actor"]
        var names: Set<String> = []
        for line in code(text).split(separator: "\n") {
            if topLevel && line.first?.isWhitespace == true { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "{" || $0 == "<" || $0 == "=" })
            for (i, word) in words.enumerated().dropLast() where kinds.contains(word) {
                names.insert(String(words[i + 1]))
                break
            }
        }
        return names
    }

    /// The capitalized identifiers `text`'s code names.
    static func typeNames(_ text: String) -> Set<String> {
        var names: Set<String> = []
        var current = ""
        for c in code(text) + " " {
            if c.isLetter || c.isNumber || c == "_" {
                current.append(c)
            } else {
                if let first = current.first, first.isUppercase { names.insert(current) }
                current = ""
            }
        }
        return names
    }

    /// Every use of a type from a folder a file's folder may not use: `file: Type (Folder)`.
    static func violations(_ sources: [Source]) -> [String] {
        var owner: [String: String] = [:]
        var declaredIn: [String: Set<String>] = [:]
        for source in sources {
            for name in declaredTypes(source.text, topLevel: true) where owner[name] == nil { owner[name] = source.folder }
            declaredIn[source.folder, default: []].formUnion(declaredTypes(source.text, topLevel: false))
        }
        var found: [String] = []
        for source in sources {
            let mayUse = allowed[source.folder] ?? []
            for name in typeNames(source.text).sorted() {
                // A name the folder declares itself (a nested `Place`, `Suggestion`) is its own.
                guard let folder = owner[name], folder != source.folder, declaredIn[source.folder]?.contains(name) != true,
                    !mayUse.contains(folder)
                else { continue }
                found.append("\(source.folder)/\(source.name): \(name) (\(folder))")
            }
        }
        return found
    }

    /// The core's source files.
    static func coreSources() throws -> [Source] {
        let core = Repository.root.appendingPathComponent("Sources/WayfindCore")
        var sources: [Source] = []
        for folder in try FileManager.default.contentsOfDirectory(atPath: core.path).sorted() {
            let url = core.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where name.hasSuffix(".swift") {
                sources.append(Source(folder: folder, name: name, text: try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)))
            }
        }
        return sources
    }

    @Test func everyFolderOfTheCoreIsALayer() throws {
        let folders = Set(try Self.coreSources().map(\.folder))
        #expect(folders == Set(Self.allowed.keys), "a new folder needs its place in `allowed`")
    }

    @Test func eachFolderUsesOnlyTheLayersBelowIt() throws {
        let violations = Self.violations(try Self.coreSources())
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    @Test func aUseOfAHigherLayerIsCaught() {
        let sources = [
            Source(folder: "Text", name: "A.swift", text: "struct Matcher {}\n"),
            Source(folder: "Places", name: "B.swift", text: "package enum Geocoder { let m = Matcher() }\n"),
            Source(folder: "RouteGraph", name: "C.swift", text: "// Geocoder in a comment\nlet s = \"Geocoder\"\nlet g: Geocoder? = nil\n"),
            Source(folder: "JSON", name: "D.swift", text: "struct Own {\n    struct Geocoder {}\n}\nlet g = Geocoder()\n"),
        ]
        #expect(Self.violations(sources) == ["RouteGraph/C.swift: Geocoder (Places)"])
    }

    /// The one source file that imports the C library (swift-system's `Exports.swift`).
    static let platformFile = "WayfindCore/Platform/Platform.swift"

    /// Every line of `files` (path under Sources/, text) that breaks the platform rule: an
    /// import of Glibc, Musl or Darwin outside `platformFile`, an `@_exported` import (it
    /// would hand the C library to every file of the module), a module-qualified call
    /// (`Glibc.open`), or an import of the CLI in the core.
    static func platformViolations(_ files: [(path: String, text: String)]) -> [String] {
        let libraries: Set<Substring> = ["Glibc", "Musl", "Darwin"]
        var found: [String] = []
        for (path, text) in files {
            for line in code(text).split(separator: "\n") {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "(" })
                let qualified = words.contains { word in libraries.contains { word.hasPrefix($0 + ".") } }
                if let i = words.firstIndex(of: "import"), i + 1 < words.count {
                    let module = words[i + 1]
                    if (libraries.contains(module) && path != platformFile) || words.contains("@_exported")
                        || (module == "WayfindCLI" && path.hasPrefix("WayfindCore/"))
                    {
                        found.append("\(path): \(line)")
                    }
                } else if qualified {
                    found.append("\(path): \(line)")
                }
            }
        }
        return found
    }

    @Test func onlyThePlatformFileImportsTheCLibraryAndTheCoreNeverTheCLI() throws {
        let sources = Repository.root.appendingPathComponent("Sources")
        let paths = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        var files: [(path: String, text: String)] = []
        for path in paths.sorted() where path.hasSuffix(".swift") {
            files.append((path, try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)))
        }
        let violations = Self.platformViolations(files)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        let platform = try #require(files.first { $0.path == Self.platformFile }).text
        for module in ["Glibc", "Musl", "Darwin"] { #expect(platform.contains("    import \(module)\n")) }
        #expect(platform.contains("#error(\"unsupported platform\")"))
    }

    @Test func aCLibraryImportOutsideThePlatformFileIsCaught() {
        let files: [(path: String, text: String)] = [
            (Self.platformFile, "#if canImport(Glibc)\n    import Glibc\n#endif\n"),
            ("WayfindCore/Text/A.swift", "#if canImport(Darwin)\n    import Darwin\n#endif\n// import Glibc in a comment\n"),
            ("WayfindCore/JSON/B.swift", "let n = Glibc.strlen(s)\n"),
            ("WayfindCore/Platform/C.swift", "@_exported import Musl\n"),
            ("WayfindCore/Places/D.swift", "import WayfindCLI\n"),
            ("WayfindCLI/E.swift", "import WayfindCore\nlet s = \"import Glibc\"\n"),
        ]
        #expect(
            Self.platformViolations(files) == [
                "WayfindCore/Text/A.swift:     import Darwin", "WayfindCore/JSON/B.swift: let n = Glibc.strlen(s)",
                "WayfindCore/Platform/C.swift: @_exported import Musl", "WayfindCore/Places/D.swift: import WayfindCLI",
            ])
    }
}
